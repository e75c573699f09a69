//! Import locations: what an `imports:` entry names, and how URLs become local files.
//!
//! toscana never uses the network. An `http(s)` import is read from a local folder that the user
//! maps to a URL prefix (`--map-url PREFIX=DIR`), so a run is reproducible offline and the
//! user sees exactly which files were read.

use std::path::{Path, PathBuf};

/// One import, as the front end read it from a template.
///
/// Borrowed because the strings live in the YAML tree; the loader only needs them for the
/// duration of the call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImportRef<'a> {
    /// The `url` (or `file`, or short-form string) as written.
    pub url: &'a str,
    /// The `url` of the named repository, already looked up by the front end; the import is
    /// this joined with `url`.
    pub repository_url: Option<&'a str>,
}

impl<'a> ImportRef<'a> {
    /// An import without a repository, the common case.
    pub fn new(url: &'a str) -> Self {
        ImportRef {
            url,
            repository_url: None,
        }
    }
}

/// What kind of location an import string names.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// `http://…` or `https://…`, kept whole for mapping.
    Web(String),
    /// A `file:` URL made into a path (absolute, or relative for `file:rel`).
    File(String),
    /// A plain path: relative to the importer, or absolute (`/…`).
    Path(String),
    /// Any other scheme, which toscana cannot read.
    OtherScheme(String),
}

/// Classifies an import string. A one-letter "scheme" is a Windows drive, not a scheme.
pub(crate) fn classify(url: &str) -> Target {
    let url = url.trim();
    if let Some(colon) = url.find(':') {
        let scheme = &url[..colon];
        let is_scheme = scheme.len() > 1
            && scheme
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
        if is_scheme {
            let lower = scheme.to_ascii_lowercase();
            let rest = &url[colon + 1..];
            return match lower.as_str() {
                "http" | "https" => Target::Web(format!("{lower}:{rest}")),
                "file" => {
                    let path = if let Some(after) = rest.strip_prefix("//") {
                        // file://host/path: only an empty host or localhost is local.
                        let slash = after.find('/').unwrap_or(after.len());
                        let host = &after[..slash];
                        if host.is_empty() || host.eq_ignore_ascii_case("localhost") {
                            after[slash..].to_string()
                        } else {
                            return Target::OtherScheme(format!("file://{host}"));
                        }
                    } else {
                        rest.to_string()
                    };
                    Target::File(percent_decode(strip_query(&path)))
                }
                _ => Target::OtherScheme(lower),
            };
        }
    }
    Target::Path(url.to_string())
}

/// Drops `?query` and `#fragment`, which name nothing on a disk.
pub(crate) fn strip_query(url: &str) -> &str {
    let end = url.find(['?', '#']).unwrap_or(url.len());
    &url[..end]
}

/// Decodes `%XX` escapes; invalid escapes and non-UTF-8 results are left as written.
pub(crate) fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
        {
            out.push(h * 16 + l);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_string())
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// Joins a repository URL and an import path: exactly one `/` between them.
pub(crate) fn join_repository(repository: &str, url: &str) -> String {
    format!(
        "{}/{}",
        repository.trim().trim_end_matches('/'),
        url.trim().trim_start_matches('/')
    )
}

/// Resolves `rel` against the web URL `base` (RFC 3986 style for the path part): a leading `/`
/// is the host root, anything else replaces the last segment. `None` when `..` climbs above
/// the host root.
pub(crate) fn join_web(base: &str, rel: &str) -> Option<String> {
    let base = strip_query(base);
    let after_scheme = base.find("://").map_or(0, |i| i + 3);
    let path_start = base[after_scheme..]
        .find('/')
        .map_or(base.len(), |i| after_scheme + i);
    let origin = &base[..path_start];
    let base_path = &base[path_start..];
    let dir = if rel.starts_with('/') {
        ""
    } else {
        base_path.rfind('/').map_or("", |i| &base_path[..i])
    };
    let mut parts: Vec<&str> = dir.split('/').filter(|c| !c.is_empty()).collect();
    for c in rel.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            c => parts.push(c),
        }
    }
    Some(format!("{origin}/{}", parts.join("/")))
}

