//! Standard output and standard error as command-line tools treat them: a reader that goes
//! away (`toscana check x.yaml 2>&1 | head -c1`) ends the output quietly, and a stream that
//! cannot be written (`2>/dev/full`) is an error the exit code reports, never a panic or an
//! abort.
//!
//! Rust ignores `SIGPIPE`, so a write to a closed pipe fails with `BrokenPipe`; the `print!`
//! macros panic on that, and a panic whose message cannot be written either aborts. Every
//! write of a run to these streams therefore goes through a [`Pipe`].

use std::io::{self, Write};

/// What became of the writes to one stream.
#[derive(Debug)]
pub enum Outcome {
    /// Everything was written (or there was nothing to write).
    Written,
    /// The reader closed the pipe: the rest was dropped, as the reader asked.
    Closed,
    /// A write failed otherwise (a full disk): the first error.
    Failed(io::Error),
}

/// A writer that takes a closed pipe for the end of the output and remembers the first other
/// failure, so that one report can be written without checking each write.
pub struct Pipe<W: Write> {
    inner: W,
    closed: bool,
    failed: Option<io::Error>,
}

impl<W: Write> Pipe<W> {
    pub fn new(inner: W) -> Self {
        Pipe {
            inner,
            closed: false,
            failed: None,
        }
    }

    /// Flushes and says what became of the writes.
    pub fn finish(mut self) -> Outcome {
        let _ = self.flush();
        match (self.failed, self.closed) {
            (Some(e), _) => Outcome::Failed(e),
            (None, true) => Outcome::Closed,
            (None, false) => Outcome::Written,
        }
    }

    /// Whether the reader has gone away.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    fn sort(&mut self, result: io::Result<()>) -> io::Result<()> {
        match result {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            Err(e) => {
                let shown = io::Error::new(e.kind(), e.to_string());
                self.failed.get_or_insert(e);
                Err(shown)
            }
            Ok(()) => Ok(()),
        }
    }
}

impl<W: Write> Write for Pipe<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if !self.closed && self.failed.is_none() {
            let result = self.inner.write_all(buf);
            self.sort(result)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.closed || self.failed.is_some() {
            return Ok(());
        }
        let result = self.inner.flush();
        self.sort(result)
    }
}

/// Writes `text` to standard error, for the lines a command prints besides diagnostics.
pub fn to_stderr(text: &str) -> Outcome {
    let mut err = Pipe::new(io::stderr().lock());
    let _ = err.write_all(text.as_bytes());
    err.finish()
}

/// Writes `text` to standard output, for a command whose result is one text (`explain`); the
/// exit code `code`, or 3 (said on standard error when it can be) when the text cannot be
/// written.
pub fn print(text: &str, code: u8) -> std::process::ExitCode {
    let mut out = Pipe::new(io::stdout().lock());
    let _ = out.write_all(text.as_bytes());
    match out.finish() {
        Outcome::Failed(e) => {
            let _ = to_stderr(&format!(
                "error[output::write]: cannot write to standard output: {e}\n"
            ));
            std::process::ExitCode::from(super::EXIT_OUTPUT)
        }
        _ => std::process::ExitCode::from(code),
    }
}

/// The outcome of two streams' writes, or of two writes to one: the worse of the two.
pub fn worse(a: Outcome, b: Outcome) -> Outcome {
    match (a, b) {
        (Outcome::Failed(e), _) | (_, Outcome::Failed(e)) => Outcome::Failed(e),
        (Outcome::Closed, _) | (_, Outcome::Closed) => Outcome::Closed,
        _ => Outcome::Written,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stream that fails every write with `kind`.
    struct Broken(io::ErrorKind);

    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from(self.0))
        }
        fn flush(&mut self) -> io::Result<()> {
            Err(io::Error::from(self.0))
        }
    }

    #[test]
    fn a_closed_pipe_ends_the_output_without_an_error() {
        let mut pipe = Pipe::new(Broken(io::ErrorKind::BrokenPipe));
        assert!(pipe.write_all(b"a").is_ok());
        assert!(pipe.write_all(b"b").is_ok());
        assert!(pipe.is_closed());
        assert!(matches!(pipe.finish(), Outcome::Closed));
    }

    #[test]
    fn a_full_disk_is_remembered_as_the_first_failure() {
        let mut pipe = Pipe::new(Broken(io::ErrorKind::StorageFull));
        assert!(pipe.write_all(b"a").is_err());
        // Later writes are dropped: the report is already lost.
        assert!(pipe.write_all(b"b").is_ok());
        match pipe.finish() {
            Outcome::Failed(e) => assert_eq!(e.kind(), io::ErrorKind::StorageFull),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn writes_that_work_pass_through() {
        let mut pipe = Pipe::new(Vec::new());
        pipe.write_all(b"hello").unwrap();
        assert!(matches!(pipe.finish(), Outcome::Written));
    }
}
