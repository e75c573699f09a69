//! Tests of the engine with small backends built here.

use std::fs;
use std::path::Path;

use serde_json::json;

use super::*;
use crate::back::BuiltinBackend;
use crate::back::to_tera;
use crate::back::{ElementKind, write_outputs};
use crate::diag::Severity;
use crate::limits::Limits;
use crate::source::{Origin, SourceMap};

fn leak<T: ?Sized>(b: Box<T>) -> &'static T {
    Box::leak(b)
}

fn builtin(name: &'static str, mapping: &str, templates: &[(&str, &str)]) -> BuiltinBackend {
    let templates: Vec<(&'static str, &'static str)> = templates
        .iter()
        .map(|(n, t)| {
            (
                leak(n.to_string().into_boxed_str()),
                leak(t.to_string().into_boxed_str()),
            )
        })
        .collect();
    BuiltinBackend {
        name,
        mapping: leak(mapping.to_string().into_boxed_str()),
        templates: leak(templates.into_boxed_slice()),
    }
}

struct Loaded {
    backend: Option<Engine>,
    sources: SourceMap,
    diags: Diagnostics,
}

fn load(b: Option<&BuiltinBackend>, dir: Option<&Path>) -> Loaded {
    let mut sources = SourceMap::new();
    let mut diags = Diagnostics::new();
    let backend = Engine::load(b, dir, &mut sources, &Limits::default(), &mut diags);
    Loaded {
        backend,
        sources,
        diags,
    }
}

fn messages(diags: &Diagnostics) -> String {
    diags
        .iter()
        .map(|d| format!("{:?} {} {}", d.severity, d.code, d.message))
        .collect::<Vec<_>>()
        .join("\n")
}

fn element(kind: ElementKind, name: &str, types: &[&str]) -> Element {
    Element {
        kind,
        name: name.into(),
        types: types.iter().map(|t| t.to_string()).collect(),
        span: None,
        context: ElementContext::Value(to_tera(&json!({ "name": name, "type": types.first() }))),
    }
}

fn node(name: &str, types: &[&str]) -> Element {
    element(ElementKind::Node, name, types)
}

const MAPPING: &str = r#"backend: test
description: a test backend
stdout_separator: "---\n"
documents:
  - template: graph.tera
    output: graph.txt
rules:
  - match: { kind: node, type: tosca.nodes.Compute }
    template: compute.tera
    output: "{{ element.name | dns_label }}-compute.txt"
    bind: { size: large }
  - match: { kind: node, type: [tosca.nodes.DBMS, tosca.nodes.Database] }
    template: box.tera
    section: nodes
    bind: { shape: cylinder }
  - match: { kind: node, type: tosca.nodes.Root }
    skip: abstract nodes are not drawn
  - match: { kind: relationship }
    template: edge.tera
    section: edges
"#;

const TEMPLATES: &[(&str, &str)] = &[
    (
        "compute.tera",
        "{{ kind }} {{ element.name }} {{ bind.size }}\n",
    ),
    (
        "box.tera",
        "{{ element.name | dot_id }} [shape={{ bind.shape }}]",
    ),
    ("edge.tera", "{{ element.name }} edge"),
    (
        "graph.tera",
        "nodes:{% for n in sections.nodes %} {{ n }};{% endfor %}\nedges: {{ sections.edges | length }}\n",
    ),
];

fn test_backend() -> BuiltinBackend {
    builtin("test", MAPPING, TEMPLATES)
}

fn render(l: &Loaded, elements: &[Element]) -> (Vec<OutputFile>, Diagnostics) {
    let mut diags = Diagnostics::new();
    let files = l
        .backend
        .as_ref()
        .unwrap_or_else(|| panic!("backend did not load:\n{}", messages(&l.diags)))
        .render(to_tera(&json!({ "nodes": [] })), elements, &mut diags);
    (files, diags)
}

