//! Which values of the Kubernetes objects came from which input, so that `toscana tf
//! --provider kubernetes` writes `var.<name>` where `toscana k8s` writes the input's value
//! (issue 27, scopes 1 and 2).
//!
//! The objects are built by the Kubernetes model from a topology whose inputs are values, as
//! `toscana k8s` reads it. To know where each value went, the input is read a second time with
//! every string input bound to a *marker*: a text no template can hold (it is made of Unicode
//! private-use characters around the input's number, see [`marker`]), and the model builds the
//! same objects again. A string of the second build that holds markers and, with each marker
//! replaced by its input's value, *equals* the first build's string at the same place came from
//! those inputs there: it is written as a string template with `${var.<name>}` in their
//! place. Anything else is written as the first build has it:
//!
//! - a value the model *chose* from the input (an image for an `os`, a port, a replica count, a
//!   name cut to a DNS label) differs after the replacement, so it stays the value it had at
//!   translation, as for the other providers (`terraform::unused-variable` says so);
//! - the comparison makes a marker that a template happened to contain harmless: its text
//!   would have to reappear as the input's value at the same place.
//!
//! Numbers, booleans and sizes are not marked (a marker is no number, and the model computes
//! with them): [`super::moved`] traces them by moving their values in a third build. Lists and
//! maps stay values. An input with no value at all is marked in both builds, so it can only
//! ever be written as its variable.

use std::collections::HashMap;

use crate::back::filters::hcl_str;
use crate::ir::{Input, Topology, Value};

/// The leaf that stands for the namespace (`var.kube_namespace`) in an object's metadata.
pub const NAMESPACE: &str = "\u{E000}namespace\u{E001}";

/// The marker of input number `index`.
fn marker(index: usize) -> String {
    format!("\u{E000}input{index}\u{E001}")
}

/// The markers of a topology's string inputs.
pub struct Markers {
    /// Marker → the variable's expression and the input's value (`None`: unbound).
    entries: Vec<Entry>,
}

struct Entry {
    marker: String,
    variable: String,
    value: Option<String>,
    sensitive: bool,
}

impl Markers {
    /// No markers: every value is written as it is.
    pub fn none() -> Markers {
        Markers {
            entries: Vec::new(),
        }
    }

    /// A marker for every input whose value (given, else default) is a string, or that has no
    /// value and is typed `string`; `vars` names each input's variable.
    pub fn new(topology: &Topology, vars: &HashMap<String, String>) -> Markers {
        let mut entries = Vec::new();
        for (index, input) in topology.inputs.iter().enumerate() {
            let Some(variable) = vars.get(&input.name) else {
                continue;
            };
            let value = match input.value.as_ref().or(input.default.as_ref()) {
                Some(Value::String(s)) => Some(s.clone()),
                Some(_) => continue,
                None if is_string_typed(input) => None,
                None => continue,
            };
            entries.push(Entry {
                marker: marker(index),
                variable: format!("var.{variable}"),
                value,
                sensitive: input.sensitive,
            });
        }
        Markers { entries }
    }

    /// `NAME=VALUE` pairs for a read ([`crate::pipeline::ReadOptions::set_values`]): the
    /// markers of the inputs without a value (`all` false), or of every marked input.
    pub fn bindings(&self, topology: &Topology, all: bool) -> Vec<(String, Value)> {
        self.entries
            .iter()
            .filter(|e| all || e.value.is_none())
            .filter_map(|e| {
                let input = &topology.inputs[input_index(&e.marker)?];
                Some((input.name.clone(), Value::String(e.marker.clone())))
            })
            .collect()
    }

    /// The text `marked` has once each marker is its input's value (a marker of an input
    /// without one stays, as in the first build).
    pub fn with_values(&self, marked: &str) -> String {
        let mut out = marked.to_string();
        for e in &self.entries {
            if let Some(value) = &e.value
                && out.contains(&e.marker)
            {
                out = out.replace(&e.marker, value);
            }
        }
        out
    }

