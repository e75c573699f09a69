//! The documentation a user of the repository reads: the README stays short, and every link of
//! the README and of `docs/` resolves inside the repository (to a file that exists, and to a
//! heading of it when the link names one), so a fresh clone has everything it points to. Pages and
//! the comments of the code cite the specifications by section, never by a line of a local copy.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

const README_MAX_LINES: usize = 250;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The README and every Markdown file under `docs/`, relative to the repository.
fn pages() -> Vec<PathBuf> {
    let mut out = vec![PathBuf::from("README.md")];
    out.extend(files_under("docs", &["md"]));
    out
}

/// Every file under the folder `dir` of the repository whose extension is one of `extensions`,
/// relative to the repository, sorted.
fn files_under(dir: &str, extensions: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root().join(dir)];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().filter_map(Result::ok) {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path
                .extension()
                .is_some_and(|e| extensions.iter().any(|wanted| e == *wanted))
            {
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

/// How a citation must look, for the failure messages: a line number of a local copy of a
/// specification moves with every draft and means nothing to a reader without that copy, while a
/// section number and title are stable and findable in any copy.
const HOW_TO_CITE: &str = "cite the specification by section number and title instead of a line \
     number: `§7.2.1 Node Template Directives` (TOSCA 2.0), `§C.7.9 tosca.nodes.BlockStorage` \
     (Simple Profile 1.0 draft); keep checklist IDs such as `T2-FN-09` as they are";

/// Whether `text` cites a line of a specification: a word `L` followed by three or more digits
/// (`L1234`, the `L2546` of `L2546-2553`).
fn cites_a_spec_line(text: &str) -> bool {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w.len() > 3 && w.starts_with('L') && w[1..].chars().all(|c| c.is_ascii_digit()))
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
            if cites_a_spec_line(line) || line.contains("issue #") {
                found.push(format!("{}:{}: {line}", page.display(), i + 1));
            }
        }
    }
    assert!(found.is_empty(), "{}\n{HOW_TO_CITE}", found.join("\n"));
}

/// The comment of a line of `path`, if it has one: from `//` on in Rust (doc comments included),
/// from a `#` that starts the line or follows a blank in YAML.
fn comment_of<'a>(path: &Path, line: &'a str) -> Option<&'a str> {
    if path.extension().is_some_and(|e| e == "rs") {
        return line.find("//").map(|i| &line[i..]);
    }
    line.char_indices()
        .find(|&(i, c)| c == '#' && line[..i].chars().last().is_none_or(char::is_whitespace))
        .map(|(i, _)| &line[i..])
}

#[test]
fn the_code_cites_no_spec_line_numbers() {
    let mut found = Vec::new();
    // The Rust code and the embedded profiles.
    for file in files_under("src", &["rs", "yaml"]) {
        let text = std::fs::read_to_string(root().join(&file)).unwrap();
        for (i, line) in text.lines().enumerate() {
            if comment_of(&file, line).is_some_and(cites_a_spec_line) {
                found.push(format!("{}:{}: {}", file.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "{}\n{HOW_TO_CITE}", found.join("\n"));
}

#[test]
fn a_line_citation_is_told_from_a_section_citation() {
    let rust = Path::new("src/x.rs");
    let yaml = Path::new("src/x.yaml");
    for cited in [
        "// the directives (L2546-2553)",
        "/// (§15.5, L7437)",
        "//! spec L6185",
    ] {
        assert!(
            comment_of(rust, cited).is_some_and(cites_a_spec_line),
            "{cited}"
        );
    }
    assert!(
        comment_of(yaml, "  # The table (spec L6151) says required").is_some_and(cites_a_spec_line)
    );
    for fine in [
        "// §7.2.1 Node Template Directives; T2-FN-09, SP-CSAR-01",
        "/// L1 and L12 are too short to be line numbers",
        "let level = \"L1234\"; // a string, not a comment",
    ] {
        assert!(
            !comment_of(rust, fine).is_some_and(cites_a_spec_line),
            "{fine}"
        );
    }
    assert!(
        comment_of(yaml, "key: L1234 # value, not comment").is_none_or(|c| !cites_a_spec_line(c))
    );
    assert!(comment_of(yaml, "url: a#L1234").is_none());
}
