//! Tera filters that make template output safe for its target format.
//!
//! Autoescaping is off in every backend (it would HTML-escape YAML and HCL), so a template
//! quotes each value it interpolates with the filter of its output format:
//!
//! | filter | gives | for |
//! |---|---|---|
//! | `yaml_str` | a double-quoted scalar, valid YAML 1.1, YAML 1.2 and JSON | Kubernetes manifests |
//! | `hcl_str` | a quoted HCL string with `${` and `%{` escaped | Terraform |
//! | `dot_id` | a double-quoted Graphviz ID | diagrams |
//! | `dot_label` | a double-quoted Graphviz label, pure ASCII: `&`, `<`, `>` and non-ASCII as HTML entities | diagrams |
//! | `dot_html` | text for a Graphviz HTML-like label, pure ASCII, line breaks as `<br/>` | diagrams |
//! | `dns_label` | a DNS-1123 label (`[a-z0-9-]`, ≤ 63 characters) | Kubernetes object names |
//! | `snake`, `kebab` | `snake_case`, `kebab-case` | identifiers |
//!
//! The quoting filters accept strings, numbers and booleans (numbers and booleans are quoted as
//! their text) and refuse null, lists and maps, because quoting those silently would hide a
//! template mistake.

use heck::{ToKebabCase, ToSnakeCase};
use tera::{Kwargs, State, Tera, TeraResult, Value};

/// Registers every toscana filter on `tera`. Must run before templates are added, because Tera
/// checks at load time that every filter a template uses exists.
pub fn register(tera: &mut Tera) {
    tera.register_filter("yaml_str", |v: &Value, _: Kwargs, _: &State| {
        // A string is quoted where it lies: `scalar_text` would copy it first, and this filter
        // quotes every string of a `tosca2k8s` run.
        match v.as_str() {
            Some(s) => Ok(yaml_str(s)),
            None => scalar_text("yaml_str", v).map(|s| yaml_str(&s)),
        }
    });
    tera.register_filter("hcl_str", |v: &Value, _: Kwargs, _: &State| {
        scalar_text("hcl_str", v).map(|s| hcl_str(&s))
    });
    tera.register_filter("dot_id", |v: &Value, _: Kwargs, _: &State| {
        scalar_text("dot_id", v).map(|s| dot_id(&s))
    });
    tera.register_filter("dot_label", |v: &Value, _: Kwargs, _: &State| {
        scalar_text("dot_label", v).map(|s| dot_label(&s))
    });
    tera.register_filter("dot_html", |v: &Value, _: Kwargs, _: &State| {
        scalar_text("dot_html", v).map(|s| dot_html(&s))
    });
    tera.register_filter("dns_label", |v: &Value, _: Kwargs, _: &State| {
        scalar_text("dns_label", v).map(|s| dns_label(&s))
    });
    tera.register_filter("snake", |v: &str, _: Kwargs, _: &State| v.to_snake_case());
    tera.register_filter("kebab", |v: &str, _: Kwargs, _: &State| v.to_kebab_case());
}

/// The text of a string, number or boolean; an error naming the filter for anything else.
fn scalar_text(filter: &str, v: &Value) -> TeraResult<String> {
    if let Some(s) = v.as_str() {
        return Ok(s.to_string());
    }
    if v.is_number() || v.is_bool() {
        return Ok(v.to_string());
    }
    Err(tera::Error::message(format!(
        "the `{filter}` filter needs a string, number or boolean, but got {}",
        v.name()
    )))
}

/// A double-quoted string that YAML 1.1, YAML 1.2 and JSON all read back as exactly `s`.
///
/// JSON escaping alone is not enough for YAML: a YAML 1.1 reader (kubectl) treats U+0085,
/// U+2028 and U+2029 as line breaks and folds them, and DEL, C1 controls, a BOM and U+FFFE/U+FFFF
/// are not printable YAML characters. Those are written as `\uXXXX`, which both formats accept.
///
/// Written like [`hcl_str`] (it quotes every string of a `tosca2k8s` run): runs of printable
/// ASCII other than `"` and `\` are copied whole, and only the characters between them are
/// looked at one by one.
pub fn yaml_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let mut copied = 0;
    let mut at = 0;
    while at < s.len() {
        let b = s.as_bytes()[at];
        if (b' '..=b'~').contains(&b) && !matches!(b, b'"' | b'\\') {
            at += 1;
            continue;
        }
        out.push_str(&s[copied..at]);
        let c = s[at..].chars().next().expect("at a character boundary");
        escape_json_like(c, &mut out);
        at += c.len_utf8();
        copied = at;
    }
    out.push_str(&s[copied..]);
    out.push('"');
    out
}

