//! The architecture, enforced: stages only look upstream, and source files stay small.
//!
//! `docs/architecture.md` draws the stages. This test reads every `crate::` path in the code of
//! `src/` (in `use` lines and in expressions, grouped imports `crate::{a, b}` included, and
//! `super::` chains that climb out of a stage) and fails unless each top-level module uses only
//! modules before it in [`ORDER`], and none of the uses [`FORBIDDEN`] (forward, but skipping the
//! stage that should stand between). Test code (`#[cfg(test)]` items and the files they pull in)
//! may use any stage: a backend's tests read templates through the whole pipeline.
//!
//! What cannot be fixed yet is listed in [`ALLOWED`], each entry with its reason. The list only
//! shrinks: an entry that no longer matches an edge fails the test too, so it is removed when
//! its edge is.

#[path = "architecture/rust_text.rs"]
mod rust_text;
#[path = "architecture/sinks.rs"]
mod sinks;
#[path = "architecture/size.rs"]
mod size;

use std::collections::BTreeSet;
use std::path::Path;

use rust_text::{code_only, is_ident_byte, item_end, line_of, words};

/// The top-level modules of `src/`, upstream first. Each may use only those before it.
///
/// - `hash`, `limits`, `quirk`: settings and helpers every stage shares; `span`: the files read
///   and places in them; `diag`: diagnostics at spans; `explain`: the page of each code.
/// - `source`: files, folders, CSARs and imports; `profiles`: the embedded type libraries
///   `source` serves as files.
/// - `yaml`: the YAML loader. `model`: what front ends hand the resolver. `ir`: the topology
///   backends read.
/// - `front`: each dialect into the model. `resolve`: the model into the IR. `back`: the IR
///   into files.
/// - `pipeline`: runs the read side in one call; `cli`: the commands.
const ORDER: &[&str] = &[
    "hash", "limits", "quirk", "span", "diag", "explain", "source", "profiles", "yaml", "model",
    "ir", "front", "resolve", "back", "pipeline", "lsp", "cli",
];

/// Edges that point downstream but skip a stage: the resolver reads the model, never YAML or a
/// front end; a backend reads the IR, never the model, a front end or the resolver.
const FORBIDDEN: &[(&str, &str)] = &[
    ("resolve", "yaml"),
    ("resolve", "front"),
    ("back", "model"),
    ("back", "front"),
    ("back", "resolve"),
];

/// Until the typed model exists, the model keeps definitions as YAML nodes
/// (`model::TypeDef::def`, `model::NodeTemplate::node`, ...) and these resolver files read them.
const UNTYPED: &str =
    "reads definitions the model still keeps as YAML nodes; goes when the typed model lands";

