//! Deployment technologies (§ Technology Template, § Technology Rules): the node type a chosen
//! technology assigns, whether an artifact is managed by a technology, and the enrichment that
//! gives every managed node template without technologies the technologies the rules of
//! `variability.qualities` allow, each conditional on the hosting stack and artifact the rule
//! asks for.

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::yaml::Node;

use super::build::{conditions, number};
use super::formula::Formula;
use super::model::{Data, Element, Id, Implied, Kind, Model, TechnologyData};
use super::options::Options;
use super::vars::Vars;

/// `${type}~${component}[#${artifact}]::${technology}[@${hosting}]`: the node type a technology
/// assigns (the reference resolver's naming of implementations), hosting stacks joined by `->`.
pub fn implementation_name(
    type_name: &str,
    component: &str,
    technology: &str,
    artifact: Option<&str>,
    hosting: &[String],
) -> String {
    let mut out = format!("{type_name}~{component}");
    if let Some(a) = artifact {
        out.push('#');
        out.push_str(a);
    }
    out.push_str("::");
    out.push_str(technology);
    if !hosting.is_empty() {
        out.push('@');
        out.push_str(&hosting.join("->"));
    }
    out
}

/// The artifact type an implementation name manages (`#artifact` in it), if any.
fn managed_artifact(assign: &str) -> Option<&str> {
    let (_, rest) = assign.split_once('#')?;
    rest.split("::").next()
}

/// Type inheritance within the template's own type definitions.
pub struct Inheritance<'t> {
    root: Option<&'t Node>,
}

impl<'t> Inheritance<'t> {
    pub fn new(root: &'t Node) -> Inheritance<'t> {
        Inheritance { root: Some(root) }
    }

    fn definition(&self, section: &str, name: &str) -> Option<&'t Node> {
        self.root?.as_map()?.get(section)?.as_map()?.get(name)
    }

    /// `name` and its ancestors, nearest first (cycles stop the walk).
    pub fn lineage(&self, section: &str, name: &str) -> Vec<String> {
        let mut out = vec![name.to_string()];
        let mut current = name.to_string();
        while let Some(parent) = self
            .definition(section, &current)
            .and_then(|d| d.as_map()?.get("derived_from")?.scalar_text())
        {
            if out.iter().any(|o| o == parent) || out.len() > 256 {
                break;
            }
            out.push(parent.to_string());
            current = parent.to_string();
        }
        out
    }

    /// How many derivations separate `name` from `ancestor` (`None` if it is not one).
    pub fn distance(&self, section: &str, name: &str, ancestor: &str) -> Option<usize> {
        self.lineage(section, name)
            .iter()
            .position(|n| n == ancestor)
    }

    pub fn is_a(&self, section: &str, name: &str, ancestor: &str) -> bool {
        self.distance(section, name, ancestor).is_some()
    }

    /// A node type is abstract when its metadata says `vintner_abstract: 'true'`.
    pub fn is_abstract(&self, name: &str) -> bool {
        self.lineage("node_types", name).iter().take(1).any(|n| {
            self.definition("node_types", n)
                .and_then(|d| {
                    d.as_map()?
                        .get("metadata")?
                        .as_map()?
                        .get("vintner_abstract")
                })
                .and_then(Node::scalar_text)
                == Some("true")
        })
    }
}

/// `is_managed`: a present technology of the artifact's node manages the artifact's type.
pub fn managed(m: &Model<'_>, v: &Vars, artifact: Id) -> Formula {
    let e = m.get(artifact);
    let Some(node) = e.container else {
        return Formula::Const(false);
    };
    let artifact_type = m.type_name(artifact).unwrap_or_default().to_string();
    let inheritance = m.inheritance();
    Formula::or(
        m.node_data(node)
            .technologies
            .iter()
            .filter(|t| {
                let Data::Technology(data) = &m.get(**t).data else {
                    return false;
                };
                managed_artifact(&data.assign).is_some_and(|a| match &inheritance {
                    Some(i) => i.is_a("artifact_types", &artifact_type, a),
                    None => a == artifact_type,
                })
            })
            .map(|t| v.present(*t))
            .collect(),
    )
}

