//! What the Simple Profile's `get_artifact`, `get_operation_output` and `get_nodes_of_type`
//! name must exist, checked once node templates are built (SP-FUNC-07, -08, -09; the argument
//! shapes are [`super::call_shapes`]'s):
//!
//! - `get_artifact: [ <entity>, <artifact name>, ... ]`: "The name of the artifact definition
//!   to retrieve" on the entity (B.8.1 get_artifact), so the node template (with what its type
//!   defines) must have an artifact of that name.
//! - `get_operation_output: [ <entity>, <interface>, <operation>, <output> ]` (B.5.1
//!   get_operation_output): the entity has the interface, by its name, and the interface (its
//!   type chain or the template) declares the operation. An output variable is only known once
//!   the operation runs, so its name is not judged.
//! - `get_nodes_of_type: <node type name>` (B.7.1 get_nodes_of_type): the name is a node type.
//!
//! The entity is judged when it is `SELF` or a node template's name; `SOURCE`, `TARGET` and
//! `HOST` name nodes only a relationship or the hosting chain decide, and an unknown template is
//! reported where [`super::functions`] checks entities. Nothing is judged when the model's types
//! are incomplete (an import that could not be read may define the name).

use super::types::{Ancestry, definitions};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::hash::FastMap;
use crate::ir::{Node, NodeId, Topology};
use crate::model::{Model, TypeKind};
use crate::source::Span;

/// One call's arguments, as the checker needs them: each argument's text and span.
pub(super) struct Call<'a> {
    pub function: &'a str,
    /// The arguments (`get_nodes_of_type`'s one name is a list of one).
    pub args: Vec<(Option<&'a str>, Span)>,
    /// The node template the call is written in (`SELF`), if any.
    pub this: Option<NodeId>,
}

/// Reports a name `call` gives that does not exist.
pub(super) fn check(
    model: &Model,
    index: &FastMap<String, NodeId>,
    topology: &Topology,
    call: &Call,
    diags: &mut Diagnostics,
) {
    if model.incomplete_types {
        return;
    }
    let entity = || -> Option<&Node> {
        let id = match call.args.first()?.0? {
            "SELF" => call.this?,
            "SOURCE" | "TARGET" | "HOST" => return None,
            name => *index.get(name)?,
        };
        topology.nodes.get(id.index())
    };
    let arg = |i: usize| {
        call.args
            .get(i)
            .and_then(|(text, span)| Some((text.as_deref()?, *span)))
    };
    match call.function {
        "get_artifact" => {
            if let (Some(node), Some((name, at))) = (entity(), arg(1))
                && !node.artifacts.contains_key(name)
            {
                let known: Vec<&str> = node.artifacts.keys().map(String::as_str).collect();
                diags.push(unknown(
                    format!("get_artifact names artifact `{name}`, which node template `{}` does not have", node.name),
                    at,
                    name,
                    &known,
                    "name an artifact the template or its type defines (B.8.1 get_artifact)",
                ));
            }
        }
        "get_operation_output" => {
            if let (Some(node), Some(interface), Some(operation)) = (entity(), arg(1), arg(2)) {
                operation_output(model, node, interface, operation, diags);
            }
        }
        "get_nodes_of_type" => {
            if let Some((name, at)) = arg(0)
                && Ancestry::new(model)
                    .full_name(model, TypeKind::Node, name, at.file)
                    .is_none()
            {
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_UNKNOWN_TYPE,
                        format!("get_nodes_of_type names `{name}`, which is no node type"),
                    )
                    .at(at)
                    .hint("name a node type the template defines or imports (B.7.1 get_nodes_of_type)"),
                );
            }
        }
        _ => {}
    }
}

/// `get_operation_output`'s interface on `node`, and its operation.
fn operation_output(
    model: &Model,
    node: &Node,
    (interface, interface_at): (&str, Span),
    (operation, operation_at): (&str, Span),
    diags: &mut Diagnostics,
) {
    let Some(found) = node.interfaces.get(interface) else {
        let known: Vec<&str> = node.interfaces.keys().map(String::as_str).collect();
        diags.push(unknown(
            format!("get_operation_output names interface `{interface}`, which node template `{}` does not have", node.name),
            interface_at,
            interface,
            &known,
            "name one of the template's interfaces by its name (B.6.1 get_operation_output)",
        ));
        return;
    };
    let type_defs = definitions(model, TypeKind::Interface, &found.types);
    if found.operations.contains_key(operation) || type_defs.is_empty() {
        return;
    }
    let declares = |def: &&crate::model::TypeDef| {
        let map = def.def.as_map();
        map.is_some_and(|m| m.contains_key(operation))
            || map
                .and_then(|m| m.get("operations")?.as_map())
                .is_some_and(|ops| ops.contains_key(operation))
    };
    if !type_defs.iter().any(declares) {
        let known: Vec<&str> = found.operations.keys().map(String::as_str).collect();
        diags.push(unknown(
            format!("get_operation_output names operation `{operation}`, which interface `{interface}` of node template `{}` does not declare", node.name),
            operation_at,
            operation,
            &known,
            "name an operation of the interface (B.6.1 get_operation_output)",
        ));
    }
}

fn unknown(message: String, at: Span, name: &str, known: &[&str], otherwise: &str) -> Diagnostic {
    Diagnostic::error(codes::TOSCA_UNKNOWN_NAME, message)
        .at(at)
        .did_you_mean(name, known, Some(otherwise.to_string()))
}
