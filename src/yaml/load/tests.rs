use super::*;
use crate::source::Origin;

fn load_with(text: &str, limits: &Limits) -> (Option<Node>, Vec<Diagnostic>, SourceMap) {
    let mut sources = SourceMap::new();
    let id = sources.add("t.yaml", Origin::Stdin, text);
    let mut diags = Diagnostics::with_cap(0);
    let node = load(&sources, id, limits, &mut diags);
    let out = diags.iter().cloned().collect();
    (node, out, sources)
}

fn load_str(text: &str) -> (Option<Node>, Vec<Diagnostic>, SourceMap) {
    load_with(text, &Limits::default())
}

fn ok(text: &str) -> Node {
    let (node, diags, _) = load_str(text);
    assert!(diags.is_empty(), "unexpected diagnostics: {diags:#?}");
    node.expect("a document")
}

fn codes_of(diags: &[Diagnostic]) -> Vec<&'static str> {
    diags.iter().map(|d| d.code).collect()
}

fn get<'n>(node: &'n Node, key: &str) -> &'n Node {
    node.as_map()
        .and_then(|m| m.get(key))
        .unwrap_or_else(|| panic!("no key {key}"))
}

fn core(node: &Node) -> Core {
    node.as_scalar().expect("scalar").core
}

#[test]
fn core_schema_applies_to_plain_scalars_only() {
    let root = ok(
        "a: 1.10\nb: yes\nc: 017\nd: '017'\ne: \"true\"\nf: true\ng: ~\nh: |\n  12\ni: 0o17\nj: 2024-04-14\n",
    );
    let a = get(&root, "a").as_scalar().unwrap();
    assert_eq!(&*a.text, "1.10");
    assert_eq!(a.core, Core::Float(1.1));
    assert_eq!(core(get(&root, "b")), Core::Str);
    assert_eq!(core(get(&root, "c")), Core::Int(17));
    assert_eq!(core(get(&root, "d")), Core::Str);
    assert_eq!(get(&root, "d").style, Style::SingleQuoted);
    assert_eq!(core(get(&root, "e")), Core::Str);
    assert_eq!(core(get(&root, "f")), Core::Bool(true));
    assert_eq!(core(get(&root, "g")), Core::Null);
    assert_eq!(get(&root, "h").as_str(), Some("12\n"));
    assert_eq!(core(get(&root, "i")), Core::Int(15));
    assert_eq!(get(&root, "j").as_str(), Some("2024-04-14"));
}

#[test]
fn integer_out_of_range_is_a_string_with_a_warning() {
    let (node, diags, _) = load_str("big: 99999999999999999999\n");
    let node = node.unwrap();
    assert_eq!(get(&node, "big").as_str(), Some("99999999999999999999"));
    assert_eq!(codes_of(&diags), [codes::YAML_INT_RANGE]);
    assert!(!diags[0].is_error());
    assert!(diags[0].message.contains("read as a string"));
    assert_eq!(diags[0].span.unwrap().col, 6);
}

#[test]
fn explicit_core_tags_force_and_check_types() {
    let root = ok("a: !!str 12\nb: !!int '12'\nc: !!float 3\nd: !!bool \"false\"\ne: !!null ''\n");
    assert_eq!(get(&root, "a").as_str(), Some("12"));
    assert_eq!(get(&root, "a").tag(), Some("tag:yaml.org,2002:str"));
    assert_eq!(core(get(&root, "b")), Core::Int(12));
    assert_eq!(core(get(&root, "c")), Core::Float(3.0));
    assert_eq!(core(get(&root, "d")), Core::Bool(false));
    assert_eq!(core(get(&root, "e")), Core::Null);

    let (_, diags, _) = load_str("a: !!int twelve\nb: !!bool yes\n");
    assert_eq!(codes_of(&diags), [codes::YAML_SYNTAX, codes::YAML_SYNTAX]);
    assert!(
        diags[0].message.contains("`twelve` is not an integer"),
        "{}",
        diags[0].message
    );
    assert!(diags[0].message.contains("!!int"));
    assert!(diags[1].message.contains("`yes` is not a boolean"));
    assert_eq!(diags[1].span.unwrap().line, 2);
}