/// Whether a node template needs a technology: as written, else when technologies are
/// assigned, else unless its type is abstract.
pub fn is_managed(m: &Model<'_>, node: Id) -> bool {
    let e = m.get(node);
    if let Some(v) = e.flag("managed") {
        return v;
    }
    if !m.node_data(node).technologies.is_empty() {
        return true;
    }
    match (m.type_name(node), m.inheritance()) {
        (Some(t), Some(i)) => !i.is_abstract(t),
        _ => true,
    }
}

/// One rule of `variability.qualities`.
struct Rule<'t> {
    technology: String,
    component: String,
    hosting: Vec<String>,
    artifact: Option<String>,
    operations: Vec<String>,
    weight: f64,
    assign: Option<String>,
    conditions: Vec<&'t Node>,
}

fn rules<'t>(qualities: Option<&'t Node>, diags: &mut Diagnostics) -> Vec<Rule<'t>> {
    let Some(q) = qualities else {
        return Vec::new();
    };
    let Some(list) = q.as_seq() else {
        diags.push(
            Diagnostic::warning(
                codes::VAR_IGNORED,
                "`variability.qualities` given as a file is not read: the rules are ignored",
            )
            .at(q.span)
            .hint("write the technology rules inline, as a list"),
        );
        return Vec::new();
    };
    let strings = |n: Option<&Node>| -> Vec<String> {
        match n {
            Some(n) => match n.as_seq() {
                Some(l) => l
                    .iter()
                    .filter_map(|i| i.scalar_text().map(str::to_string))
                    .collect(),
                None => n.scalar_text().map(str::to_string).into_iter().collect(),
            },
            None => Vec::new(),
        }
    };
    let mut out = Vec::new();
    for item in list {
        let Some(map) = item.as_map() else { continue };
        let component = map.get("component").and_then(Node::scalar_text);
        let technologies = strings(map.get("technology"));
        let Some(component) = component.filter(|_| !technologies.is_empty()) else {
            diags.push(
                Diagnostic::error(
                    codes::VAR_STRUCTURE,
                    "a technology rule names its `technology` and its `component`",
                )
                .at(item.span),
            );
            continue;
        };
        for technology in technologies {
            out.push(Rule {
                technology: technology.to_lowercase(),
                component: component.to_string(),
                hosting: strings(map.get("hosting")),
                artifact: map
                    .get("artifact")
                    .and_then(Node::scalar_text)
                    .map(str::to_string),
                operations: strings(map.get("operations")),
                weight: map.get("weight").and_then(number).unwrap_or(1.0),
                assign: map
                    .get("assign")
                    .and_then(Node::scalar_text)
                    .map(str::to_string),
                conditions: conditions(item),
            });
        }
    }
    out
}

/// Gives every managed node template without technologies the technologies the rules allow
/// (when `enrich_technologies` is on).
pub fn enrich<'t>(
    model: &mut Model<'t>,
    options: &Options<'t>,
    qualities: Option<&'t Node>,
    diags: &mut Diagnostics,
) {
    let rules = rules(qualities, diags);
    if !options.enrich_technologies() {
        return;
    }
    let nodes: Vec<Id> = model.of(Kind::Node).collect();
    for node in nodes {
        if !model.node_data(node).technologies.is_empty() || !is_managed(model, node) {
            continue;
        }
        let candidates = candidates(model, node, &rules);
        if candidates.is_empty() {
            if options.semantic_check("required_technology_check") {
                diags.push(
                    Diagnostic::error(
                        codes::VAR_INCONSISTENT,
                        format!("{} has no technology candidates", model.display_upper(node)),
                    )
                    .at(model.get(node).span)
                    .hint("add a technology rule for its type to `variability.qualities`, assign a `technology`, or mark it `managed: false`"),
                );
            }
            continue;
        }
        let mut ids = Vec::new();
        for (index, c) in candidates.into_iter().enumerate() {
            let span = model.get(node).span;
            let e = Element {
                kind: Kind::Technology,
                name: c.technology,
                index: Some(index),
                container: Some(node),
                def: None,
                span,
                written: c.written,
                made: c.made,
                default_alternative: false,
                alternative_written: false,
                implied: Implied::No,
                types: Vec::new(),
                properties: Vec::new(),
                data: Data::Technology(TechnologyData {
                    weight: c.weight,
                    assign: c.assign,
                    prio: c.prio,
                    scenario: c.scenario,
                }),
            };
            ids.push(model.push(e));
        }
        if let Data::Node(n) = &mut model.elements[node].data {
            n.technologies = ids;
        }
    }
}

