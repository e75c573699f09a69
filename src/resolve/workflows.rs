//! Workflows of a topology template, kept as written for the orchestrator, with the plan model
//! of a TOSCA 1.0 XML plan.
//!
//! A workflow's `get_input` is left unbound (the orchestrator passes the workflow's inputs when
//! it runs it), but the input it names must be declared: `$get_input` retrieves "parameters
//! declared within the inputs section" (§10.2.1.1 $get_input), and a workflow declares its own
//! (§13.2 Imperative Workflows, `inputs`). Either the workflow's or the service template's
//! inputs count, as a workflow may read either; any other name can never be given a value.

use super::Locator;
use super::values::ValueReader;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Dialect, Function, Topology, Value, Workflow};
use crate::model::TopologyTemplate;
use crate::yaml::Node as Yaml;

/// Reads the template's workflows into `topology`, as written (their inputs unbound).
pub fn read(
    reader: &ValueReader,
    locator: &Locator,
    template: &TopologyTemplate,
    topology: &mut Topology,
    diags: &mut Diagnostics,
) {
    for named in &template.workflows {
        let definition = reader.value(&named.def, diags);
        let mut declared: Vec<&str> = template.inputs.iter().map(|i| i.name.as_str()).collect();
        declared.extend(
            named
                .def
                .as_map()
                .and_then(|d| d.get("inputs")?.as_map())
                .into_iter()
                .flat_map(|m| m.entries().iter().filter_map(|e| e.key.as_str())),
        );
        let rule = if reader.dialect == Dialect::Tosca2 {
            "§10.2.1.1 $get_input, §13.2 Imperative Workflows"
        } else {
            "Simple Profile get_input, which names a declared input; 1.3 workflow definition `inputs`"
        };
        let scope = Scope {
            workflow: &named.name,
            declared: &declared,
            rule,
        };
        scope.undeclared_inputs(&definition, diags);
        topology.workflows.push(Workflow {
            name: named.name.clone(),
            description: named
                .def
                .as_map()
                .and_then(|d| d.get("description"))
                .and_then(Yaml::scalar_text)
                .map(str::to_string),
            definition,
            plan: plan_model(&named.def),
            location: locator.at(named.span),
        });
    }
}

/// The inputs a workflow's `get_input` may name: its own and the service template's.
struct Scope<'a> {
    workflow: &'a str,
    declared: &'a [&'a str],
    rule: &'static str,
}

impl Scope<'_> {
    /// Reports each `get_input` in a workflow's definition that names an input neither the
    /// workflow nor the service template declares.
    fn undeclared_inputs(&self, value: &Value, diags: &mut Diagnostics) {
        let (workflow, declared) = (self.workflow, self.declared);
        match value {
            Value::Call(call) => {
                if call.function == Function::GetInput
                    && let Some(Value::String(name)) = call.args.first()
                    && !declared.contains(&name.as_str())
                {
                    let mut d = Diagnostic::error(
                        codes::TOSCA_UNKNOWN_NAME,
                        format!(
                            "get_input in workflow `{workflow}` refers to undefined input `{name}`, which neither the workflow nor the service template declares"
                        ),
                    );
                    if let Some(span) = call.span {
                        d = d.at_with(span, "no such input");
                    }
                    diags.push(d.did_you_mean(name, declared, Some(format!("declare `{name}` under the workflow's `inputs` or the service template's `inputs` ({})", self.rule))));
                }
                for arg in &call.args {
                    self.undeclared_inputs(arg, diags);
                }
            }
            Value::List(items) => {
                for item in items {
                    self.undeclared_inputs(item, diags);
                }
            }
            Value::Map(entries) => {
                for item in entries.values() {
                    self.undeclared_inputs(item, diags);
                }
            }
            _ => {}
        }
    }
}

/// The model of a TOSCA 1.0 XML plan, which the XML front end writes as the workflow metadata
/// `xml_plan_language` and `xml_plan_reference`.
fn plan_model(def: &Yaml) -> Option<crate::ir::PlanModel> {
    let meta = def.as_map()?.get("metadata")?.as_map()?;
    Some(crate::ir::PlanModel {
        language: meta.get("xml_plan_language")?.scalar_text()?.to_string(),
        reference: meta
            .get("xml_plan_reference")
            .and_then(Yaml::scalar_text)
            .map(str::to_string),
    })
}
