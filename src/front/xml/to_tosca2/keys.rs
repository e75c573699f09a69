//! Rewriting one definition keyname by keyname: each kind of definition says, per keyname, what
//! it becomes in 2.0; this walks the map, keeps the order, and reports what has no counterpart.

use crate::yaml::Node;

use super::Rw;
use super::build::M;

/// What one keyname of a 1.3 definition becomes.
pub enum To {
    /// The same keyname and value.
    Same,
    /// The same keyname with this value.
    Value(Node),
    /// 2.0's keyname for it, with this value.
    Renamed(&'static str, Node),
    /// A constraint, joined into the definition's `validation` clause.
    Validation(Option<Node>),
    /// An operation written directly under an interface (before 1.3's `operations`), moved
    /// under `operations`.
    Operation(Node),
    /// Left out, already reported (a value 2.0 cannot say).
    Dropped,
    /// Left out: 2.0 has no counterpart (reported as "`<key>` of <what>").
    Lost,
}

/// `def` rewritten by `f`, which says what each keyname becomes. A `def` that is not a map is
/// returned as it is: callers handle the short forms first.
pub fn rewrite<'d>(
    rw: &mut Rw,
    def: &'d Node,
    what: &str,
    mut f: impl FnMut(&mut Rw, &'d str, &'d Node) -> To,
) -> Node {
    let Some(map) = def.as_map() else {
        return def.clone();
    };
    let mut out = M::new(def.span);
    let mut operations = M::new(def.span);
    let mut validation = None;
    for e in map.entries() {
        let key = e.key.scalar_text().unwrap_or_default();
        let at = e.key.span;
        match f(rw, key, &e.value) {
            To::Same => {
                out.put(key, at, e.value.clone());
            }
            To::Value(v) => {
                out.put(key, at, v);
            }
            To::Renamed(new_key, v) => {
                out.put(new_key, at, v);
            }
            To::Validation(clause) => validation = clause,
            To::Operation(op) => {
                operations.put(key, at, op);
            }
            To::Dropped => {}
            To::Lost => rw.lose(at, format!("`{key}` of {what}")),
        }
    }
    if !operations.is_empty() {
        out.put("operations", def.span, operations.done());
    }
    if let Some(clause) = validation {
        out.put("validation", clause.span, clause);
    }
    out.done()
}