struct Candidate<'t> {
    technology: String,
    assign: String,
    weight: f64,
    prio: f64,
    written: Vec<&'t Node>,
    made: Vec<Formula>,
    scenario: Vec<Id>,
}

fn candidates<'t>(model: &Model<'t>, node: Id, rules: &[Rule<'t>]) -> Vec<Candidate<'t>> {
    let Some(inheritance) = model.inheritance() else {
        return Vec::new();
    };
    let inheritance = &inheritance;
    let Some(type_name) = model.type_name(node).map(str::to_string) else {
        return Vec::new();
    };
    let vars = model.vars();
    let mut out = Vec::new();
    for rule in rules {
        let Some(distance) = inheritance.distance("node_types", &type_name, &rule.component) else {
            continue;
        };
        if !rule
            .operations
            .iter()
            .all(|op| has_operation(model, inheritance, node, &type_name, op))
        {
            continue;
        }
        let mut made = Vec::new();
        if let Some(artifact) = &rule.artifact {
            let matching: Vec<Id> = model
                .node_data(node)
                .artifacts
                .iter()
                .copied()
                .filter(|a| {
                    model
                        .type_name(*a)
                        .is_some_and(|t| inheritance.is_a("artifact_types", t, artifact))
                })
                .collect();
            if matching.is_empty() {
                continue;
            }
            made.push(Formula::or(
                matching.iter().map(|a| vars.present(*a)).collect(),
            ));
        }
        let assign = |hosting: &[String]| {
            rule.assign.clone().unwrap_or_else(|| {
                implementation_name(
                    &type_name,
                    &rule.component,
                    &rule.technology,
                    rule.artifact.as_deref(),
                    hosting,
                )
            })
        };
        let make = |scenario: Vec<Id>, assign: String, made: Vec<Formula>| Candidate {
            technology: rule.technology.clone(),
            assign,
            weight: rule.weight,
            prio: distance as f64,
            written: rule.conditions.clone(),
            made,
            scenario,
        };
        if rule.hosting.is_empty() {
            out.push(make(Vec::new(), assign(&[]), made));
            continue;
        }
        let mut paths = Vec::new();
        search(
            model,
            inheritance,
            node,
            &rule.hosting,
            Vec::new(),
            &mut paths,
            0,
        );
        for path in paths {
            let mut conds = made.clone();
            conds.extend(path.iter().map(|h| vars.present(*h)));
            out.push(make(path, assign(&rule.hosting), conds));
        }
    }
    out
}

fn has_operation(m: &Model<'_>, i: &Inheritance<'_>, node: Id, type_name: &str, op: &str) -> bool {
    let in_interfaces = |def: Option<&Node>| {
        def.and_then(|d| d.as_map()?.get("interfaces")?.as_map()?.get("management"))
            .and_then(|mgmt| {
                let map = mgmt.as_map()?;
                Some(
                    map.get("operations")
                        .and_then(Node::as_map)
                        .is_some_and(|o| o.contains_key(op))
                        || map.contains_key(op),
                )
            })
            .unwrap_or(false)
    };
    if in_interfaces(m.get(node).def) {
        return true;
    }
    i.lineage("node_types", type_name)
        .iter()
        .any(|t| in_interfaces(i.definition("node_types", t)))
}

/// The hosting stacks below `node` that match `hosting` (`*` skips any number of hosts).
fn search(
    m: &Model<'_>,
    i: &Inheritance<'_>,
    node: Id,
    hosting: &[String],
    history: Vec<Id>,
    out: &mut Vec<Vec<Id>>,
    depth: usize,
) {
    if depth > 64 {
        return;
    }
    let asterisk = hosting.first().is_some_and(|h| h == "*");
    let Some(wanted) = (if asterisk {
        hosting.get(1)
    } else {
        hosting.first()
    }) else {
        return;
    };
    for r in m.hostings(node) {
        let host = m.relation_data(r).target;
        let host_type = m.type_name(host).unwrap_or_default();
        if i.is_a("node_types", host_type, wanted) {
            let mut path = history.clone();
            path.push(host);
            let rest = &hosting[if asterisk { 2 } else { 1 }..];
            if rest.is_empty() {
                out.push(path);
            } else {
                search(m, i, host, rest, path, out, depth + 1);
            }
        }
        if asterisk {
            let mut path = history.clone();
            path.push(host);
            search(m, i, host, hosting, path, out, depth + 1);
        }
    }
}
