//! One read-only view of the two data trees the resolver reads while the typed model is being
//! built: the model's own [`Value`] and the `yaml::Node` the model still keeps for the
//! definitions it has not typed yet (see `docs/architecture.md`, "The typed model").
//!
//! The value layer ([`crate::model::call`], TOSCA 2.0 §10.1 Function Syntax and the Simple
//! Profile's function names; `resolve::call_shapes`; `resolve::values::ValueReader`) is written
//! once over [`Tree`], so a typed entity's values and a YAML definition's are read by the same
//! code, and a resolver file that reads values through it names no YAML. Why a trait rather than
//! converting YAML to [`Value`] at each remaining caller: a conversion would copy every subtree
//! read (property values are read once for the IR and again for typing and constraints), which
//! costs the memory and instructions the typed model is meant to save; the trait costs nothing
//! at run time (each use is monomorphised). It asks of a tree only what the value layer needs
//! (a span, whether a scalar was plain, a scalar's text and meaning, items, entries) and goes
//! when the last YAML caller does: then its users take a [`Value`] and the `Node` impl goes.

use crate::model::value::{self, Data, Value, ValueKind};
use crate::source::Span;
use crate::yaml::{self, Core, Kind, Node};

/// What a tree node is: a scalar (its text and what it means), a list, or a map's entries in
/// source order.
pub enum Shape<'t, T: Tree> {
    Scalar(&'t str, Data),
    List(&'t [T]),
    Map(&'t [T::Entry]),
}

/// A data tree the value layer reads: [`Value`] or, until it leaves the resolver, `yaml::Node`.
pub trait Tree: Sized {
    /// One `key: value` pair of a map.
    type Entry: Pair<Self>;

    fn span(&self) -> Span;

    /// Whether a scalar was written plain (unquoted, not a block); true for a list or a map.
    fn plain(&self) -> bool;

    fn shape(&self) -> Shape<'_, Self>;

    /// What kind of value this is, for messages ("expected a map, found a list").
    fn describe(&self) -> &'static str;

    /// The text of a string (however it was written); a plain scalar that means a number, a
    /// boolean or null is no string.
    fn as_str(&self) -> Option<&str> {
        match self.shape() {
            Shape::Scalar(text, Data::String) => Some(text),
            _ => None,
        }
    }

    /// The text of any scalar, whatever it means.
    fn scalar_text(&self) -> Option<&str> {
        match self.shape() {
            Shape::Scalar(text, _) => Some(text),
            _ => None,
        }
    }

    fn items(&self) -> Option<&[Self]> {
        match self.shape() {
            Shape::List(items) => Some(items),
            _ => None,
        }
    }

    fn entries(&self) -> Option<&[Self::Entry]> {
        match self.shape() {
            Shape::Map(entries) => Some(entries),
            _ => None,
        }
    }

    fn is_null(&self) -> bool {
        matches!(self.shape(), Shape::Scalar(_, Data::Null))
    }
}

/// A map entry of a [`Tree`].
pub trait Pair<T> {
    fn key(&self) -> &T;
    fn value(&self) -> &T;
}

impl Tree for Value {
    type Entry = value::Entry;

    fn span(&self) -> Span {
        self.span
    }

    fn plain(&self) -> bool {
        self.plain
    }

    fn shape(&self) -> Shape<'_, Self> {
        match &self.kind {
            ValueKind::Scalar(s) => Shape::Scalar(&s.text, s.data),
            ValueKind::List(items) => Shape::List(items),
            ValueKind::Map(map) => Shape::Map(map.entries()),
        }
    }

    fn describe(&self) -> &'static str {
        Value::describe(self)
    }
}

impl Pair<Value> for value::Entry {
    fn key(&self) -> &Value {
        &self.key
    }
    fn value(&self) -> &Value {
        &self.value
    }
}

impl Tree for Node {
    type Entry = yaml::Entry;

    fn span(&self) -> Span {
        self.span
    }

    fn plain(&self) -> bool {
        self.style.is_plain()
    }

    fn shape(&self) -> Shape<'_, Self> {
        match &self.kind {
            Kind::Scalar(s) => Shape::Scalar(&s.text, data(s.core)),
            Kind::Seq(items) => Shape::List(items),
            Kind::Map(map) => Shape::Map(map.entries()),
        }
    }

    fn describe(&self) -> &'static str {
        Node::describe(self)
    }
}

impl Pair<Node> for yaml::Entry {
    fn key(&self) -> &Node {
        &self.key
    }
    fn value(&self) -> &Node {
        &self.value
    }
}

/// What the YAML core schema's reading of a scalar means to the model.
pub fn data(core: Core) -> Data {
    match core {
        Core::Null => Data::Null,
        Core::Bool(b) => Data::Bool(b),
        Core::Int(i) => Data::Integer(i),
        Core::Float(f) => Data::Float(f),
        Core::Str => Data::String,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads any tree back as text, through the trait alone.
    fn show<T: Tree>(tree: &T) -> String {
        match tree.shape() {
            Shape::Scalar(text, data) => format!("{text}:{data:?}:{}", tree.plain()),
            Shape::List(items) => {
                format!("[{}]", items.iter().map(show).collect::<Vec<_>>().join(","))
            }
            Shape::Map(entries) => format!(
                "{{{}}}",
                entries
                    .iter()
                    .map(|e| format!("{}={}", show(e.key()), show(e.value())))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
        }
    }

    #[test]
    fn a_yaml_tree_and_the_value_made_from_it_read_alike() {
        let mut sources = crate::source::SourceMap::new();
        let text = "a: [1, '2', ~, yes, 1.5]\n'b': {c: $x}\n? [k]\n: v\n";
        let file = sources.add("t.yaml", crate::source::Origin::Stdin, text);
        let mut diags = crate::diag::Diagnostics::new();
        let limits = crate::limits::Limits::default();
        let node = crate::yaml::load(&sources, file, &limits, &mut diags).expect("loads");
        let value = crate::front::value::into_value(node.clone());
        assert_eq!(show(&node), show(&value));
        assert_eq!(
            show(&node),
            "{a:String:true=[1:Integer(1):true,2:String:false,~:Null:true,yes:String:true,1.5:Float(1.5):true],b:String:false={c:String:true=$x:String:true},[k:String:true]=v:String:true}"
        );
        let b = &value.entries().unwrap()[1];
        assert_eq!(Tree::as_str(b.key()), Some("b"));
        assert_eq!(Tree::span(b.value()), b.value.span);
    }
}