#[test]
fn other_tags_are_kept() {
    let root =
        ok("a: !!binary aGk=\nb: !custom 5\nc: !!timestamp 2024-01-01\nd: !map {x: 1}\ne: ! 7\n");
    assert_eq!(get(&root, "a").tag(), Some("tag:yaml.org,2002:binary"));
    assert_eq!(get(&root, "a").as_str(), Some("aGk="));
    assert_eq!(get(&root, "b").tag(), Some("!custom"));
    assert_eq!(core(get(&root, "b")), Core::Int(5));
    assert_eq!(get(&root, "c").tag(), Some("tag:yaml.org,2002:timestamp"));
    assert_eq!(get(&root, "d").tag(), Some("!map"));
    assert!(get(&root, "d").as_map().is_some());
    // The non-specific tag `!` makes a string.
    assert_eq!(get(&root, "e").as_str(), Some("7"));
}

#[test]
fn duplicate_keys_compare_decoded_text_and_are_all_reported() {
    let text = "a: 1\n'a': 2\n1: x\n\"1\": y\nb: 3\nb: 4\n";
    let (node, diags, _) = load_str(text);
    let node = node.expect("the tree is still returned");
    assert_eq!(codes_of(&diags), [codes::YAML_DUPLICATE_KEY; 3]);
    let d = &diags[0];
    assert_eq!(d.message, "duplicate key `a` in this mapping");
    let span = d.span.unwrap();
    assert_eq!((span.line, span.col), (2, 1));
    assert_eq!(d.span_label.as_deref(), Some("defined again here"));
    assert_eq!(d.labels.len(), 1);
    assert_eq!(d.labels[0].message, "first defined here");
    assert_eq!((d.labels[0].span.line, d.labels[0].span.col), (1, 1));
    assert!(
        d.hint
            .as_deref()
            .unwrap()
            .contains("YAML forbids duplicate keys")
    );
    assert_eq!(diags[1].message, "duplicate key `1` in this mapping");
    assert_eq!(diags[2].span.unwrap().line, 6);
    // The first definition wins.
    assert_eq!(core(get(&node, "a")), Core::Int(1));
    assert_eq!(core(get(&node, "b")), Core::Int(3));
    assert_eq!(node.as_map().unwrap().len(), 3);
}

#[test]
fn non_scalar_keys_are_kept_and_checked_for_duplicates() {
    let root = ok("? [ service, 2 ]\n: x\n[ a, b ]: y\n");
    let map = root.as_map().unwrap();
    assert_eq!(map.len(), 2);
    let key = &map.entries()[0].key;
    let items = key.as_seq().unwrap();
    assert_eq!(items[0].as_str(), Some("service"));
    assert_eq!(core(&items[1]), Core::Int(2));
    assert_eq!((key.span.line, key.span.col), (1, 3));
    assert_eq!(map.entries()[1].value.as_str(), Some("y"));

    let (_, diags, _) = load_str("[ a, 1 ]: x\n[ 'a', \"1\" ]: y\n{k: v}: 1\n{k: w}: 2\n");
    assert_eq!(codes_of(&diags), [codes::YAML_DUPLICATE_KEY]);
    assert_eq!(diags[0].message, "duplicate key `[a, 1]` in this mapping");
    assert_eq!(diags[0].span.unwrap().line, 2);
    assert_eq!(diags[0].labels[0].span.line, 1);
}

#[test]
fn aliases_expand_with_definition_spans() {
    let text = "base: &b\n  x: 1\n  y: [2, 3]\ncopy: *b\ns: &s hello\nt: *s\n";
    let root = ok(text);
    let copy = get(&root, "copy");
    assert_eq!((copy.span.line, copy.span.col), (4, 7));
    let x = get(copy, "x");
    assert_eq!(core(x), Core::Int(1));
    assert_eq!((x.span.line, x.span.col), (2, 6));
    assert_eq!(get(copy, "y").as_seq().unwrap().len(), 2);
    assert_eq!(get(&root, "t").as_str(), Some("hello"));
}

