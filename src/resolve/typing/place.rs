//! Where a value lies in what it was read from (`properties.ports[0].target`), written only when
//! a message names it.
//!
//! Every value the typed reader reads is named by its path in case a message needs it, and
//! nearly every value reads clean. Formatting each path up front (`{section}.{name}` for every
//! property assignment, `{path}[{i}]` for every list item, `{path}.{key}` for every map entry
//! and data-type field) was the largest `format!` left in `check` (docs/performance.md), so the
//! reader passes the path as a [`fmt::Display`] (`&dyn Display`: the reader's functions are
//! generic over the tree already, and one more type parameter per function would say less)
//! and a step below it as a [`Place`], the parent and the step, written by `Display` inside the
//! message that names it, the same text the `format!` wrote. The same pattern as
//! [`crate::diag::Subject`], which names what a message is about.

use std::fmt;

/// One step below a path: `parent.name`, `parent[3]`, `parent key `k``. `Copy`; borrows its
/// parent, so a path is a chain of places on the reader's stack, the root a `&str` (`properties`).
#[derive(Clone, Copy)]
pub struct Place<'a> {
    parent: &'a dyn fmt::Display,
    step: Step<'a>,
}

#[derive(Clone, Copy)]
enum Step<'a> {
    /// A map entry's value or a data type's field: `parent.name`.
    Field(&'a str),
    /// A list's item: `parent[i]`.
    Item(usize),
    /// A map entry's key, read against a `key_schema`: `parent key `k``.
    Key(&'a str),
}

impl<'a> Place<'a> {
    /// `parent.name`: an entry of a map, a field of a data type, a property of a section.
    pub fn field(parent: &'a dyn fmt::Display, name: &'a str) -> Self {
        Place {
            parent,
            step: Step::Field(name),
        }
    }

    /// `parent[index]`: an item of a list.
    pub fn item(parent: &'a dyn fmt::Display, index: usize) -> Self {
        Place {
            parent,
            step: Step::Item(index),
        }
    }

    /// `parent key `key``: the key of a map entry.
    pub fn key(parent: &'a dyn fmt::Display, key: &'a str) -> Self {
        Place {
            parent,
            step: Step::Key(key),
        }
    }
}

impl fmt::Display for Place<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.step {
            Step::Field(name) => write!(f, "{}.{name}", self.parent),
            Step::Item(index) => write!(f, "{}[{index}]", self.parent),
            Step::Key(key) => write!(f, "{} key `{key}`", self.parent),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Place;

    #[test]
    fn writes_each_step_below_its_parent() {
        let section = Place::field(&"properties", "ports");
        assert_eq!(section.to_string(), "properties.ports");
        let item = Place::item(&section, 0);
        assert_eq!(item.to_string(), "properties.ports[0]");
        assert_eq!(
            Place::field(&item, "target").to_string(),
            "properties.ports[0].target"
        );
        assert_eq!(
            Place::key(&section, "k").to_string(),
            "properties.ports key `k`"
        );
    }
}
