//! Graph helpers of the Terraform backend: the resource addresses a context refers to, and the
//! strongly connected components that show which dependencies would close a cycle.

use serde_json::Value as Json;

/// Every `type.name` that may be a resource address in the texts of `value` (its strings and
/// map keys, in document order), as [`addresses_in`] finds them in each text.
///
/// Read from the values themselves: writing each node's context out as JSON text to search it
/// cost more than the search (0.1 G of `tosca2tf`'s 5.8 G instructions at 10,000 nodes), and a
/// JSON escape (`\n`) glued to the next word hid an address that follows a line break.
pub fn addresses_in_value(value: &Json) -> Vec<&str> {
    let mut out = Vec::new();
    collect_addresses(value, &mut out);
    out
}

/// [`addresses_in_value`] into `out`. Recursive: a context is as deep as the backend's Rust
/// built it (a few levels), never as deep as a template's data.
fn collect_addresses<'v>(value: &'v Json, out: &mut Vec<&'v str>) {
    match value {
        Json::String(text) => addresses_in(text, out),
        Json::Array(items) => items.iter().for_each(|item| collect_addresses(item, out)),
        Json::Object(map) => {
            for (key, item) in map {
                addresses_in(key, out);
                collect_addresses(item, out);
            }
        }
        _ => {}
    }
}

/// Adds to `out` every `type.name` in `text` that may be a resource address: two words (ASCII
/// letters, digits and `_`) joined by a `.` and followed by another, where the first word is
/// not the tail of a longer dotted name (no `.` before it).
///
/// Found from the dots, which are few in a context's strings (`memchr`), each looking back for
/// its first word and ahead for its second, rather than by taking every byte for a possible
/// start of a word and a fresh list for each string: the search was 0.12 G of `tosca2tf`'s
/// 5.5 G instructions at 10,000 nodes.
fn addresses_in<'t>(text: &'t str, out: &mut Vec<&'t str>) {
    let bytes = text.as_bytes();
    let word = |c: &&u8| c.is_ascii_alphanumeric() || **c == b'_';
    for dot in memchr::memchr_iter(b'.', bytes) {
        let start = dot - bytes[..dot].iter().rev().take_while(word).count();
        if start == dot || (start > 0 && bytes[start - 1] == b'.') {
            continue;
        }
        let end = dot + 1 + bytes[dot + 1..].iter().take_while(word).count();
        if end > dot + 1 && bytes.get(end) == Some(&b'.') {
            out.push(&text[start..end]);
        }
    }
}

/// The strongly connected component of each vertex (Tarjan's algorithm, without recursion).
pub fn strongly_connected(graph: &[Vec<usize>]) -> Vec<usize> {
    let n = graph.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut component = vec![usize::MAX; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut next = 0;
    let mut components = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        while let Some(&mut (v, ref mut edge)) = work.last_mut() {
            if *edge == 0 && index[v] == usize::MAX {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = graph[v].get(*edge) {
                *edge += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component[w] = components;
                    if w == v {
                        break;
                    }
                }
                components += 1;
            }
        }
    }
    component
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_read_from_every_string_and_key_in_document_order() {
        let context = serde_json::json!({
            "address": "aws_instance.web",
            "ports": [{ "subnet": "${aws_subnet.a.id}" }],
            "note": "first line\naws_eip.b.public_ip",
            "count": 2,
        });
        let found = addresses_in_value(&context);
        assert_eq!(found, ["aws_subnet.a", "aws_eip.b"]);
    }

    #[test]
    fn an_address_is_two_words_between_dots_that_no_dotted_name_ends_with() {
        fn found(text: &str) -> Vec<&str> {
            let mut out = Vec::new();
            addresses_in(text, &mut out);
            out
        }
        assert_eq!(found("aws_instance.web.id"), ["aws_instance.web"]);
        assert_eq!(found("${a.b.c.d} x.y.z"), ["a.b", "x.y"]);
        // A trailing pair, an empty word, a name inside a dotted name, a word glued to a
        // non-word character: no address.
        assert_eq!(found("a.b"), Vec::<&str>::new());
        assert_eq!(found("a..b. .a.b. a.b"), Vec::<&str>::new());
        assert_eq!(found("-x.y.z é.f.g é f.g.h"), ["x.y", "f.g"]);
        assert_eq!(found(".start.of."), Vec::<&str>::new());
    }
}
