//! The loop: read a message, handle it, and run the checks that are due when nothing waits.
//!
//! Notifications (open, change, save, close) only mark checks as due. A request first runs the
//! due checks of the open documents, so it is answered on what the editor shows. When no message
//! waits, the due checks run and their diagnostics are published; then, still only while no
//! message waits, the workspace's other templates are checked one at a time.

use std::collections::BTreeSet;
use std::path::PathBuf;

use crossbeam_channel::TryRecvError;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument, DidOpenTextDocument,
    DidSaveTextDocument, Exit, Notification as _, PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentSymbolRequest, GotoDefinition, HoverRequest,
    PrepareRenameRequest, References, Rename, Request as _, Shutdown, WorkspaceSymbolRequest,
};
use lsp_types::{
    CodeActionProviderCapability, CompletionOptions, HoverProviderCapability, InitializeParams,
    OneOf, PublishDiagnosticsParams, RenameOptions, SaveOptions, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, WorkDoneProgressOptions,
};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::check::Settings;
use super::uri::{path_of, uri_of};
use super::workspace::Workspace;
use super::{actions, completion, hover, navigate, symbols};

/// What the server can do, as it tells the editor.
fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(false),
                })),
                ..Default::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![":".into(), " ".into(), "$".into(), "[".into()]),
            ..Default::default()
        }),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        })),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        ..Default::default()
    }
}

/// Serves one editor over standard input and output; returns whether it ended with a
/// `shutdown` request.
pub fn run(settings: Settings) -> Result<bool, super::Error> {
    let (connection, threads) = Connection::stdio();
    let initialize = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": ServerInfo {
            name: "toscana".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        },
    });
    let (id, params) = connection.initialize_start()?;
    connection.initialize_finish(id, initialize)?;
    let params: InitializeParams = serde_json::from_value(params)?;
    let mut workspace = Workspace::new(settings, folders(&params));
    workspace.discover();
    let shut_down = serve(&connection, &mut workspace)?;
    drop(connection);
    threads.join()?;
    Ok(shut_down)
}

/// The workspace folders the editor names (or its root).
#[allow(deprecated)]
fn folders(params: &InitializeParams) -> Vec<PathBuf> {
    let mut folders: Vec<PathBuf> = params
        .workspace_folders
        .iter()
        .flatten()
        .filter_map(|f| path_of(&f.uri))
        .collect();
    if folders.is_empty() {
        folders.extend(params.root_uri.as_ref().and_then(path_of));
    }
    folders
}

/// The loop; returns whether the editor asked for a `shutdown` before it left (with the `exit`
/// notification or by closing the connection). After `shutdown`, requests are refused as the
/// protocol says and nothing more is checked; a second `shutdown` (Neovim sends one when it
/// stops a client and another when it quits) is answered again rather than taken for an error.
fn serve(connection: &Connection, workspace: &mut Workspace) -> Result<bool, super::Error> {
    let mut shut_down = false;
    loop {
        let message = match connection.receiver.try_recv() {
            Ok(message) => message,
            Err(TryRecvError::Disconnected) => return Ok(shut_down),
            Err(TryRecvError::Empty) if workspace.has_work() && !shut_down => {
                let changed = workspace.work();
                publish(connection, workspace, changed)?;
                continue;
            }
            Err(TryRecvError::Empty) => match connection.receiver.recv() {
                Ok(message) => message,
                Err(_) => return Ok(shut_down),
            },
        };
        match message {
            Message::Request(request) if request.method == Shutdown::METHOD => {
                shut_down = true;
                let response = Response::new_ok(request.id, ());
                connection.sender.send(Message::Response(response))?;
            }
            Message::Request(request) if shut_down => {
                let response = Response::new_err(
                    request.id,
                    ErrorCode::InvalidRequest as i32,
                    "the server is shutting down".into(),
                );
                connection.sender.send(Message::Response(response))?;
            }
            Message::Request(request) => {
                let changed = workspace.work_urgent();
                publish(connection, workspace, changed)?;
                let response = respond(workspace, request);
                connection.sender.send(Message::Response(response))?;
            }
            Message::Notification(notification) if notification.method == Exit::METHOD => {
                return Ok(shut_down);
            }
            Message::Notification(notification) => {
                let cleared = notify(workspace, notification);
                publish(connection, workspace, cleared)?;
            }
            Message::Response(_) => {}
        }
    }
}

/// Sends the diagnostics of each file in `changed` (an empty list clears a file's).
fn publish(
    connection: &Connection,
    workspace: &mut Workspace,
    changed: BTreeSet<PathBuf>,
) -> Result<(), super::Error> {
    for path in changed {
        let params = PublishDiagnosticsParams {
            uri: uri_of(&path),
            diagnostics: workspace.diagnostics(&path),
            version: None,
        };
        connection
            .sender
            .send(Message::Notification(Notification::new(
                PublishDiagnostics::METHOD.into(),
                params,
            )))?;
    }
    Ok(())
}