/// Edges not removed yet: (file, module it uses, why). Only shrinks.
const ALLOWED: &[(&str, &str, &str)] = &[
    ("src/resolve/artifact_defs.rs", "yaml", UNTYPED),
    ("src/resolve/assignments.rs", "yaml", UNTYPED),
    ("src/resolve/attribute_mappings.rs", "yaml", UNTYPED),
    ("src/resolve/boundary.rs", "yaml", UNTYPED),
    ("src/resolve/capability_refinement.rs", "yaml", UNTYPED),
    ("src/resolve/capability_values.rs", "yaml", UNTYPED),
    ("src/resolve/calls/eval/custom.rs", "yaml", UNTYPED),
    ("src/resolve/calls/mappings.rs", "yaml", UNTYPED),
    ("src/resolve/calls/path.rs", "yaml", UNTYPED),
    ("src/resolve/calls/path/definitions.rs", "yaml", UNTYPED),
    ("src/resolve/calls/table.rs", "yaml", UNTYPED),
    ("src/resolve/calls/type_inputs.rs", "yaml", UNTYPED),
    ("src/resolve/type_functions.rs", "yaml", UNTYPED),
    ("src/resolve/calls/unused.rs", "yaml", UNTYPED),
    ("src/resolve/derived_lists.rs", "yaml", UNTYPED),
    ("src/resolve/filters.rs", "yaml", UNTYPED),
    ("src/resolve/substitution_filter_paths.rs", "yaml", UNTYPED),
    ("src/resolve/workflows.rs", "yaml", UNTYPED),
    ("src/resolve/fulfil.rs", "yaml", UNTYPED),
    ("src/resolve/fulfil/judge.rs", "yaml", UNTYPED),
    ("src/resolve/fixed_parameters.rs", "yaml", UNTYPED),
    ("src/resolve/function_artifacts.rs", "yaml", UNTYPED),
    ("src/resolve/inline_cycles.rs", "yaml", UNTYPED),
    ("src/resolve/interface_defs.rs", "yaml", UNTYPED),
    ("src/resolve/interface_types.rs", "yaml", UNTYPED),
    ("src/resolve/node_filter_shape.rs", "yaml", UNTYPED),
    ("src/resolve/operation_context.rs", "yaml", UNTYPED),
    ("src/resolve/interface_parameters.rs", "yaml", UNTYPED),
    ("src/resolve/interfaces.rs", "yaml", UNTYPED),
    ("src/resolve/nodes.rs", "yaml", UNTYPED),
    ("src/resolve/nodes/artifacts.rs", "yaml", UNTYPED),
    ("src/resolve/nodes/capabilities.rs", "yaml", UNTYPED),
    ("src/resolve/nodes/interfaces.rs", "yaml", UNTYPED),
    ("src/resolve/occurrences.rs", "yaml", UNTYPED),
    ("src/resolve/parameter_defaults.rs", "yaml", UNTYPED),
    ("src/resolve/parameter_refinement.rs", "yaml", UNTYPED),
    ("src/resolve/params.rs", "yaml", UNTYPED),
    ("src/resolve/refinement.rs", "yaml", UNTYPED),
    ("src/resolve/requirement_defs.rs", "yaml", UNTYPED),
    ("src/resolve/requirement_interfaces.rs", "yaml", UNTYPED),
    ("src/resolve/requirements.rs", "yaml", UNTYPED),
    ("src/resolve/requirements/relationship.rs", "yaml", UNTYPED),
    ("src/resolve/scalar_types.rs", "yaml", UNTYPED),
    ("src/resolve/selection.rs", "yaml", UNTYPED),
    ("src/resolve/simple_new_definitions.rs", "yaml", UNTYPED),
    ("src/resolve/simple_occurrences.rs", "yaml", UNTYPED),
    ("src/resolve/substitution/mod.rs", "yaml", UNTYPED),
    ("src/resolve/tosca2_types.rs", "yaml", UNTYPED),
    ("src/resolve/typing.rs", "yaml", UNTYPED),
    ("src/resolve/typing/definition.rs", "yaml", UNTYPED),
    ("src/resolve/unset_inputs.rs", "yaml", UNTYPED),
    ("src/resolve/validation_clause_types.rs", "yaml", UNTYPED),
    ("src/resolve/value_types.rs", "yaml", UNTYPED),
    ("src/resolve/workflow_calls.rs", "yaml", UNTYPED),
    ("src/resolve/workflow_inlines.rs", "yaml", UNTYPED),
    ("src/resolve/written_definitions.rs", "yaml", UNTYPED),
];

/// One use of a top-level module by code of another.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Edge {
    /// The file, as `src/...`.
    file: String,
    line: usize,
    from: String,
    to: String,
}

/// Each `.rs` file of `src/`, sorted, as `src/...` with its text.
fn sources(root: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![root.join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let file = path.strip_prefix(root).unwrap().to_string_lossy();
                let text = std::fs::read_to_string(&path).unwrap();
                out.push((file.replace('\\', "/"), text));
            }
        }
    }
    out.sort();
    out
}

/// The module path of a file under `src/`: `src/front/xml/mod.rs` is `[front, xml]`,
/// `src/diag.rs` is `[diag]`; `None` for the crate root and the binaries.
fn module_path(file: &str) -> Option<Vec<String>> {
    let rel = file.strip_prefix("src/")?;
    if rel == "lib.rs" || rel.starts_with("bin/") {
        return None;
    }
    let rel = rel.strip_suffix(".rs")?;
    let mut parts: Vec<String> = rel.split('/').map(str::to_string).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    Some(parts)
}