#[test]
fn first_matching_rule_wins_and_types_match_through_ancestry() {
    let b = test_backend();
    let l = load(Some(&b), None);
    assert!(!l.diags.has_errors(), "{}", messages(&l.diags));
    let be = l.backend.as_ref().unwrap();
    assert_eq!(be.name(), "test");
    assert_eq!(be.description(), Some("a test backend"));
    assert_eq!(be.stdout_separator(), Some("---\n"));
    let elements = [
        // A custom type derived from Compute takes the Compute rule, not the Root skip.
        node(
            "Web_Server",
            &["my.Server", "tosca.nodes.Compute", "tosca.nodes.Root"],
        ),
        // TOSCA 2.0 spelling of the normative type.
        node("app", &["org.oasis-open.simple:2.0:Compute"]),
        node("db", &["tosca.nodes.Database", "tosca.nodes.Root"]),
        node("abstract", &["my.Abstract", "tosca.nodes.Root"]),
        element(
            ElementKind::Relationship,
            "web.host",
            &["tosca.relationships.HostedOn"],
        ),
    ];
    let (files, diags) = render(&l, &elements);
    assert!(diags.is_empty(), "{}", messages(&diags));
    let got: Vec<(&str, &str)> = files
        .iter()
        .map(|f| (f.path.as_str(), f.contents.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("app-compute.txt", "node app large\n"),
            ("graph.txt", "nodes: \"db\" [shape=cylinder];\nedges: 1\n"),
            ("web-server-compute.txt", "node Web_Server large\n"),
        ]
    );
}

#[test]
fn unmatched_element_is_a_warning_at_its_span_and_skip_is_silent() {
    let b = test_backend();
    let l = load(Some(&b), None);
    let mut sources = SourceMap::new();
    let id = sources.add(
        "t.yaml",
        Origin::Stdin,
        "node_templates:\n  lonely:\n    type: x\n",
    );
    let span = sources.get(id).span(id, 18, 24);
    let mut lonely = node("lonely", &["my.Thing"]);
    lonely.span = Some(span);
    let group = element(ElementKind::Group, "g", &["tosca.groups.Root"]);
    let input = element(ElementKind::Input, "port", &[]);
    let skipped = node("abstract", &["tosca.nodes.Root"]);
    let (files, diags) = render(&l, &[lonely, group, input, skipped]);
    assert_eq!(files.len(), 1, "only the document");
    let all: Vec<_> = diags.iter().collect();
    assert_eq!(all.len(), 3, "{}", messages(&diags));
    assert!(
        all.iter()
            .all(|d| d.severity == Severity::Warning && d.code == codes::BACKEND_SKIPPED)
    );
    assert_eq!(
        all[0].message,
        "node `lonely` of type my.Thing has no test rule; skipped"
    );
    assert_eq!(all[0].span, Some(span));
    assert_eq!(all[0].span.unwrap().line, 2);
    assert_eq!(
        all[1].message,
        "group `g` of type tosca.groups.Root has no test rule; skipped"
    );
    assert_eq!(all[2].message, "input `port` has no test rule; skipped");
}

#[test]
fn sections_keep_element_order_and_exist_when_empty() {
    let b = test_backend();
    let l = load(Some(&b), None);
    let (files, _) = render(
        &l,
        &[
            node("z", &["tosca.nodes.DBMS"]),
            node("a", &["tosca.nodes.Database"]),
            node("m", &["tosca.nodes.DBMS"]),
        ],
    );
    let graph = files.iter().find(|f| f.path == "graph.txt").unwrap();
    assert_eq!(
        graph.contents,
        "nodes: \"z\" [shape=cylinder]; \"a\" [shape=cylinder]; \"m\" [shape=cylinder];\nedges: 0\n"
    );
}

#[test]
fn rendering_twice_gives_identical_bytes() {
    let b = test_backend();
    let l = load(Some(&b), None);
    let elements: Vec<Element> = (0..50)
        .map(|i| {
            let mut e = node(&format!("n{i}"), &["tosca.nodes.Compute"]);
            e.context = ElementContext::Value(to_tera(
                &json!({ "name": format!("n{i}"), "labels": { "z": 1, "a": 2, "m": 3 } }),
            ));
            e
        })
        .collect();
    let (first, _) = render(&l, &elements);
    let l2 = load(Some(&b), None);
    let (second, _) = render(&l2, &elements);
    assert_eq!(first, second);
    let paths: Vec<&str> = first.iter().map(|f| f.path.as_str()).collect();
    let mut sorted = paths.clone();
    sorted.sort_unstable();
    assert_eq!(paths, sorted);
}

