//! `toscana lsp`: the TOSCA language server, over standard input and output.
//!
//! What an editor gets is what `toscana check` knows: diagnostics on every change (the pipeline
//! itself, run on the unsaved texts), and, from the names the front end read with their spans,
//! hover, go to definition, references, completion, outline, workspace symbols, rename and the
//! fixes diagnostics hint at. docs/lsp.md is the user's page.
//!
//! # Why `lsp-server` and `lsp-types`
//!
//! The two crates rust-analyzer is built on, maintained in its repository: `lsp-server` is the
//! protocol's transport (JSON-RPC framing over stdio on a reader and a writer thread, the
//! initialize and shutdown handshakes) and nothing more, `lsp-types` the protocol's types. The
//! alternative, `tower-lsp-server`, is an async framework: it needs an async runtime (tokio),
//! which toscana has no other use for, to run what is here synchronous CPU work (a check). A
//! plain loop also makes the order of events obvious: messages are handled in the order they
//! arrive, a change marks checks as due, checks run when the queue is empty or before a request
//! that needs them, so a burst of keystrokes costs one check, not one per keystroke.
//!
//! # Layout
//!
//! - [`server`]: the loop and the dispatch of messages;
//! - [`workspace`] (with [`documents`]): what is open, what is checked, which diagnostics each
//!   file shows; [`check`] runs one check and [`diagnostics`] converts its problems;
//! - [`index`]: the names and their spans, the one place that reads the model;
//! - one module per feature: [`hover`] (with [`evaluate`], what a call evaluates to), [`navigate`] (definition, references, rename),
//!   [`completion`] (with [`context`], where the cursor is in a document that may not parse,
//!   and [`targets`], what may fulfil a requirement),
//!   [`symbols`], [`actions`] (with [`imports`], the missing import); [`xml`], the TOSCA
//!   1.0 XML schema's elements and attributes for completion and hover;
//! - [`lines`] and [`uri`]: positions and document names as the protocol has them;
//!   [`readonly`]: the embedded profiles and explain pages as files an editor can open.

pub mod actions;
pub mod check;
pub mod completion;
pub mod context;
pub mod diagnostics;
pub mod documents;
pub mod evaluate;
pub mod hover;
pub mod imports;
pub mod index;
pub mod keynames;
pub mod lines;
pub mod navigate;
pub mod readonly;
pub mod server;
pub mod symbols;
pub mod targets;
pub mod uri;
pub mod workspace;
pub mod xml;

#[cfg(test)]
mod calls_tests;
#[cfg(test)]
mod grouping_tests;
#[cfg(test)]
mod reuse_tests;
#[cfg(test)]
mod tests;

pub use check::Settings;

/// The error that ended a server: the connection failed (the editor's end of the pipe is
/// gone) or a message did not parse.
pub type Error = Box<dyn std::error::Error + Sync + Send>;

/// Runs the server until the editor shuts it down or closes the connection; returns whether
/// it asked for a `shutdown` first (the process then exits 0, else 1, as the protocol asks).
/// `settings` are the flags every check takes (`toscana lsp --map-url ... --profile-path ...
/// --quirk ...`).
pub fn serve(settings: Settings) -> Result<bool, Error> {
    server::run(settings)
}