/// `code` with its `#[cfg(test)]` items blanked, and the files those items' `mod x;` lines pull
/// in (paths as `src/...`).
fn without_tests(file: &str, original: &str, code: &str) -> (String, Vec<String>) {
    let mut out = code.to_string();
    let mut test_files = Vec::new();
    let dir = Path::new(file).parent().unwrap();
    let is_mod_rs = file.ends_with("/mod.rs");
    for at in code.match_indices("#[cfg(test)]").map(|(i, _)| i) {
        // Further attributes, then the item.
        let mut start = at + "#[cfg(test)]".len();
        let mut path_attr = None;
        loop {
            let rest = &code[start..];
            let trimmed = rest.trim_start();
            start += rest.len() - trimmed.len();
            if !trimmed.starts_with("#[") {
                break;
            }
            let end = start + trimmed.find(']').unwrap() + 1;
            if trimmed.starts_with("#[path") {
                let attr = &original[start..end];
                path_attr = attr.split('"').nth(1).map(str::to_string);
            }
            start = end;
        }
        let end = item_end(code, start);
        let item = &code[start..end];
        let declared = item
            .trim_start_matches("pub(super) ")
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub ")
            .strip_prefix("mod ")
            .and_then(|m| m.strip_suffix(';'));
        if let Some(name) = declared {
            let name = name.trim();
            let path = match (&path_attr, is_mod_rs) {
                (Some(p), _) => dir.join(p),
                (None, true) => dir.join(format!("{name}.rs")),
                (None, false) => {
                    Path::new(file.strip_suffix(".rs").unwrap()).join(format!("{name}.rs"))
                }
            };
            // `mod tests;` may also be a folder, `tests/mod.rs`, whose whole tree is test code:
            // recorded as the folder, with a trailing `/`.
            let folder = path.with_extension("");
            test_files.push(path.to_string_lossy().into_owned());
            test_files.push(format!("{}/", folder.to_string_lossy()));
        }
        out.replace_range(at..end, &" ".repeat(end - at));
    }
    (out, test_files)
}

/// The top-level modules `code` (of the module at `path`) names, with the offset of each use.
fn uses(code: &str, path: &[String]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for at in words(code, "crate") {
        let rest = &code[at + "crate".len()..];
        let Some(rest) = rest.strip_prefix("::") else {
            continue;
        };
        let rest = rest.trim_start();
        if let Some(group) = rest.strip_prefix('{') {
            out.extend(group_heads(group).into_iter().map(|m| (at, m)));
        } else if let Some(m) = ident(rest) {
            out.push((at, m.to_string()));
        }
    }
    // `super::super::x` from deep enough climbs to the crate root: `x` is a top-level module.
    for at in words(code, "super") {
        let mut rest = &code[at..];
        let mut climbs = 0;
        while let Some(r) = rest.strip_prefix("super::") {
            climbs += 1;
            rest = r.trim_start();
        }
        if climbs > 0 && climbs >= path.len() && (at == 0 || !code[..at].ends_with("super::")) {
            if let Some(group) = rest.strip_prefix('{') {
                out.extend(group_heads(group).into_iter().map(|m| (at, m)));
            } else if let Some(m) = ident(rest) {
                out.push((at, m.to_string()));
            }
        }
    }
    out
}

/// The leading identifier of `text`.
fn ident(text: &str) -> Option<&str> {
    let end = text.bytes().take_while(|&b| is_ident_byte(b)).count();
    (end > 0).then(|| &text[..end])
}

/// The first segment of each top-level item of a `{ a::b, c, d::{e, f} }` group (its `{`
/// already consumed).
fn group_heads(group: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut item_start = true;
    for (i, b) in group.bytes().enumerate() {
        match b {
            b'{' => depth += 1,
            b'}' if depth == 0 => break,
            b'}' => depth -= 1,
            b',' if depth == 0 => item_start = true,
            _ if item_start && is_ident_byte(b) => {
                heads.extend(ident(&group[i..]).map(str::to_string));
                item_start = false;
            }
            _ => {}
        }
    }
    heads.retain(|h| h != "self");
    heads
}

/// The non-test code of `src/`: each file that is not test code as a whole, with comments,
/// literals and `#[cfg(test)]` items blanked (see [`code_only`] and [`without_tests`]).
fn non_test_code(root: &Path) -> Vec<(String, String)> {
    let mut texts = Vec::new();
    let mut test_files = BTreeSet::new();
    for (file, original) in sources(root) {
        let code = code_only(&original);
        let (code, tests) = without_tests(&file, &original, &code);
        test_files.extend(tests);
        texts.push((file, code));
    }
    texts.retain(|(file, _)| {
        let in_test_folder = |t: &String| t.ends_with('/') && file.starts_with(t.as_str());
        !test_files.contains(file) && !test_files.iter().any(in_test_folder)
    });
    texts
}

/// Every edge between top-level modules in the non-test code of `src/`.
fn edges(root: &Path) -> Vec<Edge> {
    let mut out = Vec::new();
    for (file, code) in &non_test_code(root) {
        let Some(path) = module_path(file) else {
            continue;
        };
        for (at, to) in uses(code, &path) {
            if to != path[0] {
                out.push(Edge {
                    file: file.clone(),
                    line: line_of(code, at),
                    from: path[0].clone(),
                    to,
                });
            }
        }
    }
    out
}