#[test]
fn two_elements_rendering_to_one_path_is_an_error() {
    let b = test_backend();
    let l = load(Some(&b), None);
    // `My_App` and `my-app` give the same DNS label.
    let (files, diags) = render(
        &l,
        &[
            node("My_App", &["tosca.nodes.Compute"]),
            node("my-app", &["tosca.nodes.Compute"]),
        ],
    );
    assert_eq!(
        files
            .iter()
            .filter(|f| f.path == "my-app-compute.txt")
            .count(),
        1
    );
    let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 1, "{}", messages(&diags));
    assert_eq!(errors[0].code, codes::BACKEND_RULES);
    assert_eq!(
        errors[0].message,
        "node `My_App` and node `my-app` both render to `my-app-compute.txt`"
    );
    assert!(errors[0].span.is_some());
}

#[test]
fn unknown_key_in_the_mapping_is_an_error_with_line_and_column() {
    let b = builtin(
        "bad",
        "rules:\n  - match: { kind: node }\n    template: a.tera\n    sectoin: nodes\n",
        &[("a.tera", "x")],
    );
    let l = load(Some(&b), None);
    assert!(l.backend.is_none());
    let d = l
        .diags
        .iter()
        .find(|d| d.message == "unknown key `sectoin` in a rule")
        .unwrap_or_else(|| panic!("{}", messages(&l.diags)));
    assert_eq!(d.code, codes::BACKEND_RULES);
    let span = d.span.unwrap();
    assert_eq!((span.line, span.col), (4, 5));
    assert_eq!(l.sources.get(span.file).name, "<builtin bad>/mapping.yaml");
    assert!(d.hint.as_deref().unwrap().contains("section"));
}