#[test]
fn unknown_alias_is_a_clear_error() {
    let (node, diags, _) = load_str("a: 1\nb: *nope\nc: *other\n");
    assert!(node.is_none());
    assert_eq!(codes_of(&diags), [codes::YAML_SYNTAX, codes::YAML_SYNTAX]);
    assert_eq!(diags[0].message, "unknown alias `*nope`");
    let span = diags[0].span.unwrap();
    assert_eq!((span.line, span.col), (2, 4));
    assert!(diags[1].message.contains("*other"));
}

#[test]
fn recursive_alias_is_an_error_not_a_hang() {
    let (node, diags, _) = load_str("a: &a [1, *a]\n");
    assert!(node.is_none());
    assert_eq!(codes_of(&diags), [codes::YAML_SYNTAX]);
    assert!(diags[0].message.contains("contains it"));
}

fn billion_laughs() -> String {
    let mut text = String::from(
        "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for pair in names.windows(2) {
        let (prev, name) = (pair[0], pair[1]);
        let refs = vec![format!("*{prev}"); 9].join(",");
        text.push_str(&format!("{name}: &{name} [{refs}]\n"));
    }
    text
}

#[test]
fn billion_laughs_stops_at_the_alias_budget() {
    let (node, diags, _) = load_str(&billion_laughs());
    assert!(node.is_none());
    assert_eq!(codes_of(&diags), [codes::YAML_ALIAS_BUDGET]);
    let span = diags[0].span.unwrap();
    assert!(span.line >= 2, "reported at an alias: {span:?}");
    assert!(diags[0].message.contains("1000000"));
    // With a small budget it fails at the first alias that passes it.
    let limits = Limits {
        max_alias_expansion: 50,
        ..Limits::default()
    };
    let (node, diags, sources) = load_with(&billion_laughs(), &limits);
    assert!(node.is_none());
    assert_eq!(codes_of(&diags), [codes::YAML_ALIAS_BUDGET]);
    // `*a` adds 10 nodes; the sixth one passes 50.
    let span = diags[0].span.unwrap();
    assert_eq!(sources.slice(span), "*a");
    assert_eq!(span.line, 2);
}

#[test]
fn merge_keys_merge_and_explicit_keys_win() {
    let text = "\
d1: &d1 {a: 1, b: 1, c: 1}
d2: &d2 {b: 2, d: 2}
one:
  a: own
  <<: *d1
two:
  <<: [*d2, *d1]
  c: own
inline:
  <<: {z: 26}
";
    let root = ok(text);
    let one = get(&root, "one");
    assert_eq!(get(one, "a").as_str(), Some("own"));
    assert_eq!(core(get(one, "b")), Core::Int(1));
    assert!(!one.as_map().unwrap().contains_key("<<"));
    let two = get(&root, "two");
    assert_eq!(
        core(get(two, "b")),
        Core::Int(2),
        "earlier map in the list wins"
    );
    assert_eq!(core(get(two, "a")), Core::Int(1));
    assert_eq!(core(get(two, "d")), Core::Int(2));
    assert_eq!(
        get(two, "c").as_str(),
        Some("own"),
        "explicit key after << wins"
    );
    assert_eq!(two.as_map().unwrap().len(), 4);
    assert_eq!(core(get(get(&root, "inline"), "z")), Core::Int(26));
    // A quoted `<<` is an ordinary key.
    let root = ok("'<<': 1\n");
    assert!(root.as_map().unwrap().contains_key("<<"));
}

#[test]
fn merge_of_a_non_map_is_an_error() {
    let (_, diags, _) = load_str("a:\n  <<: 5\nb:\n  <<: [{x: 1}, 2]\n");
    assert_eq!(codes_of(&diags), [codes::YAML_MERGE, codes::YAML_MERGE]);
    assert!(diags[0].message.contains("found an integer"));
    assert_eq!(diags[0].span.unwrap().line, 2);
    assert!(diags[1].message.contains("list"));
}

