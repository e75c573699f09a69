// Starts `toscana lsp` for the YAML and XML files that are TOSCA, and stops it with VS Code.
// Everything else (what is checked, hover, completion, fixes) is the server's: see docs/lsp.md.
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const config = vscode.workspace.getConfiguration("toscana");
  const command = config.get<string>("path", "toscana");
  const args = ["lsp", ...config.get<string[]>("args", [])];
  const serverOptions: ServerOptions = {
    run: { command, args, transport: TransportKind.stdio },
    debug: { command, args, transport: TransportKind.stdio },
  };
  const clientOptions: LanguageClientOptions = {
    // The server checks only files on disk (their imports are read relative to them).
    documentSelector: [
      { scheme: "file", language: "yaml" },
      { scheme: "file", language: "xml" },
      { scheme: "file", pattern: "**/*.tosca" },
    ],
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher("**/*.{yaml,yml,xml,tosca}"),
    },
  };
  client = new LanguageClient("toscana", "TOSCA (toscana)", serverOptions, clientOptions);
  context.subscriptions.push(client);
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