#[test]
fn mapping_mistakes_are_each_reported() {
    let b = builtin(
        "bad",
        concat!(
            "bogus: 1\n",
            "rules:\n",
            "  - template: a.tera\n", // no match
            "    output: a\n",
            "  - match: { kind: nod }\n", // bad kind
            "    template: a.tera\n",
            "    output: b\n",
            "  - match: { kind: node }\n", // no output / section
            "    template: a.tera\n",
            "  - match: { kind: node }\n", // no template
            "    output: c\n",
            "  - match: { kind: node }\n", // skip with template
            "    skip: reason\n",
            "    template: a.tera\n",
            "  - match: { kind: node }\n", // missing template file
            "    template: nope.tera\n",
            "    output: d\n",
        ),
        &[("a.tera", "x")],
    );
    let l = load(Some(&b), None);
    assert!(l.backend.is_none());
    let text = messages(&l.diags);
    for expected in [
        "unknown key `bogus` in the mapping file",
        "this rule has no `match`",
        "`nod` is not an element kind",
        "this rule says neither where its output goes",
        "this rule has neither `template` nor `skip`",
        "a rule with `skip` renders nothing, so `template` makes no sense here",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
}

#[test]
fn a_rule_naming_a_missing_template_is_an_error_at_the_rule() {
    let b = builtin(
        "bad",
        "rules:\n  - match: { kind: node }\n    template: nope.tera\n    output: x\n",
        &[("a.tera", "x")],
    );
    let l = load(Some(&b), None);
    assert!(l.backend.is_none());
    let d = l.diags.iter().find(|d| d.is_error()).unwrap();
    assert_eq!(d.message, "there is no template `nope.tera`");
    assert_eq!(d.span.unwrap().line, 3);
    assert_eq!(d.hint.as_deref(), Some("known templates: a.tera"));
}

#[test]
fn a_template_syntax_error_names_the_template_and_line() {
    let b = builtin(
        "bad",
        "rules:\n  - match: { kind: node }\n    template: b.tera\n    output: x\n",
        &[
            ("a.tera", "fine\n"),
            ("b.tera", "line one\n{% if %}\n"),
            ("c.tera", "{{ oops "),
            ("d.tera", "{{ x | no_such_filter }}"),
        ],
    );
    let l = load(Some(&b), None);
    assert!(l.backend.is_none());
    let errors: Vec<_> = l.diags.iter().filter(|d| d.is_error()).collect();
    assert_eq!(
        errors.len(),
        3,
        "every broken template is reported: {}",
        messages(&l.diags)
    );
    assert!(errors[2].message.contains("d.tera") && errors[2].message.contains("no_such_filter"));
    let d = errors
        .iter()
        .find(|d| d.message.contains("b.tera"))
        .unwrap();
    assert_eq!(d.code, codes::BACKEND_TEMPLATE);
    assert!(
        d.message
            .starts_with("template `<builtin bad>/b.tera` line 2: "),
        "{}",
        d.message
    );
    let span = d.span.unwrap();
    assert_eq!(span.line, 2);
    assert_eq!(l.sources.get(span.file).name, "<builtin bad>/b.tera");
}

#[test]
fn an_unknown_filter_is_reported_with_its_template() {
    let b = builtin(
        "bad",
        "rules:\n  - match: { kind: node }\n    template: a.tera\n    output: x\n",
        &[("a.tera", "ok\n{{ element.name | no_such_filter }}\n")],
    );
    let l = load(Some(&b), None);
    assert!(l.backend.is_none());
    let d = l.diags.iter().find(|d| d.is_error()).unwrap();
    assert_eq!(d.code, codes::BACKEND_TEMPLATE);
    assert!(
        d.message.contains("a.tera") && d.message.contains("line 2"),
        "{}",
        d.message
    );
    assert!(d.message.contains("no_such_filter"), "{}", d.message);
}

#[test]
fn a_rendering_error_names_the_template_line_and_element() {
    let b = builtin(
        "bad",
        "rules:\n  - match: { kind: node }\n    template: a.tera\n    output: \"{{ element.name }}.txt\"\n",
        &[("a.tera", "one\ntwo {{ element.missing.deeper }}\n")],
    );
    let l = load(Some(&b), None);
    let (files, diags) = render(&l, &[node("web", &["x"])]);
    assert!(files.is_empty());
    let d = diags.iter().find(|d| d.is_error()).unwrap();
    assert_eq!(d.code, codes::BACKEND_TEMPLATE);
    assert!(
        d.message
            .starts_with("template `<builtin bad>/a.tera` line 2: "),
        "{}",
        d.message
    );
    assert_eq!(d.span.unwrap().line, 2);
    assert_eq!(d.hint.as_deref(), Some("while rendering node `web`"));
}

#[test]
fn an_output_path_that_escapes_is_an_error_at_the_rule() {
    let b = builtin(
        "bad",
        "rules:\n  - match: { kind: node }\n    template: a.tera\n    output: \"../{{ element.name }}.txt\"\n",
        &[("a.tera", "x")],
    );
    let l = load(Some(&b), None);
    let (files, diags) = render(&l, &[node("web", &["x"])]);
    assert!(files.is_empty());
    let d = diags.iter().find(|d| d.is_error()).unwrap();
    assert_eq!(d.code, codes::BACKEND_RULES);
    assert!(d.message.contains("`../web.txt`"), "{}", d.message);
    assert_eq!(d.span.unwrap().line, 4);
}

#[test]
fn an_earlier_catch_all_makes_a_later_rule_unreachable() {
    let b = builtin(
        "w",
        "rules:\n  - match: { kind: node }\n    skip: all\n  - match: { kind: node, type: tosca.nodes.Compute }\n    skip: never\n",
        &[],
    );
    let l = load(Some(&b), None);
    assert!(l.backend.is_some());
    let d = l.diags.iter().next().unwrap();
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!(d.message, "this rule can never match");
    assert_eq!(d.span.unwrap().line, 4);
}

#[test]
fn a_user_dir_prepends_rules_and_replaces_templates() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("mapping.yaml"),
        "rules:\n  - match: { kind: node, type: tosca.nodes.DBMS }\n    template: extra/db.tera\n    output: \"db-{{ element.name }}.txt\"\n",
    )
    .unwrap();
    fs::create_dir(dir.path().join("extra")).unwrap();
    fs::write(
        dir.path().join("extra/db.tera"),
        "user db {{ element.name }}\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("compute.tera"),
        "user compute {{ element.name }}\n",
    )
    .unwrap();
    fs::write(dir.path().join(".compute.tera.swp"), "{{ broken").unwrap();
    let b = test_backend();
    let l = load(Some(&b), Some(dir.path()));
    assert!(!l.diags.has_errors(), "{}", messages(&l.diags));
    let (files, diags) = render(
        &l,
        &[
            node("web", &["tosca.nodes.Compute"]),
            node("pg", &["tosca.nodes.DBMS"]),
        ],
    );
    assert!(diags.is_empty(), "{}", messages(&diags));
    let got: Vec<(&str, &str)> = files
        .iter()
        .map(|f| (f.path.as_str(), f.contents.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("db-pg.txt", "user db pg\n"),
            ("graph.txt", "nodes:\nedges: 0\n"),
            ("web-compute.txt", "user compute web\n"),
        ]
    );
}