#[test]
fn aliases_are_charged_the_bytes_they_copy() {
    let text = format!("a: &a \"{}\"\nb: [*a, *a, *a]\n", "x".repeat(100));
    let limits = |bytes| Limits {
        max_alias_bytes: bytes,
        ..Limits::default()
    };
    let (node, diags, _) = load_with(&text, &limits(300));
    assert!(node.is_some() && diags.is_empty(), "{diags:?}");
    let (node, diags, _) = load_with(&text, &limits(299));
    assert!(node.is_none());
    assert_eq!(codes_of(&diags), [codes::YAML_ALIAS_BUDGET]);
    assert!(
        diags[0].message.contains("299 bytes"),
        "{}",
        diags[0].message
    );
    assert_eq!(
        diags[0].span.unwrap().col,
        13,
        "at the alias that passes it"
    );
    // A collection's alias copies the text of every scalar in it.
    let text = "a: &a [xx, {yy: zz}]\nb: *a\n";
    assert!(load_with(text, &limits(6)).0.is_some());
    assert!(load_with(text, &limits(5)).0.is_none());
}

#[test]
fn a_file_stops_at_the_node_limit_aliases_counted() {
    let limits = |nodes| Limits {
        max_yaml_nodes: nodes,
        ..Limits::default()
    };
    // The root map, two keys, a list and its three items.
    let text = "a: [1, 2, 3]\nb: x\n";
    assert!(load_with(text, &limits(8)).0.is_some());
    let (node, diags, _) = load_with(text, &limits(7));
    assert!(node.is_none());
    assert_eq!(codes_of(&diags), [codes::YAML_NODE_LIMIT]);
    assert_eq!(diags[0].span.unwrap().line, 2);
    assert!(
        diags[0]
            .hint
            .as_deref()
            .unwrap()
            .contains("--max-yaml-nodes")
    );
    // An alias adds the nodes it copies.
    let text = "a: &a [1, 2, 3]\nb: *a\n";
    assert!(load_with(text, &limits(11)).0.is_some());
    assert!(load_with(text, &limits(10)).0.is_none());
}

#[test]
fn second_document_is_an_error() {
    let (node, diags, _) = load_str("a: 1\n---\nb: 2\n");
    assert_eq!(codes_of(&diags), [codes::YAML_MULTI_DOCUMENT]);
    let span = diags[0].span.unwrap();
    assert_eq!((span.line, span.col), (2, 1));
    assert_eq!(
        diags[0].hint.as_deref(),
        Some("a TOSCA file holds one document; split it into files")
    );
    // The first document is still returned.
    assert!(node.unwrap().as_map().unwrap().contains_key("a"));
}

#[test]
fn empty_stream_is_an_error() {
    for text in ["", "# only a comment\n\n", "---\n"] {
        let (node, diags, _) = load_str(text);
        assert!(node.is_none(), "{text:?}");
        assert_eq!(codes_of(&diags), [codes::YAML_EMPTY], "{text:?}");
        let span = diags[0].span.unwrap();
        assert_eq!((span.start, span.line, span.col), (0, 1, 1));
    }
}

#[test]
fn nesting_deeper_than_the_limit_is_fatal() {
    let limits = Limits {
        max_yaml_depth: 5,
        ..Limits::default()
    };
    let (node, diags, _) = load_with("a: [[[[1]]]]\n", &limits);
    assert!(node.is_some(), "five levels are fine");
    assert!(diags.is_empty());
    let (node, diags, _) = load_with("a: [[[[[1]]]]]\n", &limits);
    assert!(node.is_none());
    assert_eq!(codes_of(&diags), [codes::YAML_DEPTH]);
    assert_eq!(diags[0].span.unwrap().col, 8);
    // Deep input with the default limit: an error, no stack overflow.
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let (node, diags, _) = load_str(&deep);
    assert!(node.is_none());
    assert_eq!(codes_of(&diags), [codes::YAML_DEPTH]);
}

