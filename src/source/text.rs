//! Turning bytes into text: bounded reads and the checks every input file goes through.
//!
//! These checks run before any parser sees a file so that a binary file, a file in the wrong
//! encoding or an enormous file ends with one clear message instead of a confusing YAML error
//! (or an exhausted machine).

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use crate::diag::{Diagnostic, codes};

/// How far into a file we look for a NUL byte: enough to catch every binary format we have
/// seen, small enough to be free.
const BINARY_SNIFF_BYTES: usize = 8 * 1024;

/// Why a read failed, before we know whether the file was an input or an import (the two get
/// different codes and locations).
#[derive(Debug)]
pub(crate) enum ReadError {
    NotFound,
    IsDirectory,
    TooLarge { size: u64, limit: u64 },
    Io(io::Error),
}

impl ReadError {
    /// The diagnostic for a file the user named (or that an archive or directory implied).
    pub(crate) fn into_input_diagnostic(self, shown: &str) -> Diagnostic {
        let d = match self {
            ReadError::NotFound => {
                Diagnostic::error(codes::INPUT_NOT_FOUND, format!("`{shown}` does not exist"))
                    .hint("check the path; relative paths are taken from the current directory")
            }
            other => other.into_common_diagnostic(shown),
        };
        d.in_file(shown)
    }

    /// The diagnostic for every failure except "not found", which callers word themselves.
    pub(crate) fn into_common_diagnostic(self, shown: &str) -> Diagnostic {
        let d = match self {
            ReadError::NotFound => {
                Diagnostic::error(codes::INPUT_NOT_FOUND, format!("`{shown}` does not exist"))
            }
            ReadError::IsDirectory => Diagnostic::error(
                codes::INPUT_IS_DIRECTORY,
                format!("`{shown}` is a directory, but a file was expected here"),
            )
            .hint("name a TOSCA YAML file inside it"),
            ReadError::TooLarge { size, limit } => Diagnostic::error(
                codes::INPUT_TOO_LARGE,
                format!("`{shown}` is {size} bytes, more than the limit of {limit} bytes"),
            )
            .hint("TOSCA files are text; check that this is the file you meant"),
            ReadError::Io(e) => Diagnostic::error(
                codes::INPUT_UNREADABLE,
                format!("cannot read `{shown}`: {}", os_reason(&e)),
            )
            .hint("check that the file exists and that you may read it"),
        };
        d.in_file(shown)
    }
}

/// The OS's own words for an IO error, without Rust's "(os error 13)" suffix.
pub(crate) fn os_reason(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

fn classify(e: io::Error) -> ReadError {
    match e.kind() {
        io::ErrorKind::NotFound => ReadError::NotFound,
        io::ErrorKind::IsADirectory => ReadError::IsDirectory,
        _ => ReadError::Io(e),
    }
}

/// Reads a whole file from disk, refusing directories and files over `limit` bytes.
///
/// The size is checked before reading, and the read itself is bounded too, because the file can
/// grow between the two (or be a device that reports size 0).
pub(crate) fn read_disk(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let meta = std::fs::metadata(path).map_err(classify)?;
    if meta.is_dir() {
        return Err(ReadError::IsDirectory);
    }
    if meta.len() > limit {
        return Err(ReadError::TooLarge {
            size: meta.len(),
            limit,
        });
    }
    let file = File::open(path).map_err(classify)?;
    read_bounded(file, limit)
}

/// Reads at most `limit` bytes; one byte more is an error, so a lying size header or a growing
/// file cannot make us read without end.
pub(crate) fn read_bounded(reader: impl Read, limit: u64) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(classify)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            size: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
}

/// The 1-based line and column (in characters) just after `prefix`, which is read leniently:
/// it ends where something went wrong.
fn line_col(prefix: &[u8]) -> (u32, u32) {
    let prefix = String::from_utf8_lossy(prefix);
    let line = prefix.matches('\n').count() + 1;
    let line_start = prefix.rfind('\n').map_or(0, |i| i + 1);
    let col = prefix[line_start..].chars().count() + 1;
    (line as u32, col as u32)
}