#[test]
fn a_user_dir_alone_is_a_whole_backend() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("mapping.yaml"),
        "backend: compose\nrules:\n  - match: { kind: node }\n    template: svc.tera\n    section: services\ndocuments:\n  - template: compose.tera\n    output: compose.yaml\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("svc.tera"),
        "  {{ element.name | kebab }}:\n    image: {{ element.name | yaml_str }}\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("compose.tera"),
        "services:\n{% for s in sections.services %}{{ s }}{% endfor %}",
    )
    .unwrap();
    let l = load(None, Some(dir.path()));
    let (files, diags) = render(&l, &[node("WebApp", &["x"])]);
    assert!(diags.is_empty(), "{}", messages(&diags));
    assert_eq!(l.backend.as_ref().unwrap().name(), "compose");
    assert_eq!(
        files[0].contents,
        "services:\n  web-app:\n    image: \"WebApp\"\n"
    );
    let mut out = Vec::new();
    write_outputs(
        &crate::back::Destination::Stdout,
        &files,
        l.backend.as_ref().unwrap().stdout_separator(),
        &mut out,
    )
    .unwrap();
    assert_eq!(out, files[0].contents.as_bytes());
}

#[test]
fn a_user_dir_without_mapping_needs_a_builtin() {
    let dir = tempfile::tempdir().unwrap();
    let l = load(None, Some(dir.path()));
    assert!(l.backend.is_none());
    assert!(
        l.diags.iter().any(|d| d.code == codes::BACKEND_UNKNOWN),
        "{}",
        messages(&l.diags)
    );
    let missing = dir.path().join("nope");
    let l = load(None, Some(&missing));
    assert!(l.backend.is_none());
    assert!(l.diags.iter().any(|d| d.code == codes::BACKEND_UNKNOWN));
}

#[test]
fn empty_output_is_not_written() {
    let b = builtin(
        "e",
        "rules:\n  - match: { kind: node }\n    template: a.tera\n    output: \"{{ element.name }}.txt\"\n",
        &[("a.tera", "{% if element.name == 'keep' %}kept{% endif %}\n")],
    );
    let l = load(Some(&b), None);
    let (files, diags) = render(&l, &[node("keep", &["x"]), node("drop", &["x"])]);
    assert!(diags.is_empty());
    assert_eq!(files.len(), 1);
    assert_eq!(files[0].path, "keep.txt");
}

#[test]
fn extra_context_reaches_rules_documents_and_paths_and_binds_are_readable() {
    let b = builtin(
        "extra",
        "rules:\n  - match: { kind: node, type: tosca.nodes.Compute }\n    template: n.tera\n    output: \"{{ options.dir }}/{{ element.name }}.txt\"\n    bind: { shape: box3d }\n  - match: { kind: node }\n    template: n.tera\n    section: rest\ndocuments:\n  - template: d.tera\n    output: all.txt\n",
        &[
            (
                "n.tera",
                "{{ options.dir }} {{ bind.shape | default(value=\"-\") }}",
            ),
            ("d.tera", "{{ options.dir }} {{ sections.rest | length }}"),
        ],
    );
    let mut loaded = load(Some(&b), None);
    let backend = loaded.backend.take().expect("loads");
    let vm = node("vm", &["my.Server", "tosca.nodes.Compute"]);
    let other = node("x", &["tosca.nodes.Root"]);
    let (i, bind) = backend.bind_for(&vm).expect("a rule");
    assert_eq!((i, bind), (0, &json!({ "shape": "box3d" })));
    assert_eq!(backend.bind_for(&other).map(|(i, _)| i), Some(1));
    let extra = vec![("options".to_string(), to_tera(&json!({ "dir": "out" })))];
    let files = backend.render_with(to_tera(&json!({})), &[vm, other], extra, &mut loaded.diags);
    assert!(!loaded.diags.has_errors(), "{}", messages(&loaded.diags));
    let got: Vec<(&str, &str)> = files
        .iter()
        .map(|f| (f.path.as_str(), f.contents.as_str()))
        .collect();
    assert_eq!(got, vec![("all.txt", "out 1"), ("out/vm.txt", "out box3d")]);
}