#[test]
fn scalar_longer_than_the_limit_is_fatal() {
    let limits = Limits {
        max_scalar_bytes: 8,
        ..Limits::default()
    };
    let (node, diags, _) = load_with("a: 12345678\n", &limits);
    assert!(node.is_some());
    assert!(diags.is_empty());
    let (node, diags, _) = load_with("a: ok\nb: \"123456789\"\n", &limits);
    assert!(node.is_none());
    assert_eq!(codes_of(&diags), [codes::YAML_SCALAR_TOO_LONG]);
    assert_eq!(diags[0].span.unwrap().line, 2);
}

#[test]
fn tabs_in_indentation_are_reported_on_every_line() {
    let text = "a:\n\tb: 1\nc:\n  d: 2\ne:\n \tf: 3\n";
    let (node, diags, _) = load_str(text);
    assert!(node.is_none());
    assert_eq!(
        codes_of(&diags),
        [codes::YAML_TAB_INDENT, codes::YAML_TAB_INDENT]
    );
    assert_eq!(diags[0].message, "tab character in indentation");
    let s0 = diags[0].span.unwrap();
    assert_eq!((s0.line, s0.col, s0.end - s0.start), (2, 1, 1));
    let s1 = diags[1].span.unwrap();
    assert_eq!((s1.line, s1.col), (6, 2));
    assert_eq!(
        diags[0].hint.as_deref(),
        Some("YAML indents with spaces only; replace the tab with spaces")
    );
}

#[test]
fn tabs_in_block_scalars_and_flow_are_fine() {
    let root = ok("a: |\n  x\n  \tindented with a tab\nb: [1,\n\t2]\nc: 1\t# comment\n");
    assert_eq!(get(&root, "a").as_str(), Some("x\n\tindented with a tab\n"));
    assert_eq!(get(&root, "b").as_seq().unwrap().len(), 2);
}

#[test]
fn nbsp_in_indentation_is_reported_with_the_syntax_error_after() {
    let text = "a:\n\u{a0} b: 1\nc:\n\u{a0}\u{a0}d: 2\n";
    let (_, diags, _) = load_str(text);
    assert_eq!(codes_of(&diags), [codes::YAML_NBSP, codes::YAML_NBSP]);
    assert_eq!(
        diags[0].message,
        "non-breaking space (U+00A0) in indentation"
    );
    let s = diags[0].span.unwrap();
    assert_eq!((s.line, s.col, s.end - s.start), (2, 1, 2));
    assert!(diags[0].hint.as_deref().unwrap().contains("plain space"));
    assert_eq!(diags[1].span.unwrap().line, 4);

    // With a real syntax error later, both are reported, whitespace first.
    let (node, diags, _) = load_str("a:\n\u{a0} b: 1\nc: [1, 2\n");
    assert!(node.is_none());
    assert_eq!(codes_of(&diags), [codes::YAML_NBSP, codes::YAML_SYNTAX]);
    // Inside a block scalar a non-breaking space is text.
    ok("a: |\n  \u{a0}x\n");
}

#[test]
fn syntax_errors_are_readable_with_hints() {
    let (node, diags, _) = load_str("a: 1\nk: v: w\n");
    assert!(node.is_none());
    assert_eq!(codes_of(&diags), [codes::YAML_SYNTAX]);
    assert!(diags[0].message.contains("`:`"), "{}", diags[0].message);
    assert!(
        diags[0]
            .hint
            .as_deref()
            .unwrap()
            .contains("missing space after `:`")
    );
    let s = diags[0].span.unwrap();
    assert_eq!((s.line, s.col), (2, 5));

    let (_, diags, _) = load_str("a: [1, 2\nb: 3\n");
    assert_eq!(codes_of(&diags), [codes::YAML_SYNTAX]);
    assert!(diags[0].hint.is_some());

    // Diagnostics found before the scanner error are kept.
    let (node, diags, _) = load_str("a: 1\na: 2\nb: 'open\n");
    assert!(node.is_none());
    assert_eq!(
        codes_of(&diags),
        [codes::YAML_DUPLICATE_KEY, codes::YAML_SYNTAX]
    );
}