/// Checks and decodes a file's bytes into text.
///
/// A UTF-8 byte-order mark is dropped (editors on Windows write one); CRLF line ends are kept
/// for the YAML layer. Everything else that is not plain UTF-8 text is refused with the place
/// where it goes wrong.
pub(crate) fn decode(bytes: Vec<u8>, shown: &str) -> Result<String, Diagnostic> {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return Err(Diagnostic::error(
            codes::INPUT_NOT_UTF8,
            format!("`{shown}` is UTF-16 text; TOSCA files must be UTF-8"),
        )
        .hint("save the file as UTF-8")
        .in_file(shown));
    }
    let mut bytes = bytes;
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        bytes.drain(..3);
    }
    let sniff = &bytes[..bytes.len().min(BINARY_SNIFF_BYTES)];
    if let Some(at) = sniff.iter().position(|&b| b == 0) {
        return Err(Diagnostic::error(
            codes::INPUT_BINARY,
            format!("`{shown}` looks like a binary file (a NUL byte at offset {at})"),
        )
        .hint("pass a TOSCA YAML file, a directory or a CSAR (.zip, .csar)")
        .in_file_at(shown, Some(line_col(&bytes[..at]))));
    }
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let offset = e.utf8_error().valid_up_to();
            let (line, col) = line_col(&e.as_bytes()[..offset]);
            return Err(Diagnostic::error(
                codes::INPUT_NOT_UTF8,
                format!(
                    "`{shown}` is not valid UTF-8: invalid byte at offset {offset} (line {line}, column {col})"
                ),
            )
            .hint("TOSCA files must be UTF-8; convert the file (e.g. `iconv -f latin1 -t utf-8`)")
            .in_file_at(shown, Some((line, col))));
        }
    };
    if text.trim().is_empty() {
        return Err(Diagnostic::error(
            codes::INPUT_EMPTY,
            if text.is_empty() {
                format!("`{shown}` is empty")
            } else {
                format!("`{shown}` holds only whitespace")
            },
        )
        .hint("a TOSCA file starts with `tosca_definitions_version: ...`")
        .in_file(shown));
    }
    Ok(text)
}

/// The first bytes of a file, for format sniffing (empty if unreadable; the real read reports).
pub(crate) fn read_magic(path: &Path) -> Vec<u8> {
    let mut buf = Vec::new();
    if let Ok(f) = std::fs::File::open(path) {
        let _ = f.take(4).read_to_end(&mut buf);
    }
    buf
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code_of(r: Result<String, Diagnostic>) -> &'static str {
        r.expect_err("should be refused").code
    }

    #[test]
    fn bom_is_stripped_and_crlf_kept() {
        let text = decode(b"\xEF\xBB\xBFa: 1\r\nb: 2\r\n".to_vec(), "t.yaml").unwrap();
        assert_eq!(text, "a: 1\r\nb: 2\r\n");
    }

    #[test]
    fn invalid_utf8_reports_offset_line_and_column() {
        let d = decode(b"a: 1\nb: h\xE9!\n".to_vec(), "t.yaml").unwrap_err();
        assert_eq!(d.code, codes::INPUT_NOT_UTF8);
        assert!(d.message.contains("offset 9"), "{}", d.message);
        assert!(d.message.contains("line 2, column 5"), "{}", d.message);
        assert!(d.message.contains("`t.yaml`"), "{}", d.message);
    }

    #[test]
    fn nul_in_the_first_8k_is_binary_but_not_later() {
        assert_eq!(code_of(decode(b"a\0b".to_vec(), "x")), codes::INPUT_BINARY);
        let mut late = vec![b'a'; BINARY_SNIFF_BYTES + 10];
        late[BINARY_SNIFF_BYTES + 5] = 0;
        // A late NUL is not sniffed; it is valid UTF-8 and left to the YAML layer.
        assert!(decode(late, "x").is_ok());
    }

    #[test]
    fn utf16_is_named_as_such() {
        let d = decode(b"\xFF\xFEa\0".to_vec(), "x").unwrap_err();
        assert_eq!(d.code, codes::INPUT_NOT_UTF8);
        assert!(d.message.contains("UTF-16"));
    }

    #[test]
    fn empty_and_whitespace_only_are_empty() {
        assert_eq!(code_of(decode(Vec::new(), "x")), codes::INPUT_EMPTY);
        assert_eq!(
            code_of(decode(b" \n\t\r\n".to_vec(), "x")),
            codes::INPUT_EMPTY
        );
        assert_eq!(
            code_of(decode(b"\xEF\xBB\xBF".to_vec(), "x")),
            codes::INPUT_EMPTY
        );
    }

    #[test]
    fn bounded_read_refuses_one_byte_more() {
        assert_eq!(read_bounded(&b"abcd"[..], 4).unwrap(), b"abcd");
        assert!(matches!(
            read_bounded(&b"abcde"[..], 4),
            Err(ReadError::TooLarge { limit: 4, .. })
        ));
    }
}
