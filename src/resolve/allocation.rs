//! Capability allocation (TOSCA 2.0 §8.5.5 Capability Allocation): a requirement assignment's
//! `allocation` takes amounts from properties of the target capability, and a capability is a
//! valid target only while the allocations of every relationship to it, this one included,
//! stay within the property's value.
//!
//! An allocation must name a property the capability defines (§8.5.5 Capability Allocation), of an
//! integer, float or scalar type (§8.5.5 Capability Allocation); amounts are read as that type, so
//! `128 MB` is compared in the scalar's canonical unit. Capacity is counted per node template: a
//! template with `count: N` offers N times its capability's value, and a source with `count: M`
//! allocates M times its amounts. Which representation gets which relationship is decided when the
//! topology is expanded ([`super::multiplicity`]), where each representation's own capacity holds.

use std::collections::HashMap;

use super::types::definitions;
use super::typing::{Typing, definitions_of};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Capability, NodeId, Value};
use crate::model::TypeKind;
use crate::model::tree::{Pair, Tree};

/// One amount of an allocation, read as its property's type.
#[derive(Clone)]
pub struct Amount {
    pub property: String,
    pub value: Value,
    /// In the property's canonical unit.
    pub number: f64,
}

/// A number to count capacity in: integers, floats and scalars (in their canonical unit).
pub fn number(value: &Value) -> Option<f64> {
    match value {
        Value::Integer(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        Value::Scalar(s) => Some(s.canonical),
        _ => None,
    }
}

/// The allocation block read against a capability's definitions. An amount the capability
/// cannot give (no such property, not a number type, a negative amount) is an error when
/// `report` (the capability is the one the requirement must target), and otherwise the reason
/// the capability does not fit.
pub fn read<A: Tree>(
    typing: &mut Typing,
    allocation: &A,
    capability: &Capability,
    name: &str,
    report: Option<&mut Diagnostics>,
) -> Result<Vec<Amount>, String> {
    let Some(entries) = allocation.entries() else {
        let why = format!(
            "`allocation` must be a map of capability property names to amounts, found {}",
            allocation.describe()
        );
        if let Some(diags) = report {
            diags.push(Diagnostic::error(codes::TOSCA_SHAPE, why.clone()).at(allocation.span()));
        }
        return Err(why);
    };
    let defs = definitions(typing.model, TypeKind::Capability, &capability.types);
    let complete = super::nodes::defs_complete(typing.model, &defs);
    let defined = definitions_of(&defs, "properties");
    let mut out = Vec::new();
    let mut problems: Vec<(crate::source::Span, String, String)> = Vec::new();
    for entry in entries {
        let (key, written) = (entry.key(), entry.value());
        let Some(property) = key.scalar_text() else {
            continue;
        };
        let Some(definition) = defined.get(property) else {
            if complete {
                let known: Vec<&str> = defined.keys().copied().collect();
                problems.push((
                    key.span(),
                    format!("capability `{name}` has no property `{property}` to allocate from"),
                    match crate::diag::closest(property, &known) {
                        Some(near) => format!("did you mean `{near}`?"),
                        None if known.is_empty() => format!("capability `{name}` defines no properties; an allocation names a property of the target capability (§8.5.5 Capability Allocation)"),
                        None => format!("its properties are {} (§8.5.5 Capability Allocation)", known.join(", ")),
                    },
                ));
            }
            continue;
        };
        let type_name = definition.type_name().unwrap_or_default();
        let value = typing.amount(written, type_name);
        let number = value.as_ref().filter(|v| !v.has_call()).map(number);
        match (value, number) {
            (Some(_), None) => {}
            (Some(value), Some(Some(n))) if n >= 0.0 => out.push(Amount {
                property: property.to_string(),
                value,
                number: n,
            }),
            (Some(_), Some(Some(_))) => problems.push((
                written.span(),
                format!("the allocation of `{property}` is negative"),
                "allocate a non-negative amount".to_string(),
            )),
            (None, _) | (Some(_), Some(None)) => problems.push((
                written.span(),
                format!(
                    "`{property}` of capability `{name}` is a {type_name}; only integer, float and scalar properties can be allocated from, by amounts of their type"
                ),
                "allocate from an integer, float or scalar property (§8.5.5 Capability Allocation)".to_string(),
            )),
        }
    }
    if let Some((_, why, _)) = problems.first() {
        let why = why.clone();
        if let Some(diags) = report {
            for (span, message, hint) in problems {
                diags.push(
                    Diagnostic::error(codes::TOSCA_TYPE_MISMATCH, message)
                        .at(span)
                        .hint(hint),
                );
            }
        }
        return Err(why);
    }
    Ok(out)
}

/// What has been allocated from each capability property of each node template so far.
#[derive(Default)]
pub struct Ledger {
    allocated: HashMap<(NodeId, String, String), f64>,
}

impl Ledger {
    /// What is left of `property` of capability `cap` of node `id` (all its representations
    /// together: `count` × the value); `None` when the value is not a known number.
    pub fn left(
        &self,
        capability: &Capability,
        id: NodeId,
        cap: &str,
        property: &str,
        count: Option<u64>,
    ) -> Option<f64> {
        let total = number(capability.properties.get(property)?)? * count? as f64;
        let used = self
            .allocated
            .get(&(id, cap.to_string(), property.to_string()))
            .copied()
            .unwrap_or(0.0);
        Some(total - used)
    }

    /// How many times `amounts` fit into what is left of the capability: `None` when
    /// unlimited (nothing allocated, or a capacity not known before deployment).
    pub fn fits(
        &self,
        capability: &Capability,
        id: NodeId,
        cap: &str,
        amounts: &[Amount],
        count: Option<u64>,
    ) -> Option<u64> {
        amounts
            .iter()
            .filter(|a| a.number > 0.0)
            .filter_map(|a| {
                let left = self.left(capability, id, cap, &a.property, count)?;
                Some((left / a.number).floor().max(0.0) as u64)
            })
            .min()
    }

    /// Records `times` allocations of `amounts`.
    pub fn take(&mut self, id: NodeId, cap: &str, amounts: &[Amount], times: u64) {
        for a in amounts {
            *self
                .allocated
                .entry((id, cap.to_string(), a.property.clone()))
                .or_default() += a.number * times as f64;
        }
    }
}
