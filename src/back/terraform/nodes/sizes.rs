//! Sizes in whole units as providers take them, checked: a size no provider can hold is an
//! error at its node, never `inf`.

use crate::diag::{Diagnostic, codes};
use crate::ir::{NodeId, Value};

use super::super::scripts::whole_units;
use super::Builder;

impl Builder<'_, '_> {
    /// A capability's size property in whole `unit`s ([`whole_units`]); an error at the node
    /// when no provider can hold it, never `inf`.
    pub(super) fn whole_size(
        &mut self,
        id: NodeId,
        cap: &str,
        prop: &str,
        unit: f64,
        unit_name: &str,
    ) -> Option<String> {
        let value = self.capability_value(id, cap, prop)?;
        self.checked_size(id, value, unit, unit_name, &format!("`{cap}.{prop}`"))
    }

    /// [`whole_units`] of `value`, reporting a size out of range as an error at node `id`.
    pub(super) fn checked_size(
        &mut self,
        id: NodeId,
        value: &Value,
        unit: f64,
        unit_name: &str,
        what: &str,
    ) -> Option<String> {
        match whole_units(value, unit, unit_name) {
            Ok(text) => text,
            Err(reason) => {
                let mut d = Diagnostic::error(
                    codes::TF_OUT_OF_RANGE,
                    format!(
                        "{what} of node `{}` cannot be written: {reason}",
                        self.topology.nodes[id.index()].name
                    ),
                )
                .hint("give a size a provider can hold; Terraform would read `inf` as a reference, not a number");
                if let Some(span) = self.span(id) {
                    d = d.at(span);
                }
                self.diags.push(d);
                None
            }
        }
    }
}