/// Finds the longest `--map-url` prefix of `url` and the local file it maps to.
///
/// The rest of the URL after the prefix is a relative path under the folder; `Err(())` when it
/// tries to climb out with `..`, `None` when no prefix matches.
pub(crate) fn map_web(
    url: &str,
    map: &[(String, PathBuf)],
) -> Option<Result<(String, PathBuf), ()>> {
    let url = strip_query(url);
    let (prefix, dir) = map
        .iter()
        .filter(|(prefix, _)| url.starts_with(prefix.as_str()))
        .max_by_key(|(prefix, _)| prefix.len())?;
    let rest = percent_decode(&url[prefix.len()..]);
    let mut path = dir.clone();
    for c in rest.split('/') {
        match c {
            "" | "." => {}
            ".." => return Some(Err(())),
            c if c.contains('\\') => return Some(Err(())),
            c => path.push(c),
        }
    }
    Some(Ok((prefix.clone(), path)))
}

/// The `--map-url` flag that would make `url` readable: its directory mapped to a folder.
pub(crate) fn suggested_map(url: &str) -> String {
    let url = strip_query(url);
    let prefix = url.rfind('/').map_or(url, |i| &url[..=i]);
    format!("--map-url {prefix}=DIR")
}

/// Lexically normalizes a path: drops `.`, folds `a/..`. Keeps leading `..` of a relative path
/// (there is nothing to fold them into) and never climbs above `/`.
pub(crate) fn normalize_path(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    let mut depth = 0usize; // normal components that a `..` may fold
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if depth > 0 {
                    out.pop();
                    depth -= 1;
                } else if !out.has_root() {
                    out.push("..");
                }
            }
            Component::Normal(n) => {
                out.push(n);
                depth += 1;
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_schemes_paths_and_drives() {
        assert_eq!(classify("types.yaml"), Target::Path("types.yaml".into()));
        assert_eq!(classify("/abs/t.yaml"), Target::Path("/abs/t.yaml".into()));
        assert_eq!(
            classify("HTTPS://x.org/a.yaml"),
            Target::Web("https://x.org/a.yaml".into())
        );
        assert_eq!(
            classify("file:///abs/a%20b.yaml"),
            Target::File("/abs/a b.yaml".into())
        );
        assert_eq!(
            classify("file://localhost/abs"),
            Target::File("/abs".into())
        );
        assert_eq!(
            classify("file:rel/x.yaml"),
            Target::File("rel/x.yaml".into())
        );
        assert!(matches!(
            classify("file://server/x"),
            Target::OtherScheme(_)
        ));
        assert_eq!(classify("ftp://x/y"), Target::OtherScheme("ftp".into()));
        assert_eq!(classify("C:/x.yaml"), Target::Path("C:/x.yaml".into()));
    }

    #[test]
    fn longest_prefix_wins_and_dotdot_cannot_escape() {
        let map = vec![
            ("https://x.org/".to_string(), PathBuf::from("/m/all")),
            ("https://x.org/deep/".to_string(), PathBuf::from("/m/deep")),
        ];
        let (prefix, path) = map_web("https://x.org/deep/a/b.yaml?raw=1", &map)
            .unwrap()
            .unwrap();
        assert_eq!(prefix, "https://x.org/deep/");
        assert_eq!(path, PathBuf::from("/m/deep/a/b.yaml"));
        assert_eq!(
            map_web("https://x.org/other.yaml", &map)
                .unwrap()
                .unwrap()
                .1,
            PathBuf::from("/m/all/other.yaml")
        );
        assert_eq!(map_web("https://x.org/../etc/passwd", &map), Some(Err(())));
        assert_eq!(map_web("https://y.org/a", &map), None);
        assert_eq!(
            suggested_map("https://y.org/p/a.yaml"),
            "--map-url https://y.org/p/=DIR"
        );
    }

    #[test]
    fn web_and_repository_joins() {
        assert_eq!(
            join_web("https://x.org/a/b/main.yaml", "../c.yaml").unwrap(),
            "https://x.org/a/c.yaml"
        );
        assert_eq!(
            join_web("https://x.org/a/main.yaml", "/r.yaml").unwrap(),
            "https://x.org/r.yaml"
        );
        assert_eq!(join_web("https://x.org/main.yaml", "../../c.yaml"), None);
        assert_eq!(
            join_repository("https://x.org/repo/", "/types.yaml"),
            "https://x.org/repo/types.yaml"
        );
    }

    #[test]
    fn normalizes_lexically() {
        assert_eq!(
            normalize_path(Path::new("a/./b/../c")),
            PathBuf::from("a/c")
        );
        assert_eq!(
            normalize_path(Path::new("../a/../../b")),
            PathBuf::from("../../b")
        );
        assert_eq!(normalize_path(Path::new("/../a")), PathBuf::from("/a"));
        assert_eq!(
            normalize_path(Path::new("dir/../x.yaml")),
            PathBuf::from("x.yaml")
        );
    }
}
