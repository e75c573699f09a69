//! The solver's variables: one for each element's presence, one for the manual part of each
//! element's conditions (what `has_incoming_relation`, `has_artifact` and implied elements
//! read), and one for each named logic expression.

use super::formula::Formula;
use super::model::Id;

#[derive(Debug, Clone, Copy)]
pub struct Vars {
    pub elements: u32,
    pub expressions: u32,
}

impl Vars {
    pub fn new(elements: usize, expressions: usize) -> Vars {
        Vars {
            elements: elements as u32,
            expressions: expressions as u32,
        }
    }

    pub fn present(&self, id: Id) -> Formula {
        Formula::var(id as u32)
    }

    pub fn manual(&self, id: Id) -> Formula {
        Formula::var(self.elements + id as u32)
    }

    pub fn expression(&self, k: usize) -> Formula {
        Formula::var(2 * self.elements + k as u32)
    }

    pub fn count(&self) -> u32 {
        2 * self.elements + self.expressions
    }

    /// The element a variable is the presence of, if it is one.
    pub fn element_of(&self, var: u32) -> Option<Id> {
        (var < self.elements).then_some(var as usize)
    }
}
