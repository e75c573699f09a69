//! The end of every run: the diagnostics on standard error, in source order, and a closing line
//! that counts them.
//!
//! With `--message-format json` standard error carries nothing but the diagnostics, one JSON
//! object per line: no closing line, and no `--explain` account (which is for people).

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use super::{ColorChoice, EXIT_INVALID, ReportArgs};
use crate::cli::stdio::{Outcome, Pipe};
use crate::diag::{self, Diagnostics, MessageFormat, plural};
use crate::source::SourceMap;

/// Which closing line a run ends with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Closing {
    /// `check`: the verdict on the template, always (`valid` only without `--quiet`).
    Check,
    /// Every other command: the counts, when there is something to count.
    Run,
}

/// How a run's diagnostics are reported.
pub struct Report<'a> {
    pub args: &'a ReportArgs,
    pub sources: &'a SourceMap,
    /// The template as the command line names it, which the closing line starts with.
    pub input: &'a str,
    /// What `--explain` says about a variability resolution.
    pub explanation: Option<String>,
    pub closing: Closing,
    /// At most this many bytes of diagnostics are printed (`--max-diagnostics-size`).
    pub max_bytes: u64,
}

impl Report<'_> {
    /// Prints the diagnostics (errors only with `--quiet`) and the closing line to standard
    /// error, and turns `code` into the process's exit code: a reader that closed standard
    /// error changes nothing, a standard error that cannot be written (a full disk) is exit 3,
    /// never a panic or an abort ([`crate::cli::stdio`]).
    pub fn print(&self, diags: &Diagnostics, code: u8) -> ExitCode {
        let args = self.args;
        let human = args.message_format == MessageFormat::Human;
        let shown: Vec<diag::Diagnostic> = diags
            .in_order(self.sources)
            .into_iter()
            .filter(|d| !args.quiet || d.is_error())
            .collect();
        let stderr = std::io::stderr();
        let color = human && colors(args.color, stderr.is_terminal());
        let mut err = Pipe::new(stderr.lock());
        if human && let Some(text) = &self.explanation {
            let _ = err.write_all(text.as_bytes());
        }
        let _ = diag::emit(
            &mut err,
            &shown,
            self.sources,
            args.message_format,
            color,
            self.max_bytes,
        );
        if human && let Some(line) = self.closing_line(diags, code) {
            let _ = writeln!(err, "{}", paint(&line, color));
        }
        exit_after(code, err.finish())
    }

    /// `hello.yaml: valid (1 warning)`, `hello.yaml: invalid (2 errors, 1 warning)`,
    /// `hello.yaml: 2 errors, 1 warning; nothing written`, or nothing to say.
    fn closing_line(&self, diags: &Diagnostics, code: u8) -> Option<String> {
        let quiet = self.args.quiet;
        let input = self.input;
        let counts = counts(diags);
        match (self.closing, code) {
            (Closing::Check, 0) if quiet => None,
            (Closing::Check, 0) => Some(format!("{input}: valid ({counts})")),
            (Closing::Check, EXIT_INVALID) => Some(format!("{input}: invalid ({counts})")),
            (Closing::Check, _) => Some(format!("{input}: failed ({counts})")),
            (Closing::Run, 0) if quiet || diags.warning_count() == 0 => None,
            (Closing::Run, 0) => Some(format!("{input}: {counts}")),
            (Closing::Run, _) => Some(format!("{input}: {counts}; nothing written")),
        }
    }
}

/// The exit code of a run that ended with `code`, once its report went to standard error as
/// `stderr` says: a reader that closed the pipe changes nothing; a report that could not be
/// written (a full disk) is exit 3, with a last try at saying so.
pub fn exit_after(code: u8, stderr: Outcome) -> ExitCode {
    match stderr {
        Outcome::Failed(e) => {
            let _ = crate::cli::stdio::to_stderr(&format!(
                "error[output::write]: cannot write diagnostics to standard error: {e}\n"
            ));
            ExitCode::from(super::EXIT_OUTPUT)
        }
        _ => ExitCode::from(code),
    }
}

/// "2 errors, 1 warning", "0 warnings", "3 errors (2 of them warnings denied by
/// --deny-warnings), 0 warnings".
fn counts(diags: &Diagnostics) -> String {
    let (errors, warnings) = (diags.error_count(), diags.warning_count());
    let warnings = format!("{warnings} warning{}", plural(warnings as u64));
    let denied = match diags.denied_count() {
        0 => String::new(),
        n if n == errors => " (warnings denied by --deny-warnings)".to_string(),
        n => format!(" ({n} of them warnings denied by --deny-warnings)"),
    };
    match errors {
        0 => warnings,
        n => format!("{n} error{}{denied}, {warnings}", plural(n as u64)),
    }
}

/// Whether to colour: `--color`, where `auto` means a terminal and no `NO_COLOR`
/// (<https://no-color.org>: set and not empty).
pub fn colors(choice: ColorChoice, terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
    }
}

/// The closing line in bold when colouring.
fn paint(line: &str, color: bool) -> String {
    match color {
        true => format!("\u{1b}[1m{line}\u{1b}[0m"),
        false => line.to_string(),
    }
}