/// A quoted HCL string that Terraform reads back as exactly `s`, never as an interpolation
/// (`${`) or a template directive (`%{`): their mark is doubled (`$${`, `%%{`), which HCL reads
/// as the literal text.
///
/// Written in one pass into one buffer (it writes every string value of a `tosca2tf` run,
/// lifecycle scripts among them): runs of printable ASCII other than `"`, `\`, `$` and `%` are
/// copied whole, and only the characters between them are looked at one by one.
pub fn hcl_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let mut copied = 0;
    let mut at = 0;
    while at < s.len() {
        let b = s.as_bytes()[at];
        if (b' '..=b'~').contains(&b) && !matches!(b, b'"' | b'\\' | b'$' | b'%') {
            at += 1;
            continue;
        }
        out.push_str(&s[copied..at]);
        let c = s[at..].chars().next().expect("at a character boundary");
        if matches!(c, '$' | '%') && s.as_bytes().get(at + 1) == Some(&b'{') {
            out.push(c);
        }
        escape_json_like(c, &mut out);
        at += c.len_utf8();
        copied = at;
    }
    out.push_str(&s[copied..]);
    out.push('"');
    out
}

/// `c` as it is written inside a double-quoted string that JSON and YAML (1.1 and 1.2) both
/// read back as `c` (see [`yaml_str`]).
fn escape_json_like(c: char, out: &mut String) {
    match c {
        '"' => out.push_str("\\\""),
        '\\' => out.push_str("\\\\"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if (c as u32) < 0x20
            || (0x7f..=0x9f).contains(&(c as u32))
            || matches!(
                c,
                '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}'
            ) =>
        {
            out.push_str(&format!("\\u{:04x}", c as u32));
        }
        c => out.push(c),
    }
}

/// A double-quoted Graphviz ID. `"` and `\` are escaped, line breaks become `\n` (a centred line
/// break in labels), and other control characters, which Graphviz cannot show, are dropped.
pub fn dot_id(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => {
                if chars.peek() != Some(&'\n') {
                    out.push_str("\\n");
                }
            }
            '\t' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A double-quoted Graphviz string for a label or tooltip, in pure ASCII.
///
/// Graphviz reads HTML entities in every string, so `&`, `<` and `>` become `&amp;`, `&lt;` and
/// `&gt;`, and every non-ASCII character a numeric entity (`&#233;`); `"` and `\` are escaped and
/// line breaks become `\n`. Other control characters, which Graphviz cannot show, are dropped.
pub fn dot_label(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => {
                if chars.peek() != Some(&'\n') {
                    out.push_str("\\n");
                }
            }
            '\t' => out.push(' '),
            c if c.is_control() => {}
            c => push_entity(c, &mut out),
        }
    }
    out.push('"');
    out
}

/// Text for a Graphviz HTML-like label (`label=<...>`), in pure ASCII: `&`, `<`, `>`, `"` and
/// `'` as entities, every non-ASCII character as a numeric entity, line breaks as `<br/>`, `\`
/// doubled (Graphviz expands `\N` and the like even there), other control characters dropped.
pub fn dot_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Graphviz expands `\N`, `\G`, `\L` ... even in HTML-like labels; `\\` is a backslash.
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("<br/>"),
            '\r' => {
                if chars.peek() != Some(&'\n') {
                    out.push_str("<br/>");
                }
            }
            '\t' => out.push(' '),
            c if c.is_control() => {}
            c => push_entity(c, &mut out),
        }
    }
    if out.is_empty() {
        // Graphviz's HTML-like label grammar rejects an element with no text in it
        // (`<b></b>`, `<font ...></font>`), so text that escapes to nothing is one space.
        out.push_str("&#32;");
    }
    out
}