#[test]
fn under_indented_quoted_continuations_are_accepted_like_libyaml() {
    let text = "tosca_definitions_version: tosca_2_0\ndescription: \"A multiline description \nusing a quoted string\"\nb:\n  c: 'x\n  y\n z'\nafter: 1\n";
    let (node, diags, sources) = load_str(text);
    assert!(diags.is_empty(), "{diags:#?}");
    let root = node.unwrap();
    let d = get(&root, "description");
    assert_eq!(
        d.as_str(),
        Some("A multiline description using a quoted string")
    );
    assert_eq!(
        sources.slice(d.span),
        "\"A multiline description \nusing a quoted string\""
    );
    let c = get(get(&root, "b"), "c");
    assert_eq!(c.as_str(), Some("x y z"));
    assert_eq!((c.span.line, c.span.col), (5, 6));
    let after = &root.as_map().unwrap().entries()[3].key;
    assert_eq!(sources.slice(after.span), "after");
    assert_eq!((after.span.line, after.span.col), (8, 1));
    // An unclosed quote is still an error, reported once.
    let (node, diags, _) = load_str("a: \"abc\nb: 1\n");
    assert!(node.is_none());
    assert_eq!(codes_of(&diags), [codes::YAML_SYNTAX]);
}

#[test]
fn patch_maps_offsets_back() {
    let mut patch = Patch::default();
    assert!(patch.indent_continuation("a: \"x\ny\"\n", 6));
    assert_eq!(patch.text.as_deref(), Some("a: \"x\n y\"\n"));
    assert_eq!(patch.original(5), 5);
    assert_eq!(
        patch.original(6),
        6,
        "the inserted space maps to the line start"
    );
    assert_eq!(patch.original(7), 6);
    assert_eq!(patch.original(9), 8);
    // Not a continuation: first line, or text before the offset.
    assert!(!Patch::default().indent_continuation("\"x", 0));
    assert!(!Patch::default().indent_continuation("a\nb c", 4));
}

#[test]
fn empty_values_are_null_with_a_zero_length_span() {
    let root = ok("top:\n  key:\n  other: 1\n");
    let key = get(get(&root, "top"), "key");
    let s = key.as_scalar().unwrap();
    assert_eq!(s.core, Core::Null);
    assert_eq!(&*s.text, "");
    assert_eq!(key.span.start, key.span.end);
    assert_eq!((key.span.line, key.span.col), (2, 6));
}

#[test]
fn spans_point_at_keys_values_and_cover_collections() {
    let text = "name: web\nlist:\n  - x\n  - {k: v}\n# trailing comment\n";
    let (node, diags, sources) = load_str(text);
    assert!(diags.is_empty());
    let root = node.unwrap();
    let map = root.as_map().unwrap();
    let first = &map.entries()[0];
    assert_eq!(sources.slice(first.key.span), "name");
    assert_eq!(sources.slice(first.value.span), "web");
    let list = get(&root, "list");
    assert_eq!(sources.slice(list.span), "- x\n  - {k: v}");
    assert_eq!((list.span.line, list.span.col), (3, 3));
    let flow = &list.as_seq().unwrap()[1];
    assert_eq!(sources.slice(flow.span), "{k: v}");
    assert_eq!(sources.slice(root.span), &text[..text.find("\n#").unwrap()]);
}

#[test]
fn crlf_input_keeps_lines_and_columns() {
    let text = "a: 1\r\nbé:\r\n  c: x\r\n  d:\r\n";
    let (node, diags, sources) = load_str(text);
    assert!(diags.is_empty(), "{diags:?}");
    let root = node.unwrap();
    let b = get(&root, "bé");
    let c = get(b, "c");
    assert_eq!((c.span.line, c.span.col), (3, 6));
    assert_eq!(sources.slice(c.span), "x");
    let key_b = &root.as_map().unwrap().entries()[1].key;
    assert_eq!((key_b.span.line, key_b.span.col), (2, 1));
    let d = get(b, "d");
    assert!(d.is_null());
    assert_eq!((d.span.line, d.span.col), (4, 4));
    // A tab error in CRLF input points at the tab.
    let (_, diags, _) = load_str("a:\r\n\tb: 1\r\n");
    assert_eq!(codes_of(&diags), [codes::YAML_TAB_INDENT]);
    let s = diags[0].span.unwrap();
    assert_eq!((s.line, s.col), (2, 1));
}

