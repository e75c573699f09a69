//! Workflows of a topology template, kept as written for the orchestrator, with the plan model
//! of a TOSCA 1.0 XML plan.

use super::Locator;
use super::values::ValueReader;
use crate::diag::Diagnostics;
use crate::ir::{Topology, Workflow};
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
        topology.workflows.push(Workflow {
            name: named.name.clone(),
            description: named
                .def
                .as_map()
                .and_then(|d| d.get("description"))
                .and_then(Yaml::scalar_text)
                .map(str::to_string),
            definition: reader.value(&named.def, diags),
            plan: plan_model(&named.def),
            location: locator.at(named.span),
        });
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