/// `c`, or its HTML entity when it is `&`, `<`, `>` or not ASCII.
fn push_entity(c: char, out: &mut String) {
    match c {
        '&' => out.push_str("&amp;"),
        '<' => out.push_str("&lt;"),
        '>' => out.push_str("&gt;"),
        c if c.is_ascii() => out.push(c),
        c => out.push_str(&format!("&#{};", c as u32)),
    }
}

/// Longest DNS-1123 label.
const DNS_LABEL_MAX: usize = 63;

/// A DNS-1123 label for `s`: kebab case, only `[a-z0-9-]`, no leading or trailing `-`, at most
/// 63 characters.
///
/// A name that must be shortened keeps its first characters and ends with `-` and 8 hex digits of
/// a stable hash (FNV-1a) of the whole name, so two long names that share a prefix stay distinct
/// and the result is the same on every run and machine. A name with no usable character at all
/// becomes `x-` and the hash. Names that differ only in what the label cannot express (`My_App`
/// and `my-app`) give the same label; the engine reports two elements that render to the same
/// output path.
pub fn dns_label(s: &str) -> String {
    let kebab = s.to_kebab_case();
    let mut label = String::with_capacity(kebab.len());
    for c in kebab.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            label.push(c);
        } else if !label.ends_with('-') {
            label.push('-');
        }
    }
    let label = label.trim_matches('-');
    if label.is_empty() {
        return format!("x-{}", short_hash(s));
    }
    if label.len() <= DNS_LABEL_MAX {
        return label.to_string();
    }
    let hash = short_hash(s);
    let keep = DNS_LABEL_MAX - hash.len() - 1;
    // `label` is ASCII, so any byte index is a character boundary.
    let head = label[..keep].trim_end_matches('-');
    format!("{head}-{hash}")
}