#[test]
fn locator_agrees_with_source_file_spans() {
    let text = "a: é\r\n  - [x, yé, z]\n\n\t\u{a0}w: 1\nlast";
    let mut sources = SourceMap::new();
    let id = sources.add("t.yaml", Origin::Stdin, text);
    let file = sources.get(id);
    let mut loc = Locator::new(file, id);
    // In order, out of order, and repeated.
    let mut offsets: Vec<usize> = (0..=text.len())
        .filter(|&i| text.is_char_boundary(i))
        .collect();
    offsets.extend([7, 3, 0, 20, 20, text.len(), 1]);
    for off in offsets {
        assert_eq!(
            loc.span(off, off),
            file.span(id, off as u32, off as u32),
            "at {off}"
        );
    }
}

#[test]
fn never_panics_on_odd_input() {
    let inputs = [
        "\u{0}",
        "[",
        "]",
        "{",
        "}",
        "- - -",
        "? ",
        ": ",
        "&a",
        "*",
        "!!",
        "%YAML 1.2\n---\n",
        "a: &x\n",
        "'",
        "\"\\",
        "|",
        ">\n  x",
        "key: \"\\uD800\"",
        "---\n...\n---\n",
        "a: !!int",
        "<<: *x",
        "a:\n  <<: []\n",
        "? [a]\n? [a]\n",
        "- !!map 1\n- !!seq {}\n",
    ];
    for text in inputs {
        let _ = load_str(text);
    }
}

#[test]
/// Large documents load whole; how fast is measured in `benches/`, not asserted here.
fn large_flat_documents_load() {
    let mut text = String::from("node_templates:\n");
    for i in 0..20_000 {
        text.push_str(&format!(
            "  n{i}:\n    type: tosca.nodes.Compute\n    properties: {{ size: {i} }}\n"
        ));
    }
    let root = ok(&text);
    assert_eq!(get(&root, "node_templates").as_map().unwrap().len(), 20_000);
    // One very long line too.
    let line = format!("[{}]", vec!["abc"; 200_000].join(", "));
    let root = ok(&line);
    assert_eq!(root.as_seq().unwrap().len(), 200_000);
}

#[test]
fn load_own_gives_the_tree_only_when_nothing_was_found_and_places_problems_by_name() {
    let mut sources = SourceMap::new();
    let clean = sources.add("<builtin>/clean.yaml", Origin::Stdin, "a: 1\n");
    let both = sources.add(
        "<builtin>/both.yaml",
        Origin::Stdin,
        "a: 1\nb: 99999999999999999999\na: 2\n",
    );
    assert!(load_own(&sources, clean, &Limits::default()).is_ok());
    // A warning alone is found too: text toscana wrote itself should draw none.
    let found = load_own(&sources, both, &Limits::default()).unwrap_err();
    assert_eq!(
        codes_of(&found),
        [codes::YAML_INT_RANGE, codes::YAML_DUPLICATE_KEY]
    );
    assert!(found.iter().any(|d| !d.labels.is_empty()), "{found:#?}");
    let placed = placed_by_name(&sources, found);
    let places: Vec<_> = placed
        .iter()
        .map(|d| {
            (
                d.span,
                d.labels.len(),
                d.file.clone().map(|f| (f.path, f.line, f.column)),
            )
        })
        .collect();
    assert_eq!(
        places,
        [
            (
                None,
                0,
                Some(("<builtin>/both.yaml".to_string(), Some(2), Some(4)))
            ),
            (
                None,
                0,
                Some(("<builtin>/both.yaml".to_string(), Some(3), Some(1)))
            ),
        ]
    );
}
