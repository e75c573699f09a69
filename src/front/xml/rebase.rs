//! `toscana convert` writes one YAML file, usually somewhere else than the XML it reads. An XML
//! artifact reference is relative to the CSAR root (X1-ATPL-02), and the translated tree names
//! it relative to the document that defines the artifact; written unchanged, the converted file
//! would point at `../scripts/install.sh` next to itself. So each artifact `file` is rewritten
//! relative to the folder the converted file is written to (the current folder for standard
//! output), where toscana and other processors look for it.
//!
//! A template reads only inside its own folder, so a file that does not lie under that folder
//! (the converted file is written elsewhere, or the artifacts are inside a zip CSAR) cannot be
//! named from it. Those are named relative to the input's root instead, as the CSAR does, with
//! one `output::artifact-path` warning that says where the converted file must go for them to be
//! found. URLs and absolute paths are left as they are.

use std::path::{Component, Path, PathBuf};

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::source::{Origin, SourceMap, Span};
use crate::yaml::{Kind, Map, Node};

/// Where the converted file goes and where the input's root is.
pub struct Places<'a> {
    /// The folder the converted file is written to, absolute.
    pub output_dir: &'a Path,
    /// The input as the command line names it (a Definitions file, a folder or a CSAR).
    pub input: &'a Path,
}

/// `tree` with every artifact's `file` rewritten relative to `places.output_dir` where it can
/// be; a warning for those that cannot.
pub fn rebase(
    tree: Node,
    sources: &SourceMap,
    places: &Places<'_>,
    diags: &mut Diagnostics,
) -> Node {
    let mut elsewhere = Vec::new();
    let rebased = walk(tree, false, &mut |file, span| {
        rebase_file(file, span, sources, places, &mut elsewhere)
    });
    if let Some((first, span)) = elsewhere.first() {
        let root = input_root(places.input);
        diags.push(
            Diagnostic::warning(
                codes::OUTPUT_ARTIFACT_PATH,
                format!(
                    "{} artifact file{} (`{first}`{}) cannot be named from `{}`, where the converted file is written, so {} named relative to the root of `{}`",
                    elsewhere.len(),
                    crate::diag::plural(elsewhere.len() as u64),
                    if elsewhere.len() > 1 { ", ..." } else { "" },
                    places.output_dir.display(),
                    if elsewhere.len() > 1 { "they are" } else { "it is" },
                    places.input.display()
                ),
            )
            .at(*span)
            .hint(match root {
                Some(root) => format!(
                    "a template reads only inside its folder: write the converted file into `{}` (or copy the artifact files next to it)",
                    root.display()
                ),
                None => "a template reads only inside its folder, and these are inside the archive: unpack the CSAR and write the converted file into its root".to_string(),
            }),
        );
    }
    rebased
}

/// Rewrites the `file` of every artifact definition (an entry of an `artifacts` map) in `node`.
fn walk(node: Node, in_artifacts: bool, f: &mut impl FnMut(&str, Span) -> Option<String>) -> Node {
    let Node {
        span,
        tag,
        style,
        kind,
    } = node;
    let kind = match kind {
        Kind::Map(map) => {
            let mut out = Map::new();
            for entry in map.into_entries() {
                let key = entry.key.scalar_text().unwrap_or_default().to_string();
                let value = if in_artifacts {
                    artifact(entry.value, f)
                } else {
                    walk(entry.value, key == "artifacts", f)
                };
                // Keys are the ones of a map that had them once each.
                let _ = out.insert(entry.key, value);
            }
            Kind::Map(out)
        }
        Kind::Seq(items) => Kind::Seq(items.into_iter().map(|n| walk(n, false, f)).collect()),
        scalar => scalar,
    };
    Node {
        span,
        tag,
        style,
        kind,
    }
}

/// An artifact definition with its `file` rewritten by `f`.
fn artifact(def: Node, f: &mut impl FnMut(&str, Span) -> Option<String>) -> Node {
    let Node {
        span,
        tag,
        style,
        kind,
    } = def;
    let Kind::Map(map) = kind else {
        return Node {
            span,
            tag,
            style,
            kind,
        };
    };
    let mut out = Map::new();
    for entry in map.into_entries() {
        let value = match (entry.key.scalar_text(), entry.value.scalar_text()) {
            (Some("file"), Some(file)) => match f(file, entry.value.span) {
                Some(new) => Node::string(&new, entry.value.span),
                None => entry.value,
            },
            _ => entry.value,
        };
        let _ = out.insert(entry.key, value);
    }
    Node {
        span,
        tag,
        style,
        kind: Kind::Map(out),
    }
}

/// The new text of artifact file `file`, named in the document of `span`: relative to the output
/// folder when it lies under it, else relative to the input's root (recorded in `elsewhere`).
fn rebase_file(
    file: &str,
    span: Span,
    sources: &SourceMap,
    places: &Places<'_>,
    elsewhere: &mut Vec<(String, Span)>,
) -> Option<String> {
    if file.contains("://") || file.starts_with('/') {
        return None;
    }
    let (on_disk, from_root) = match &sources.get(span.file).origin {
        Origin::Path(document) => {
            let document = std::path::absolute(document).ok()?;
            let on_disk = normal(&document.parent()?.join(file));
            let root = input_root(places.input).and_then(|r| std::path::absolute(r).ok());
            let from_root = root
                .and_then(|r| on_disk.strip_prefix(normal(&r)).ok().map(slashed))
                .unwrap_or_else(|| file.to_string());
            (Some(on_disk), from_root)
        }
        Origin::Archive { entry, .. } => {
            let folder = entry.rsplit_once('/').map_or("", |(dir, _)| dir);
            (None, slashed(&normal(&Path::new(folder).join(file))))
        }
        Origin::Stdin | Origin::Builtin(_) => return None,
    };
    if let Some(under) = on_disk
        .as_deref()
        .and_then(|p| p.strip_prefix(normal(places.output_dir)).ok())
    {
        return Some(slashed(under));
    }
    elsewhere.push((from_root.clone(), span));
    Some(from_root)
}

/// The folder a template's relative paths start from: the folder given, or a Definitions
/// file's folder; `None` for an archive, whose root is inside it.
fn input_root(input: &Path) -> Option<&Path> {
    if input.is_dir() {
        return Some(input);
    }
    let archive = input
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e, "csar" | "zip" | "tar" | "gz" | "tgz"));
    (!archive).then(|| input.parent().unwrap_or(Path::new(".")))
}

/// `path` without `.` and with each `..` taking away the part before it, as the reader resolves
/// a relative path (no link is followed).
fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// A relative path with `/` between its parts, as TOSCA writes them.
fn slashed(path: &Path) -> String {
    path.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_resolves_dots_lexically() {
        assert_eq!(normal(Path::new("/a/b/../c/./d")), PathBuf::from("/a/c/d"));
        assert_eq!(normal(Path::new("../x")), PathBuf::from("../x"));
        assert_eq!(slashed(Path::new("a/b/c.sh")), "a/b/c.sh");
    }
}