/// Eight hex digits of the 64-bit FNV-1a hash of `s`: stable across runs, machines and Rust
/// versions (unlike `std`'s hasher).
fn short_hash(s: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{:08x}", (h >> 32) as u32 ^ (h as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(template: &str, value: serde_json::Value) -> Result<String, String> {
        let mut tera = Tera::new();
        tera.autoescape_on(Vec::<&str>::new());
        register(&mut tera);
        tera.add_raw_template("t", template)
            .map_err(|e| e.to_string())?;
        let mut ctx = tera::Context::new();
        ctx.insert("v", &value);
        tera.render("t", &ctx).map_err(|e| e.to_string())
    }

    const ADVERSARIAL: &[&str] = &[
        "",
        "plain",
        "on",
        "yes",
        "null",
        "1.10",
        "- item",
        "a: b",
        "#comment",
        "quote \" backslash \\ end\\",
        "new\nline\r\nwindows\rcr",
        "tab\there",
        "nul\0bell\u{7}del\u{7f}c1\u{85}\u{9b}",
        "line\u{2028}para\u{2029}bom\u{feff}nonchar\u{fffe}\u{ffff}",
        "${var.x} %{ if true }x%{ endif } $${already} %%{also}",
        "<b>html</b> & 'single'",
        "emoji 🦀 and ünïcödé",
        "}}{{ {% raw %}",
    ];

    #[test]
    fn yaml_str_round_trips_through_json_and_stays_on_one_line() {
        for s in ADVERSARIAL {
            let q = yaml_str(s);
            assert!(q.starts_with('"') && q.ends_with('"'), "{q}");
            assert!(!q.contains('\n') && !q.contains('\r'), "{q}");
            assert!(
                !q.chars().any(|c| c.is_control()
                    || matches!(
                        c,
                        '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}'
                    )),
                "{q:?}"
            );
            let back: String = serde_json::from_str(&q).unwrap();
            assert_eq!(&back, s);
        }
        assert_eq!(yaml_str("on"), "\"on\"");
        assert_eq!(yaml_str("a\u{2028}b"), "\"a\\u2028b\"");
    }

    /// The character-by-character `hcl_str` the run-copying one replaced: the same text for
    /// every input.
    fn hcl_str_by_chars(s: &str) -> String {
        let mut out = String::from('"');
        let mut chars = s.chars().peekable();
        while let Some(c) = chars.next() {
            if matches!(c, '$' | '%') && chars.peek() == Some(&'{') {
                out.push(c);
            }
            escape_json_like(c, &mut out);
        }
        out.push('"');
        out
    }

    /// 4,000 strings of up to eight `pieces` each, the same for the same `seed` (a linear
    /// congruential generator: the tests compare two escapers, not randomness).
    fn random_strings(pieces: &[&str], mut seed: u64) -> Vec<String> {
        let mut next = move || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            seed
        };
        (0..4000)
            .map(|_| {
                let len = next() % 9;
                (0..len)
                    .map(|_| pieces[(next() >> 33) as usize % pieces.len()])
                    .collect()
            })
            .collect()
    }

    #[test]
    fn hcl_str_copies_runs_as_it_escapes_characters() {
        let pieces = [
            "a", "$", "%", "{", "}", "\"", "\\", "\n", "\t", "\u{7f}", "\u{85}", "é", "🦀",
            "\u{2028}", "\u{feff}", " ", "~",
        ];
        for s in random_strings(&pieces, 7) {
            assert_eq!(hcl_str(&s), hcl_str_by_chars(&s), "{s:?}");
        }
        for s in ADVERSARIAL {
            assert_eq!(hcl_str(s), hcl_str_by_chars(s), "{s:?}");
        }
    }

    /// The character-by-character `yaml_str` the run-copying one replaced.
    fn yaml_str_by_chars(s: &str) -> String {
        let mut out = String::from('"');
        s.chars().for_each(|c| escape_json_like(c, &mut out));
        out.push('"');
        out
    }

    #[test]
    fn yaml_str_copies_runs_as_it_escapes_characters() {
        let pieces = [
            "a", "$", "%", "{", "}", "\"", "\\", "\n", "\r", "\t", "\0", "\u{7f}", "\u{85}",
            "\u{9f}", "\u{a0}", "é", "🦀", "\u{2028}", "\u{2029}", "\u{feff}", "\u{fffe}",
            "\u{ffff}", " ", "~",
        ];
        for s in random_strings(&pieces, 11) {
            assert_eq!(yaml_str(&s), yaml_str_by_chars(&s), "{s:?}");
        }
        for s in ADVERSARIAL {
            assert_eq!(yaml_str(s), yaml_str_by_chars(s), "{s:?}");
        }
    }

    #[test]
    fn hcl_str_escapes_interpolation_and_directives() {
        assert_eq!(
            hcl_str("on ${x} \"q\" <b>\n"),
            "\"on $${x} \\\"q\\\" <b>\\n\""
        );
        assert_eq!(hcl_str("%{ if }"), "\"%%{ if }\"");
        assert_eq!(hcl_str("$${x}"), "\"$$${x}\"");
        for s in ADVERSARIAL {
            let q = hcl_str(s);
            // Undo the HCL template escapes, then the JSON ones: the original comes back.
            let unescaped = q.replace("$${", "${").replace("%%{", "%{");
            let back: String = serde_json::from_str(&unescaped).unwrap();
            assert_eq!(&back, s);
            // No live interpolation remains: every `${` / `%{` is preceded by its escape.
            let bytes = q.as_bytes();
            for i in 1..bytes.len() {
                if bytes[i] == b'{' && (bytes[i - 1] == b'$' || bytes[i - 1] == b'%') {
                    assert!(i >= 2 && bytes[i - 2] == bytes[i - 1], "{q}");
                }
            }
        }
    }

    #[test]
    fn dot_label_and_dot_html_are_ascii_and_escape_everything_graphviz_reads() {
        assert_eq!(dot_label("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(dot_label("<&> é\n"), "\"&lt;&amp;&gt; &#233;\\n\"");
        assert_eq!(
            dot_html("<b>\"x\" & 'y'\r\n\\N ☕"),
            "&lt;b&gt;&quot;x&quot; &amp; &#39;y&#39;<br/>\\\\N &#9749;"
        );
        for s in ADVERSARIAL {
            let label = dot_label(s);
            let html = dot_html(s);
            assert!(label.is_ascii() && html.is_ascii(), "{label:?} {html:?}");
            assert!(!label.chars().any(char::is_control), "{label:?}");
            assert!(!html.chars().any(char::is_control), "{html:?}");
            assert!(
                !html.contains(['<', '>']) || html.contains("<br/>"),
                "{html:?}"
            );
        }
    }

    #[test]
    fn dot_html_never_leaves_an_element_empty() {
        // Graphviz rejects `<b></b>`: an empty name or type, or one of control characters only,
        // must still put some text in the element it fills.
        for s in ["", "\u{1}", "\u{7f}\u{1b}"] {
            assert_eq!(dot_html(s), "&#32;", "{s:?}");
        }
    }

    #[test]
    fn dot_id_quotes_and_escapes() {
        assert_eq!(dot_id("web"), "\"web\"");
        assert_eq!(dot_id("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(dot_id("x\r\ny\rz\n"), "\"x\\ny\\nz\\n\"");
        assert_eq!(dot_id("nul\0del\u{7f}"), "\"nuldel\"");
        for s in ADVERSARIAL {
            let q = dot_id(s);
            assert!(q.len() >= 2 && q.starts_with('"') && q.ends_with('"'));
            let inner = &q[1..q.len() - 1];
            assert!(!inner.chars().any(char::is_control), "{q:?}");
            // Every `"` inside is escaped by an odd run of backslashes.
            let b = inner.as_bytes();
            for i in 0..b.len() {
                if b[i] == b'"' {
                    let run = b[..i].iter().rev().take_while(|&&c| c == b'\\').count();
                    assert_eq!(run % 2, 1, "{q}");
                }
            }
            let trailing = b.iter().rev().take_while(|&&c| c == b'\\').count();
            assert_eq!(trailing % 2, 0, "{q}");
        }
    }

    fn is_dns_label(s: &str) -> bool {
        !s.is_empty()
            && s.len() <= 63
            && s.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && !s.starts_with('-')
            && !s.ends_with('-')
    }

    #[test]
    fn dns_label_is_always_valid_and_stable() {
        assert_eq!(dns_label("MyWebServer"), "my-web-server");
        assert_eq!(dns_label("db_primary.2"), "db-primary-2");
        assert_eq!(dns_label("--web--"), "web");
        let long_a = format!("{}a", "x".repeat(100));
        let long_b = format!("{}b", "x".repeat(100));
        let (a, b) = (dns_label(&long_a), dns_label(&long_b));
        assert!(is_dns_label(&a) && is_dns_label(&b), "{a} {b}");
        assert_ne!(a, b);
        assert_eq!(a.len(), 63);
        assert_eq!(a, dns_label(&long_a), "stable");
        let mut inputs: Vec<String> = ADVERSARIAL.iter().map(|s| s.to_string()).collect();
        inputs.push("日本語".into());
        inputs.push("-".repeat(80));
        inputs.push(format!("{}-{}", "a".repeat(54), "b".repeat(20)));
        for s in &inputs {
            let l = dns_label(s);
            assert!(is_dns_label(&l), "{s:?} -> {l:?}");
        }
        assert_ne!(dns_label("日本語"), dns_label("中文"));
    }

    #[test]
    fn snake_and_kebab_use_heck() {
        assert_eq!(
            render("{{ v | snake }}", "MyApp-Server".into()).unwrap(),
            "my_app_server"
        );
        assert_eq!(
            render("{{ v | kebab }}", "MyApp_Server".into()).unwrap(),
            "my-app-server"
        );
    }

    #[test]
    fn filters_work_in_templates_and_refuse_non_scalars() {
        assert_eq!(render("{{ v | yaml_str }}", "on".into()).unwrap(), "\"on\"");
        assert_eq!(render("{{ v | yaml_str }}", 80.into()).unwrap(), "\"80\"");
        assert_eq!(
            render("{{ v | hcl_str }}", true.into()).unwrap(),
            "\"true\""
        );
        assert_eq!(render("{{ v | dot_id }}", "<b>".into()).unwrap(), "\"<b>\"");
        assert_eq!(
            render("{{ v | dns_label }}", "Web_1".into()).unwrap(),
            "web-1"
        );
        let err = render("{{ v | yaml_str }}", serde_json::json!([1])).unwrap_err();
        assert!(err.contains("yaml_str"), "{err}");
        let err = render("{{ v | dot_id }}", serde_json::Value::Null).unwrap_err();
        assert!(err.contains("dot_id"), "{err}");
    }
}