/// Handles a notification; returns the files whose diagnostics must be published at once (a
/// closed document's, when it is no longer checked).
fn notify(workspace: &mut Workspace, notification: Notification) -> BTreeSet<PathBuf> {
    match notification.method.as_str() {
        DidOpenTextDocument::METHOD => {
            if let Some(params) = params::<lsp_types::DidOpenTextDocumentParams>(notification)
                && let Some(path) = path_of(&params.text_document.uri)
            {
                workspace.documents.open(
                    path.clone(),
                    params.text_document.uri,
                    params.text_document.text,
                );
                workspace.touched(&path);
            }
        }
        DidChangeTextDocument::METHOD => {
            if let Some(params) = params::<lsp_types::DidChangeTextDocumentParams>(notification)
                && let Some(path) = path_of(&params.text_document.uri)
            {
                workspace.documents.change(&path, params.content_changes);
                workspace.touched(&path);
            }
        }
        DidSaveTextDocument::METHOD => {
            if let Some(params) = params::<lsp_types::DidSaveTextDocumentParams>(notification)
                && let Some(path) = path_of(&params.text_document.uri)
            {
                workspace.touched(&path);
            }
        }
        DidCloseTextDocument::METHOD => {
            if let Some(params) = params::<lsp_types::DidCloseTextDocumentParams>(notification)
                && let Some(path) = path_of(&params.text_document.uri)
            {
                return workspace.closed(&path);
            }
        }
        DidChangeWatchedFiles::METHOD => {
            if let Some(params) = params::<lsp_types::DidChangeWatchedFilesParams>(notification) {
                for change in params.changes {
                    if let Some(path) = path_of(&change.uri) {
                        workspace.touched(&path);
                    }
                }
            }
        }
        _ => {}
    }
    BTreeSet::new()
}

fn params<P: DeserializeOwned>(notification: Notification) -> Option<P> {
    serde_json::from_value(notification.params).ok()
}

/// Answers one request. A request this server does not know, or whose parameters do not parse,
/// gets the protocol's error; every other answer is a result, `null` when there is nothing.
fn respond(workspace: &Workspace, request: Request) -> Response {
    let id = request.id.clone();
    match request.method.as_str() {
        HoverRequest::METHOD => answer(id, request, |p: lsp_types::HoverParams| {
            let at = p.text_document_position_params;
            path_of(&at.text_document.uri)
                .and_then(|path| hover::hover(workspace, &path, at.position))
        }),
        GotoDefinition::METHOD => answer(id, request, |p: lsp_types::GotoDefinitionParams| {
            let at = p.text_document_position_params;
            path_of(&at.text_document.uri)
                .and_then(|path| navigate::definition(workspace, &path, at.position))
                .map(lsp_types::GotoDefinitionResponse::Scalar)
        }),
        References::METHOD => answer(id, request, |p: lsp_types::ReferenceParams| {
            let at = p.text_document_position;
            path_of(&at.text_document.uri).map(|path| {
                navigate::references(workspace, &path, at.position, p.context.include_declaration)
            })
        }),
        PrepareRenameRequest::METHOD => {
            answer(id, request, |p: lsp_types::TextDocumentPositionParams| {
                path_of(&p.text_document.uri)
                    .and_then(|path| navigate::prepare_rename(workspace, &path, p.position))
                    .map(lsp_types::PrepareRenameResponse::Range)
            })
        }
        Rename::METHOD => {
            let parsed = serde_json::from_value::<lsp_types::RenameParams>(request.params);
            match parsed {
                Err(e) => Response::new_err(id, ErrorCode::InvalidParams as i32, e.to_string()),
                Ok(p) => {
                    let at = p.text_document_position;
                    let result = path_of(&at.text_document.uri)
                        .ok_or_else(|| "only files on disk can be renamed in".to_string())
                        .and_then(|path| {
                            navigate::rename(workspace, &path, at.position, &p.new_name)
                        });
                    match result {
                        Ok(edit) => Response::new_ok(id, edit),
                        Err(message) => {
                            Response::new_err(id, ErrorCode::InvalidRequest as i32, message)
                        }
                    }
                }
            }
        }
        DocumentSymbolRequest::METHOD => {
            answer(id, request, |p: lsp_types::DocumentSymbolParams| {
                path_of(&p.text_document.uri).map(|path| {
                    lsp_types::DocumentSymbolResponse::Nested(symbols::document(workspace, &path))
                })
            })
        }
        WorkspaceSymbolRequest::METHOD => {
            answer(id, request, |p: lsp_types::WorkspaceSymbolParams| {
                Some(lsp_types::WorkspaceSymbolResponse::Flat(
                    symbols::workspace(workspace, &p.query),
                ))
            })
        }
        Completion::METHOD => answer(id, request, |p: lsp_types::CompletionParams| {
            let at = p.text_document_position;
            path_of(&at.text_document.uri).map(|path| {
                lsp_types::CompletionResponse::Array(completion::complete(
                    workspace,
                    &path,
                    at.position,
                ))
            })
        }),
        CodeActionRequest::METHOD => answer(id, request, |p: lsp_types::CodeActionParams| {
            path_of(&p.text_document.uri).map(|path| actions::actions(workspace, &path, &p))
        }),
        _ => Response::new_err(
            id,
            ErrorCode::MethodNotFound as i32,
            format!("toscana lsp does not answer `{}`", request.method),
        ),
    }
}

/// The response to a request whose parameters are `P`, with the result of `f`.
fn answer<P: DeserializeOwned, R: Serialize>(
    id: RequestId,
    request: Request,
    f: impl FnOnce(P) -> Option<R>,
) -> Response {
    match serde_json::from_value::<P>(request.params) {
        Ok(params) => Response::new_ok(id, f(params)),
        Err(e) => Response::new_err(id, ErrorCode::InvalidParams as i32, e.to_string()),
    }
}
