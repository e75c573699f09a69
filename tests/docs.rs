//! The documentation a user of the repository reads: the README stays short, and every link of
//! the README and of `docs/` resolves inside the repository (to a file that exists, and to a
//! heading of it when the link names one), so a fresh clone has everything it points to.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

const README_MAX_LINES: usize = 250;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The README and every Markdown file under `docs/`, relative to the repository.
fn pages() -> Vec<PathBuf> {
    let mut out = vec![PathBuf::from("README.md")];
    let mut stack = vec![root().join("docs")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().filter_map(Result::ok) {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path.strip_prefix(root()).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

/// The targets of the Markdown links and images of `text` (`[text](target)`), outside code.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        // Inline code holds examples, not links.
        let prose: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, part)| part)
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            out.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    out
}

/// The anchors GitHub gives the headings of a Markdown text.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut in_fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        }
        if in_fence || !line.starts_with('#') {
            continue;
        }
        let heading = line.trim_start_matches('#').trim();
        let anchor: String = heading
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let mut unique = anchor.clone();
        let mut n = 0;
        while out.contains(&unique) {
            n += 1;
            unique = format!("{anchor}-{n}");
        }
        out.insert(unique);
    }
    out
}

/// `path` with `.` and `..` resolved lexically; `None` if it climbs above its start.
fn normal(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::Normal(p) => out.push(p),
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

#[test]
fn the_readme_is_short() {
    let text = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = text.lines().count();
    assert!(lines <= README_MAX_LINES, "README.md has {lines} lines");
    // Its try-it runs a translation of a shipped example.
    assert!(
        text.contains("toscana k8s examples/webapp.yaml"),
        "the README's first command is a translation of an example"
    );
    assert!(text.contains("cargo install --locked --path ."));
}

#[test]
fn every_link_resolves_inside_the_repository() {
    let mut broken = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(root().join(&page)).unwrap();
        let folder = page.parent().unwrap_or(Path::new(""));
        for link in links(&text) {
            let external = link.contains("://") || link.starts_with("mailto:");
            if external {
                // The README points only into the repository; the other pages may cite the web.
                if page == Path::new("README.md") {
                    broken.push(format!(
                        "{}: `{link}` leaves the repository",
                        page.display()
                    ));
                }
                continue;
            }
            let (file, anchor) = link.split_once('#').unwrap_or((&link, ""));
            let target = if file.is_empty() {
                Some(page.clone())
            } else {
                normal(&folder.join(file))
            };
            let Some(target) = target else {
                broken.push(format!(
                    "{}: `{link}` leaves the repository",
                    page.display()
                ));
                continue;
            };
            let full = root().join(&target);
            if !full.exists() {
                broken.push(format!(
                    "{}: `{link}`: no {}",
                    page.display(),
                    target.display()
                ));
                continue;
            }
            if !anchor.is_empty() && full.extension().is_some_and(|e| e == "md") {
                let headings = anchors(&std::fs::read_to_string(&full).unwrap());
                if !headings.contains(anchor) {
                    broken.push(format!(
                        "{}: `{link}`: {} has no heading `#{anchor}`",
                        page.display(),
                        target.display()
                    ));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_pages_cite_no_spec_line_numbers() {
    let mut found = Vec::new();
    for page in pages() {
        // The performance log records measurements, not specification text.
        if page.ends_with("performance.md") {
            continue;
        }
        let text = std::fs::read_to_string(root().join(&page)).unwrap();
        for (i, line) in text.lines().enumerate() {
            let cites = line.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
                w.len() > 3 && w.starts_with('L') && w[1..].chars().all(|c| c.is_ascii_digit())
            });
            if cites || line.contains("issue #") {
                found.push(format!("{}:{}: {line}", page.display(), i + 1));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