fn rank(module: &str) -> Option<usize> {
    ORDER.iter().position(|m| *m == module)
}

/// Why `edge` breaks the layering, if it does.
fn violation(edge: &Edge) -> Option<String> {
    let (Some(from), Some(to)) = (rank(&edge.from), rank(&edge.to)) else {
        let unknown = if rank(&edge.from).is_none() {
            &edge.from
        } else {
            &edge.to
        };
        return Some(format!("`{unknown}` has no place in ORDER; give it one"));
    };
    if to >= from {
        return Some(format!(
            "`{}` comes after `{}` in the stages, so `{}` may not use it",
            edge.to, edge.from, edge.from
        ));
    }
    FORBIDDEN
        .contains(&(edge.from.as_str(), edge.to.as_str()))
        .then(|| {
            format!(
                "`{}` may not use `{}`: it skips a stage",
                edge.from, edge.to
            )
        })
}

#[test]
fn each_stage_uses_only_the_stages_before_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let edges = edges(root);
    assert!(edges.len() > 100, "the edges of src/ were not found");
    let mut wrong = Vec::new();
    let mut used = BTreeSet::new();
    for edge in &edges {
        let Some(why) = violation(edge) else { continue };
        let allowed = ALLOWED
            .iter()
            .position(|(file, to, _)| *file == edge.file && *to == edge.to);
        match allowed {
            Some(i) => {
                used.insert(i);
            }
            None => wrong.push(format!(
                "{}:{}: uses `{}`: {why}",
                edge.file, edge.line, edge.to
            )),
        }
    }
    for (i, (file, to, _)) in ALLOWED.iter().enumerate() {
        if !used.contains(&i) {
            wrong.push(format!(
                "{file} no longer uses `{to}`: remove its entry from ALLOWED in tests/architecture.rs"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} problems:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn a_backward_edge_is_found_wherever_it_is_written() {
    let path = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let found = |code: &str, at: &[&str]| {
        let code = code_only(code);
        let (code, _) = without_tests("src/front/x.rs", &code, &code);
        uses(&code, &path(at))
            .into_iter()
            .map(|(_, m)| m)
            .collect::<Vec<_>>()
    };
    assert_eq!(found("use crate::cli::Report;", &["front", "x"]), ["cli"]);
    assert_eq!(
        found("use crate::{diag::D, cli::{A, B}, self};", &["front", "x"]),
        ["diag", "cli"]
    );
    assert_eq!(
        found("let r = crate::pipeline::read(o);", &["front"]),
        ["pipeline"]
    );
    assert_eq!(
        found("use super::super::back::X;", &["front", "x"]),
        ["back"]
    );
    assert_eq!(
        found("use super::super::xml::X;", &["front", "x", "y"]),
        Vec::<String>::new()
    );
    // Not code: comments, doc comments, strings; nor test items.
    assert!(
        found(
            "// crate::cli\n/// [`crate::cli`]\nlet s = \"crate::cli\";",
            &["front"]
        )
        .is_empty()
    );
    assert!(
        found(
            "#[cfg(test)]\nmod tests {\n    use crate::cli::X;\n}\n",
            &["front"]
        )
        .is_empty()
    );
    let edge = |from: &str, to: &str| Edge {
        file: String::new(),
        line: 1,
        from: from.into(),
        to: to.into(),
    };
    assert!(violation(&edge("front", "cli")).is_some());
    assert!(violation(&edge("resolve", "back")).is_some());
    assert!(violation(&edge("resolve", "yaml")).is_some());
    assert!(violation(&edge("model", "ir")).is_some());
    assert!(violation(&edge("resolve", "model")).is_none());
    assert!(violation(&edge("newmodule", "diag")).is_some());
}

#[test]
fn test_modules_declared_out_of_line_are_found() {
    let text = "#[cfg(test)]\n#[path = \"engine_tests.rs\"]\nmod tests;\n#[cfg(test)]\nmod more;\n";
    let code = code_only(text);
    let (_, files) = without_tests("src/back/engine.rs", text, &code);
    assert_eq!(
        files,
        [
            "src/back/engine_tests.rs",
            "src/back/engine_tests/",
            "src/back/engine/more.rs",
            "src/back/engine/more/"
        ]
    );
    let (_, files) = without_tests(
        "src/source/mod.rs",
        "#[cfg(test)]\nmod tests;",
        "#[cfg(test)]\nmod tests;",
    );
    // `tests.rs` or the folder `tests/` (its `mod.rs` and every file below it).
    assert_eq!(files, ["src/source/tests.rs", "src/source/tests/"]);
}
