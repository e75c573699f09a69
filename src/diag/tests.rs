use super::*;
use crate::source::Origin;

fn sample() -> (SourceMap, Diagnostic) {
    let mut map = SourceMap::new();
    let id = map.add("t.yaml", Origin::Stdin, "a: 1\nb: 2\na: 3\n");
    let file = map.get(id);
    let first = file.span(id, 0, 1);
    let second = file.span(id, 10, 11);
    let d = Diagnostic::error(codes::YAML_DUPLICATE_KEY, "duplicate key `a`")
        .at_with(second, "defined again here")
        .label(first, "first defined here")
        .hint("remove one of them");
    (map, d)
}

#[test]
fn human_rendering_names_file_line_column_of_both_places() {
    let (map, d) = sample();
    let text = render_human(&d, &map, false);
    assert!(
        text.starts_with("t.yaml:3:1: error[yaml::duplicate-key]: duplicate key `a`\n"),
        "{text}"
    );
    assert!(
        text.contains("\n  t.yaml:1:1: first defined here\n"),
        "{text}"
    );
    assert!(text.contains("defined again here"), "{text}");
    assert!(text.contains("remove one of them"), "{text}");
}

#[test]
fn text_that_fits_renders_the_same_without_wrapping() {
    let mut map = SourceMap::new();
    let id = map.add("t.yaml", Origin::Stdin, "a: 1\nb: 2\na: 3\n");
    let other = map.add("u.yaml", Origin::Stdin, "c: 4\n");
    let file = map.get(id);
    let (here, there) = (file.span(id, 10, 11), map.get(other).span(other, 0, 1));
    let words = "get_input of `x.y-z` is left-out: node/`db0`, (see a_b) so-called";
    let mut texts: Vec<String> = (0..12)
        .map(|n| words.repeat(4)[..n * 16 + 1].trim().to_string())
        .collect();
    // At the limits: the longest message and hint that fit, a word as long as a line.
    texts.push("x".repeat(WRAP_WIDTH - MESSAGE_INDENT));
    texts.push(format!(
        "{} {}",
        "a".repeat(100),
        "b".repeat(WRAP_WIDTH - MESSAGE_INDENT - 101)
    ));
    texts.push(format!(
        "{}-{}",
        "a".repeat(100),
        "b".repeat(WRAP_WIDTH - HINT_INDENT - 101)
    ));
    let hints = texts.iter().filter(|t| fits_unwrapped(t, HINT_INDENT));
    let mut compared = 0;
    for color in [false, true] {
        let human = Human::new(color);
        for (text, hint) in texts.iter().zip(hints.clone().cycle().skip(3)) {
            assert!(fits_unwrapped(text, MESSAGE_INDENT), "{text:?}");
            for error in [false, true] {
                let d = if error {
                    Diagnostic::error(codes::TF_INTERNAL, text.clone())
                } else {
                    Diagnostic::warning(codes::TF_UNEXPRESSED, text.clone())
                };
                let d = d.at(here).label(there, text.clone()).hint(hint.clone());
                let report = MietteView::new(&d, &map);
                assert!(report.fits_unwrapped());
                assert_eq!(
                    render_with(&human.wrapping, &d, &report, &map, color),
                    render_with(&human.unwrapped, &d, &report, &map, color),
                    "{text:?}"
                );
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 4 * texts.len());
    // Text that does not fit, or that textwrap would change, is wrapped.
    for text in [
        "x".repeat(WRAP_WIDTH - MESSAGE_INDENT + 1),
        "two\nlines".to_string(),
        "tab\there".to_string(),
        "trailing ".to_string(),
        " leading".to_string(),
        "ünïcode".to_string(),
        String::new(),
    ] {
        assert!(!fits_unwrapped(&text, MESSAGE_INDENT), "{text:?}");
    }
    assert!(!fits_unwrapped(&texts[12], HINT_INDENT));
}

#[test]
fn json_rendering_is_one_object_per_line_with_locations() {
    let (map, d) = sample();
    let mut out = Vec::new();
    emit(
        &mut out,
        &[d.clone(), d],
        &map,
        MessageFormat::Json,
        false,
        u64::MAX,
    )
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<_> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    let v: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(v["code"], "yaml::duplicate-key");
    assert_eq!(v["severity"], "error");
    assert_eq!(v["file"], "t.yaml");
    assert_eq!(v["line"], 3);
    assert_eq!(v["column"], 1);
    assert_eq!(v["labels"][1]["line"], 1);
    assert_eq!(v["labels"][1]["message"], "first defined here");
}

#[test]
fn any_column_of_any_line_renders_without_panicking() {
    // miette's formatting panics past column 65,535; the snippet is clipped instead.
    let fillers = ["x", "\t", "漢", "é", "\u{1b}", " "];
    for filler in fillers {
        for len in [0, 239, 240, 241, 70_000, 140_000] {
            let line = format!("k: {}!{}", filler.repeat(len), filler.repeat(len / 2));
            let text = format!("a: 1\n{line}\nb: 2\n{line}\n");
            let mut map = SourceMap::new();
            let id = map.add("t.yaml", Origin::Stdin, text.clone());
            let other = map.add("u.yaml", Origin::Stdin, line.clone());
            let bang = text.find('!').unwrap() as u32;
            let last = text.rfind('!').unwrap() as u32;
            let file = map.get(id);
            let d = Diagnostic::error(codes::YAML_SYNTAX, "here")
                .at_with(file.span(id, bang, bang + 1), "the bang")
                .label(
                    file.span(id, 0, last + 1),
                    "from the start to the last bang",
                )
                .label(map.get(other).span(other, 3, 4), "in another file");
            for color in [false, true] {
                let shown = render_human(&d, &map, color);
                let header = format!("t.yaml:2:{}: ", file.line_col(bang).1);
                assert!(shown.starts_with(&header), "{filler:?} {len}");
                assert!(!shown.contains('\u{1b}') || color, "{filler:?} {len}");
                assert!(
                    shown.lines().all(|l| l.chars().count() < 1_000),
                    "{filler:?} {len}"
                );
            }
        }
    }
}

#[test]
fn long_texts_are_shortened_and_the_output_stops_at_its_limit() {
    let (map, _) = sample();
    let value = "v".repeat(1 << 20);
    let many: Vec<Diagnostic> = (0..500)
        .map(|i| {
            Diagnostic::error(codes::TOSCA_SHAPE, format!("`{value}` is wrong ({i})"))
                .hint(value.clone())
        })
        .collect();
    for format in [MessageFormat::Human, MessageFormat::Json] {
        let mut out = Vec::new();
        emit(&mut out, &many, &map, format, false, 1 << 20).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.len() < (1 << 20) + 4096, "{}", text.len());
        assert!(text.contains("(0)") && text.contains("bytes left out"));
        assert!(text.contains("diag::too-much-output"), "{format:?}");
        assert!(text.contains("--max-diagnostics-size"), "{format:?}");
        let shown = (0..500)
            .filter(|i| text.contains(&format!("is wrong ({i})")))
            .count();
        assert!(shown > 50 && shown < 500, "{shown}");
        assert!(text.contains(&format!("{} more diagnostics not shown", 500 - shown)));
    }
}

#[test]
fn closest_suggests_only_plausible_typos() {
    let known = ["node_templates", "relationship_templates", "inputs"];
    assert_eq!(closest("node_template", &known), Some("node_templates"));
    assert_eq!(closest("imputs", &known), Some("inputs"));
    assert_eq!(closest("banana", &known), None);
    let versions = ["tosca_simple_yaml_1_2", "tosca_simple_yaml_1_3"];
    assert_eq!(
        closest("tosca_simple_yaml_1_4", &versions),
        None,
        "a tie suggests nothing"
    );
}

#[test]
fn closest_never_proposes_the_word_itself() {
    // A name that was not found, though a known word, is no typo of itself.
    assert_eq!(closest("inputs", &["inputs"]), None);
    assert_eq!(closest("inputs", &["inputs", "imputs"]), Some("imputs"));
}

#[test]
fn errors_past_the_cap_are_counted_and_summarised() {
    let mut sink = Diagnostics::with_cap(2);
    for i in 0..5 {
        sink.push(Diagnostic::error(codes::TOSCA_SHAPE, format!("e{i}")));
    }
    sink.push(Diagnostic::warning(codes::TOSCA_UNKNOWN_KEY, "w"));
    assert_eq!(sink.error_count(), 5);
    let shown = sink.finish();
    assert_eq!(shown.len(), 4);
    assert_eq!(shown.last().unwrap().message, "3 more errors not shown");
}

/// Every span of some texts, with and without a label text and a hint: where the snippet is
/// of `one_line`'s shape it is drawn there, and it must be what miette draws.
#[test]
fn one_line_snippets_are_what_miette_draws() {
    let texts = [
        "a: 1\nb: 2\nc: [3, 4]\n",
        "only: line",
        "x: 1\n\n\ny: 2\n\n",
        "1\n2\n3\n4\n5\n6\n7\n8\n9\nten: 10\n11\n",
        "a: 1\r\nb: 2\r\n",
        "a: 1\n\tb: 2\nc: é\nd: 4\n",
        "k:\n  - \"long\"\n  - 'q'\n",
    ];
    let human = Human::new(false);
    let mut drawn = 0;
    for text in texts {
        let mut map = SourceMap::new();
        let id = map.add("dir/t.yaml", Origin::Stdin, text);
        for start in 0..=text.len() {
            for end in [start, start + 1, start + 2, start + 4, text.len()] {
                if end > text.len() || !text.is_char_boundary(start) || !text.is_char_boundary(end)
                {
                    continue;
                }
                let span = map.get(id).span(id, start as u32, end as u32);
                for (label, hint) in [
                    (None, None),
                    (Some("here"), Some("fix it")),
                    (Some(""), None),
                ] {
                    let mut d = Diagnostic::warning(codes::TF_UNEXPRESSED, "m").at(span);
                    d.span_label = label.map(str::to_string);
                    d.hint = hint.map(str::to_string);
                    let miette = human.render_by_miette(&d, &map);
                    if let Some(body) = one_line::body(&d, &map, true) {
                        drawn += 1;
                        let ours = header(&d, &map, false) + &body;
                        assert_eq!(ours, miette, "{text:?} {start}..{end} {label:?}");
                    }
                    assert_eq!(human.render(&d, &map), miette);
                }
            }
        }
    }
    assert!(drawn > 200, "{drawn}");
}
