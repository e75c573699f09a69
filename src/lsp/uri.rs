//! `file:` URIs, as editors name documents, to paths and back.
//!
//! Only `file:` URIs name something toscana can check: an `untitled:` buffer has no folder its
//! imports could be read from, so it gets no path (and no diagnostics) until it is saved.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use lsp_types::Uri;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};

/// What stays as it is in the path of a `file:` URI: RFC 3986's unreserved characters and `/`
/// (VS Code writes the same).
const PATH: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'/')
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// The absolute path a `file:` URI names, or `None` for another scheme or a relative path.
pub fn path_of(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file://host/path`: only the local host (empty or `localhost`) is a local file.
    let path = match rest.strip_prefix("localhost") {
        Some(path) => path,
        None => rest,
    };
    let path = path.split(['?', '#']).next().unwrap_or(path);
    if !path.starts_with('/') {
        return None;
    }
    let decoded = percent_decode_str(path).decode_utf8().ok()?;
    Some(PathBuf::from(decoded.as_ref()))
}

/// The `file:` URI of an absolute path.
pub fn uri_of(path: &Path) -> Uri {
    let encoded = utf8_percent_encode(&path.to_string_lossy(), PATH).to_string();
    let text = format!("file://{encoded}");
    // Every percent-encoded absolute path is a valid URI; the fallback is never taken.
    Uri::from_str(&text).unwrap_or_else(|_| Uri::from_str("file:///").expect("a valid URI"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_round_trip_through_uris_with_spaces_and_unicode() {
        let path = Path::new("/tmp/my templates/café.yaml");
        let uri = uri_of(path);
        assert_eq!(uri.as_str(), "file:///tmp/my%20templates/caf%C3%A9.yaml");
        assert_eq!(path_of(&uri).as_deref(), Some(path));
    }

    #[test]
    fn only_local_file_uris_have_paths() {
        let untitled = Uri::from_str("untitled:Untitled-1").unwrap();
        assert_eq!(path_of(&untitled), None);
        let localhost = Uri::from_str("file://localhost/srv/t.yaml").unwrap();
        assert_eq!(path_of(&localhost), Some(PathBuf::from("/srv/t.yaml")));
    }
}