    /// The HCL expression of a string of the first build (`plain`) whose second build is
    /// `marked` (when the two builds agree on where it is): a string template with each
    /// input's variable where it came from the input, else the literal string.
    pub fn string(&self, plain: &str, marked: Option<&str>) -> String {
        if plain == NAMESPACE {
            return "var.kube_namespace".to_string();
        }
        match marked {
            Some(m) if m.contains('\u{E000}') && self.with_values(m) == plain => {
                self.template(m, |_| true)
            }
            // The marker of an input without a value is in both builds.
            _ if plain.contains('\u{E000}') => self.template(plain, |e| e.value.is_none()),
            _ => hcl_str(plain),
        }
    }

    /// The variables of the sensitive inputs whose value is in `text`: it could not be traced
    /// to its input, so it would be written into the configuration.
    pub fn sensitive_values_in(&self, text: &str) -> Vec<String> {
        self.entries
            .iter()
            .filter_map(|e| {
                let value = e.value.as_deref().filter(|v| v.len() >= 4)?;
                (e.sensitive && text.contains(value)).then(|| e.variable.clone())
            })
            .collect()
    }

    /// `marked` as an HCL string, each marker of an entry `which` takes its variable: `var.x`
    /// alone, or `"a${var.x}b"`.
    fn template(&self, marked: &str, which: impl Fn(&Entry) -> bool) -> String {
        let entries = || self.entries.iter().filter(|e| which(e));
        if let Some(e) = entries().find(|e| e.marker == marked) {
            return e.variable.clone();
        }
        let mut parts: Vec<(usize, &Entry)> = Vec::new();
        for e in entries() {
            parts.extend(marked.match_indices(&e.marker).map(|(at, _)| (at, e)));
        }
        parts.sort_by_key(|(at, _)| *at);
        let mut out = String::from("\"");
        let mut rest = 0;
        for (at, e) in parts {
            let literal = hcl_str(&marked[rest..at]);
            out.push_str(&literal[1..literal.len() - 1]);
            out.push_str(&format!("${{{}}}", e.variable));
            rest = at + e.marker.len();
        }
        let literal = hcl_str(&marked[rest..]);
        out.push_str(&literal[1..literal.len() - 1]);
        out.push('"');
        out
    }
}

/// The input number a marker stands for.
fn input_index(marker: &str) -> Option<usize> {
    marker
        .strip_prefix("\u{E000}input")?
        .strip_suffix('\u{E001}')?
        .parse()
        .ok()
}

fn is_string_typed(input: &Input) -> bool {
    matches!(input.type_name.as_deref(), Some("string") | None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn markers() -> Markers {
        Markers {
            entries: vec![
                Entry {
                    marker: marker(0),
                    variable: "var.db_password".into(),
                    value: Some("s3cret".into()),
                    sensitive: true,
                },
                Entry {
                    marker: marker(1),
                    variable: "var.site".into(),
                    value: Some("shop".into()),
                    sensitive: false,
                },
            ],
        }
    }

    #[test]
    fn a_value_that_came_from_an_input_is_its_variable() {
        let m = markers();
        assert_eq!(m.string("s3cret", Some(&marker(0))), "var.db_password");
        let marked = format!("http://{}/${{x}}", marker(1));
        assert_eq!(
            m.string("http://shop/${x}", Some(&marked)),
            "\"http://${var.site}/$${x}\""
        );
    }

    #[test]
    fn a_value_the_model_chose_from_an_input_stays_the_value() {
        let m = markers();
        // The second build cut the marker (a DNS label): the replacement does not give the
        // first build's text back.
        assert_eq!(m.string("shop-web", Some("input1-web")), "\"shop-web\"");
        assert_eq!(m.string("shop", None), "\"shop\"");
    }

    #[test]
    fn a_template_that_holds_a_marker_is_never_taken_for_an_input() {
        let m = markers();
        // The template's own text is the marker: both builds have it, and replacing it by the
        // input's value does not give the first build's text, so it stays as written.
        let written = marker(1);
        let expr = m.string(&written, Some(&written));
        assert!(!expr.contains("var.site"), "{expr}");
        // A template text equal to the input's value is no reference either.
        assert_eq!(m.string("shop", Some("shop")), "\"shop\"");
    }

    #[test]
    fn markers_read_back_as_their_input() {
        assert_eq!(input_index(&marker(12)), Some(12));
        assert_eq!(input_index("input12"), None);
    }
}
