//! Sizes: the instance size (type or flavor) that fits a machine's host capability, and sizes
//! in whole units as providers take them, checked: a size no provider can hold is an error at
//! its node, never `inf`.

use serde_json::{Value as Json, json};

use crate::diag::{Diagnostic, codes};
use crate::ir::{NodeId, Value};

use super::super::scripts::whole_units;

/// The HCL of the number of bytes of a TOSCA size held in `text` (`20 GB`, `1.5 GiB`: a
/// number, then a unit of Simple Profile 1.3 §3.3.6.4 scalar-unit.size, in any case).
pub fn size_bytes(text: &str) -> String {
    format!(
        "tonumber(regex(\"^\\\\s*([0-9.]+(?:[eE][-+]?[0-9]+)?)\", {text})[0]) * {{ b = 1, kb = 1000, kib = 1024, mb = 1000000, mib = 1048576, gb = 1000000000, gib = 1073741824, tb = 1000000000000, tib = 1099511627776 }}[lower(regex(\"([A-Za-z]+)\\\\s*$\", {text})[0])]"
    )
}
use super::Builder;

impl Builder<'_, '_> {
    /// A capability's size property in whole `unit`s ([`whole_units`]); an error at the node
    /// when no provider can hold it, never `inf`. A size from an input is its variable,
    /// converted ([`size_from_input`]).
    pub(super) fn whole_size(
        &mut self,
        id: NodeId,
        cap: &str,
        prop: &str,
        unit: f64,
        unit_name: &str,
    ) -> Option<String> {
        let value = self.capability_value(id, cap, prop)?;
        let text = self.checked_size(id, value, unit, unit_name, &format!("`{cap}.{prop}`"))?;
        let raw = self.capability_property(id, cap, prop);
        Some(
            raw.and_then(|raw| self.size_from_input(raw, unit))
                .unwrap_or(text),
        )
    }

    /// A size that `raw` takes from an input of a size type, in whole `unit`s, as an HCL
    /// expression of the input's variable: the variable keeps TOSCA's text (`20 GB`, so that
    /// `terraform.tfvars` reads as the template does), which [`size_bytes`] converts, rounded
    /// up as [`whole_units`] rounds. `None` for anything else.
    pub(super) fn size_from_input(&self, raw: &Value, unit: f64) -> Option<String> {
        let Value::Call(call) = raw else {
            return None;
        };
        if call.function != crate::ir::Function::GetInput {
            return None;
        }
        let input = call.args.first()?.as_str()?;
        let is_size = matches!(
            crate::back::terraform::expr::known(self.topology, raw),
            Value::Scalar(s) if s.canonical_unit == "B"
        );
        let variable = self.vars.get(input).filter(|_| is_size)?;
        Some(format!(
            "ceil({} / {})",
            size_bytes(&format!("var.{variable}")),
            unit as u64
        ))
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
                if self.reporting() {
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
                    self.push(d);
                }
                None
            }
        }
    }

    /// The first entry of `bind.sizes` that has at least the CPUs, memory and disk asked for.
    pub(super) fn size(
        &mut self,
        id: NodeId,
        cpus: Option<f64>,
        mem_mib: Option<f64>,
        disk_gib: Option<f64>,
    ) -> Option<Json> {
        let table = self.bind(id).get("sizes")?.as_array()?;
        let fits = |entry: &Json, key: &str, want: Option<f64>| match (want, entry.get(key)) {
            (Some(w), Some(have)) => have.as_f64().is_some_and(|h| h >= w),
            _ => true,
        };
        // A machine kept together with others takes no size the provider cannot keep so.
        let excluded: Vec<&str> = self.policies.placement[id.index()]
            .as_ref()
            .and_then(|p| p["excludes"].as_array())
            .into_iter()
            .flatten()
            .filter_map(Json::as_str)
            .collect();
        let allowed = |e: &Json| {
            let name = e.get("name").and_then(Json::as_str).unwrap_or("");
            !excluded.iter().any(|x| name.starts_with(x))
        };
        let fitting = |e: &&Json| {
            fits(e, "num_cpus", cpus)
                && fits(e, "mem_mib", mem_mib)
                && fits(e, "disk_gib", disk_gib)
        };
        let chosen = table.iter().filter(|e| allowed(e)).find(fitting);
        if let (Some(first), Some(kept)) = (table.iter().find(fitting), chosen)
            && first != kept
        {
            let name = |e: &Json| {
                e.get("name")
                    .and_then(Json::as_str)
                    .unwrap_or("?")
                    .to_string()
            };
            let (first, kept) = (name(first), name(kept));
            self.warn(
                id,
                format!(
                    "machine `{}` is {kept} rather than {first}: it is kept together with others in a placement group, which takes no {first}",
                    self.topology.nodes[id.index()].name
                ),
                "keep the machines apart, or accept the larger size",
            );
        }
        match chosen {
            Some(e) => Some(e.clone()),
            None => {
                let last = table.last().cloned();
                let name = last
                    .as_ref()
                    .and_then(|l| l.get("name"))
                    .and_then(Json::as_str)
                    .unwrap_or("?")
                    .to_string();
                self.warn(
                    id,
                    format!(
                        "no size in the rule's table fits the host capability of node `{}`; the largest, {name}, is used",
                        self.topology.nodes[id.index()].name
                    ),
                    "add a larger entry to `bind.sizes` in a mapping.yaml given with --backend-dir",
                );
                last
            }
        }
    }

    /// The instance size as HCL: the chosen entry's name, or, where the host capability takes
    /// a number from an input (`num_cpus: { get_input: cpus }`), a variable
    /// `<node>_<bind.size_variable>` whose default is that name. A Terraform user changes the
    /// type or flavor itself in terraform.tfvars; toscana does not write the table lookup in
    /// HCL, since the sizes are TOSCA scalar units HCL would have to parse and a provider's
    /// table ages faster than a configuration.
    pub(super) fn instance_type(&mut self, id: NodeId, size: Option<&Json>) -> Option<String> {
        let name = size?.get("name")?.as_str()?;
        let inputs: Vec<(&str, &str)> = ["num_cpus", "mem_size", "disk_size"]
            .into_iter()
            .filter_map(|prop| match self.capability_property(id, "host", prop)? {
                Value::Call(c) if c.function == crate::ir::Function::GetInput => {
                    Some((prop, c.args.first()?.as_str()?))
                }
                _ => None,
            })
            .collect();
        let suffix = self.bind(id).get("size_variable").and_then(Json::as_str);
        let (Some(suffix), false) = (suffix, inputs.is_empty()) else {
            return Some(crate::back::filters::hcl_str(name));
        };
        let base = format!("{}_{suffix}", self.names[id.index()]);
        let mut variable = base.clone();
        let mut n = 2;
        while !self.variable_names.insert(variable.clone()) {
            variable = format!("{base}_{n}");
            n += 1;
        }
        let from: Vec<String> = inputs
            .iter()
            .map(|(prop, input)| format!("{prop} from input {input}"))
            .collect();
        let description = format!(
            "The {} of {}: {name} is the first of the backend's sizes that fits its host capability ({}) as the inputs were at translation",
            suffix.replace('_', " "),
            self.topology.nodes[id.index()].name,
            from.join(", ")
        );
        self.size_variables.push(json!({
            "name": variable,
            "description": crate::back::filters::hcl_str(&description),
            "default": crate::back::filters::hcl_str(name),
        }));
        Some(format!("var.{variable}"))
    }
}
