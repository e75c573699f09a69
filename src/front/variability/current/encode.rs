//! Logic expressions (§ Variability Condition) as formulas over the solver's variables: the
//! logical operators, the presence operators with their `SELF`, `CONTAINER`, `SOURCE` and
//! `TARGET` selectors (resolved against the element whose condition is read), named logic
//! expressions (one variable each), and any value expression that evaluates to a boolean.

use indexmap::IndexMap;

use crate::diag::codes;
use crate::source::Span;
use crate::yaml::{Core, Node};

use super::formula::Formula;
use super::model::{Data, Id, Kind, Model};
use super::sat::Sat;
use super::values::{Fail, VR, Values, fail, operator};
use super::vars::Vars;

/// Nesting allowed to logic expressions; deeper is reported.
const MAX_DEPTH: usize = 2000;

/// `host_presence`: any host of the node is present.
pub fn host_presence(m: &Model<'_>, v: &Vars, node: Id) -> Formula {
    Formula::or(
        m.hostings(node)
            .into_iter()
            .map(|r| v.present(m.relation_data(r).target))
            .collect(),
    )
}

/// `has_incoming_relation(_naive)`.
pub fn has_incoming(m: &Model<'_>, v: &Vars, node: Id, naive: bool) -> Formula {
    Formula::or(
        m.node_data(node)
            .ingoing
            .iter()
            .map(|r| {
                if naive {
                    v.present(*r)
                } else {
                    Formula::and(vec![v.manual(*r), v.present(m.relation_data(*r).source)])
                }
            })
            .collect(),
    )
}

/// `has_outgoing_relation(_naive)`.
pub fn has_outgoing(m: &Model<'_>, v: &Vars, node: Id, naive: bool) -> Formula {
    Formula::or(
        m.node_data(node)
            .outgoing
            .iter()
            .map(|r| {
                if naive {
                    v.present(*r)
                } else {
                    Formula::and(vec![v.manual(*r), v.present(m.relation_data(*r).target)])
                }
            })
            .collect(),
    )
}

pub struct Encoder<'a, 't> {
    pub model: &'a Model<'t>,
    pub vars: Vars,
    pub values: &'a mut Values<'t>,
    /// Named logic expressions: variable index, and whether its definition was added.
    pub named: IndexMap<&'t str, (usize, bool)>,
    pub sat: &'a mut Sat,
    depth: usize,
}

impl<'a, 't> Encoder<'a, 't> {
    pub fn new(
        model: &'a Model<'t>,
        vars: Vars,
        values: &'a mut Values<'t>,
        sat: &'a mut Sat,
    ) -> Encoder<'a, 't> {
        let named = values
            .expressions
            .keys()
            .enumerate()
            .map(|(i, k)| (*k, (i, false)))
            .collect();
        Encoder {
            model,
            vars,
            values,
            named,
            sat,
            depth: 0,
        }
    }

    /// A written logic expression, read with `ctx` as `SELF`.
    pub fn logic(&mut self, expr: &'t Node, ctx: Option<Id>) -> VR<Formula> {
        if self.depth >= MAX_DEPTH {
            return Err(fail(
                codes::VAR_LIMIT,
                format!("logic expressions nest deeper than {MAX_DEPTH} levels"),
                expr.span,
                "shorten the chain of expressions",
            ));
        }
        self.depth += 1;
        let f = self.logic_inner(expr, ctx);
        self.depth -= 1;
        f
    }

    fn logic_inner(&mut self, expr: &'t Node, ctx: Option<Id>) -> VR<Formula> {
        if let Some(s) = expr.as_scalar() {
            return match s.core {
                Core::Bool(b) => Ok(Formula::Const(b)),
                Core::Str => self.identifier(&s.text, expr.span),
                _ => Err(fail(
                    codes::VAR_TYPE,
                    format!("Element \"{}\" is not a boolean", s.text),
                    expr.span,
                    "a condition evaluates to true or false",
                )),
            };
        }
        let (op, arg) = operator(expr)?;
        match op {
            "and" | "or" | "xor" | "exo" | "amo" => {
                let items = arg.as_seq().ok_or_else(|| takes(op, "a list", arg.span))?;
                let fs = items
                    .iter()
                    .map(|i| self.logic(i, ctx))
                    .collect::<VR<Vec<_>>>()?;
                Ok(match op {
                    "and" => Formula::and(fs),
                    "or" => Formula::or(fs),
                    "xor" => Formula::xor(fs),
                    "exo" => Formula::exo(fs),
                    _ => Formula::amo(fs),
                })
            }
            "not" => Ok(Formula::not(self.logic(arg, ctx)?)),
            "implies" => match arg.as_seq() {
                Some([a, b]) => Ok(Formula::implies(self.logic(a, ctx)?, self.logic(b, ctx)?)),
                _ => Err(takes(op, "a list of two conditions", arg.span)),
            },
            "logic_expression" => self.named(arg, ctx),
            _ => match self.presence(op, arg, ctx)? {
                Some(f) => Ok(f),
                None => self.value_condition(expr),
            },
        }
    }

    /// Any other operator: a value expression that must evaluate to a boolean.
    fn value_condition(&mut self, expr: &'t Node) -> VR<Formula> {
        match self.values.eval(expr)? {
            crate::front::variability::eval::Value::Bool(b) => Ok(Formula::Const(b)),
            other => Err(fail(
                codes::VAR_TYPE,
                format!("Element \"{}\" is not a boolean", other.text()),
                expr.span,
                "a condition evaluates to true or false",
            )),
        }
    }

    /// The presence operators (§ Presence Operators); `None` for any other operator.
    fn presence(&mut self, op: &str, arg: &'t Node, ctx: Option<Id>) -> VR<Option<Formula>> {
        let m = self.model;
        let v = self.vars;
        let f: VR<Formula> = match op {
            "node_presence" => Ok(v.present(self.node(arg, ctx)?)),
            "host_presence" => Ok(host_presence(m, &v, self.node(arg, ctx)?)),
            "has_source" => {
                let n = self.node(arg, ctx)?;
                Ok(Formula::or(
                    m.node_data(n)
                        .ingoing
                        .iter()
                        .map(|r| v.present(m.relation_data(*r).source))
                        .collect(),
                ))
            }
            "has_incoming_relation" => Ok(has_incoming(m, &v, self.node(arg, ctx)?, false)),
            "has_incoming_relation_naive" => Ok(has_incoming(m, &v, self.node(arg, ctx)?, true)),
            "has_outgoing_relation" => Ok(has_outgoing(m, &v, self.node(arg, ctx)?, false)),
            "has_outgoing_relation_naive" => Ok(has_outgoing(m, &v, self.node(arg, ctx)?, true)),
            "has_artifact" => {
                let n = self.node(arg, ctx)?;
                Ok(Formula::or(
                    m.node_data(n)
                        .artifacts
                        .iter()
                        .map(|a| v.manual(*a))
                        .collect(),
                ))
            }
            "has_artifact_naive" => {
                let n = self.node(arg, ctx)?;
                Ok(Formula::or(
                    m.node_data(n)
                        .artifacts
                        .iter()
                        .map(|a| v.present(*a))
                        .collect(),
                ))
            }
            "relation_presence" => Ok(v.present(self.relation(arg, ctx)?)),
            "source_presence" => Ok(v.present(m.relation_data(self.relation(arg, ctx)?).source)),
            "target_presence" => Ok(v.present(m.relation_data(self.relation(arg, ctx)?).target)),
            "container_presence" => {
                let own = self.container(ctx, arg.span)?;
                match arg.as_str() {
                    Some("SELF") => Ok(v.present(own)),
                    Some("CONTAINER") => Ok(v.present(self.container(Some(own), arg.span)?)),
                    _ => Err(takes(op, "SELF or CONTAINER", arg.span)),
                }
            }
            "policy_presence" => Ok(v.present(self.policy(arg, ctx)?)),
            "has_present_target" => {
                let p = self.policy(arg, ctx)?;
                let Data::Policy { targets } = &m.get(p).data else {
                    unreachable!()
                };
                Ok(Formula::or(
                    targets
                        .iter()
                        .map(|t| match &m.get(*t).data {
                            Data::Group { members, .. } => {
                                Formula::or(members.iter().map(|x| v.present(*x)).collect())
                            }
                            _ => v.present(*t),
                        })
                        .collect(),
                ))
            }
            "group_presence" => Ok(v.present(self.group(arg, ctx)?)),
            "has_present_member" => {
                let g = self.group(arg, ctx)?;
                let Data::Group { members, .. } = &m.get(g).data else {
                    unreachable!()
                };
                Ok(Formula::or(members.iter().map(|x| v.present(*x)).collect()))
            }
            "artifact_presence" => Ok(v.present(self.artifact(arg, ctx)?)),
            "is_managed" => {
                let a = self.artifact(arg, ctx)?;
                Ok(super::technologies::managed(m, &v, a))
            }
            "input_presence" => Ok(v.present(self.io(Kind::Input, arg, ctx)?)),
            "output_presence" => Ok(v.present(self.io(Kind::Output, arg, ctx)?)),
            "is_consumed" => {
                let i = self.io(Kind::Input, arg, ctx)?;
                let Data::Input { consumers } = &m.get(i).data else {
                    unreachable!()
                };
                Ok(Formula::or(
                    consumers.iter().map(|c| v.present(*c)).collect(),
                ))
            }
            "is_produced" => {
                let o = self.io(Kind::Output, arg, ctx)?;
                let Data::Output { producers } = &m.get(o).data else {
                    unreachable!()
                };
                Ok(Formula::or(
                    producers.iter().map(|p| v.present(*p)).collect(),
                ))
            }
            "import_presence" => Ok(v.present(self.import(arg, ctx)?)),
            "technology_presence" => Ok(v.present(self.technology(arg, ctx)?)),
            "node_type_presence"
            | "relation_type_presence"
            | "group_type_presence"
            | "policy_type_presence"
            | "artifact_type_presence" => Ok(v.present(self.typed(op, arg, ctx, true)?)),
            "node_property_presence"
            | "relation_property_presence"
            | "group_property_presence"
            | "policy_property_presence"
            | "artifact_property_presence" => Ok(v.present(self.typed(op, arg, ctx, false)?)),
            _ => return Ok(None),
        };
        f.map(Some)
    }
    /// A string condition names an element by its identifier (`node.a`).
    fn identifier(&mut self, text: &str, span: Span) -> VR<Formula> {
        let found = (0..self.model.elements.len()).find(|i| self.model.id(*i) == text);
        found.map(|i| self.vars.present(i)).ok_or_else(|| {
            fail(
                codes::VAR_TYPE,
                format!("Element \"{text}\" is not a boolean"),
                span,
                "a condition evaluates to true or false; a string names an element by its identifier, such as node.my_node",
            )
        })
    }

    fn named(&mut self, arg: &'t Node, ctx: Option<Id>) -> VR<Formula> {
        let name = arg
            .as_str()
            .ok_or_else(|| takes("logic_expression", "a name", arg.span))?;
        let Some((index, done)) = self.named.get(name).copied() else {
            return Err(fail(
                codes::VAR_UNKNOWN,
                format!("Did not find logic expression \"{name}\""),
                arg.span,
                "name an expression of `variability.expressions`",
            ));
        };
        let var = self.vars.expression(index);
        if !done {
            self.named.insert(name, (index, true));
            let Some(definition) = self.values.expressions.get(name).copied() else {
                unreachable!("named expressions come from the same map")
            };
            let f = self.logic(definition, ctx)?;
            self.sat.require(&Formula::equiv(var.clone(), f));
        }
        Ok(var)
    }

    fn container(&self, ctx: Option<Id>, span: Span) -> VR<Id> {
        let e = ctx.ok_or_else(|| no_context(span))?;
        self.model.get(e).container.ok_or_else(|| {
            fail(
                codes::VAR_EXPRESSION,
                format!("{} has no container", self.model.display_upper(e)),
                span,
                "CONTAINER is the element that holds this one (the node of a property, say)",
            )
        })
    }

    fn expect(&self, id: Id, kind: Kind, span: Span) -> VR<Id> {
        if self.model.get(id).kind == kind {
            Ok(id)
        } else {
            Err(fail(
                codes::VAR_EXPRESSION,
                format!("{} is not a {}", self.model.display_upper(id), kind.word()),
                span,
                "the selector names an element of another kind than this operator reads",
            ))
        }
    }

    /// A node: by name, or `SELF`, `CONTAINER`, `SOURCE`, `TARGET`.
    fn node(&self, arg: &Node, ctx: Option<Id>) -> VR<Id> {
        let m = self.model;
        let name = arg
            .as_str()
            .ok_or_else(|| takes("this operator", "a node name or selector", arg.span))?;
        match name {
            "SELF" => self.expect(
                ctx.ok_or_else(|| no_context(arg.span))?,
                Kind::Node,
                arg.span,
            ),
            "CONTAINER" => self.expect(self.container(ctx, arg.span)?, Kind::Node, arg.span),
            "SOURCE" | "TARGET" => {
                let r = self.expect(
                    ctx.ok_or_else(|| no_context(arg.span))?,
                    Kind::Relation,
                    arg.span,
                )?;
                let data = m.relation_data(r);
                Ok(if name == "SOURCE" {
                    data.source
                } else {
                    data.target
                })
            }
            _ => m.nodes.get(name).copied().ok_or_else(|| {
                fail(
                    codes::VAR_UNKNOWN,
                    format!("Node \"{name}\" not found"),
                    arg.span,
                    "name a node template",
                )
            }),
        }
    }

    /// A relation: `[node, name or index]`, or `SELF`, `CONTAINER`.
    fn relation(&self, arg: &Node, ctx: Option<Id>) -> VR<Id> {
        match arg.as_str() {
            Some("SELF") => {
                return self.expect(
                    ctx.ok_or_else(|| no_context(arg.span))?,
                    Kind::Relation,
                    arg.span,
                );
            }
            Some("CONTAINER") => {
                return self.expect(self.container(ctx, arg.span)?, Kind::Relation, arg.span);
            }
            _ => {}
        }
        match arg.as_seq() {
            Some([node, req]) => {
                let n = self.node(node, ctx)?;
                super::links::relation_of(self.model, n, req).map_err(|why| {
                    fail(codes::VAR_UNKNOWN, format!("Relation {why}"), arg.span, "")
                })
            }
            _ => Err(takes(
                "this operator",
                "[node, requirement name or index]",
                arg.span,
            )),
        }
    }

    fn policy(&self, arg: &Node, ctx: Option<Id>) -> VR<Id> {
        let m = self.model;
        match (arg.as_str(), arg.as_scalar().map(|s| s.core)) {
            (Some("SELF"), _) => self.expect(
                ctx.ok_or_else(|| no_context(arg.span))?,
                Kind::Policy,
                arg.span,
            ),
            (Some("CONTAINER"), _) => {
                self.expect(self.container(ctx, arg.span)?, Kind::Policy, arg.span)
            }
            (Some(name), _) => match m.policies.get(name).map(Vec::as_slice) {
                Some([one]) => Ok(*one),
                Some([_, ..]) => Err(fail(
                    codes::VAR_UNKNOWN,
                    format!("Policy \"{name}\" is ambiguous"),
                    arg.span,
                    "several policies have this name: name it by its position instead",
                )),
                _ => Err(not_found("Policy", name, arg.span)),
            },
            (_, Some(Core::Int(i))) => usize::try_from(i)
                .ok()
                .and_then(|i| m.of(Kind::Policy).nth(i))
                .ok_or_else(|| not_found("Policy", &i.to_string(), arg.span)),
            _ => Err(takes(
                "this operator",
                "a policy name or position",
                arg.span,
            )),
        }
    }

    fn group(&self, arg: &Node, ctx: Option<Id>) -> VR<Id> {
        match arg.as_str() {
            Some("SELF") => self.expect(
                ctx.ok_or_else(|| no_context(arg.span))?,
                Kind::Group,
                arg.span,
            ),
            Some("CONTAINER") => self.expect(self.container(ctx, arg.span)?, Kind::Group, arg.span),
            Some(name) => self
                .model
                .groups
                .get(name)
                .copied()
                .ok_or_else(|| not_found("Group", name, arg.span)),
            None => Err(takes("this operator", "a group name", arg.span)),
        }
    }

    /// An artifact: `[node, name or index]`, or `SELF`, `CONTAINER`.
    fn artifact(&self, arg: &Node, ctx: Option<Id>) -> VR<Id> {
        match arg.as_str() {
            Some("SELF") => {
                return self.expect(
                    ctx.ok_or_else(|| no_context(arg.span))?,
                    Kind::Artifact,
                    arg.span,
                );
            }
            Some("CONTAINER") => {
                return self.expect(self.container(ctx, arg.span)?, Kind::Artifact, arg.span);
            }
            _ => {}
        }
        let Some([node, which]) = arg.as_seq() else {
            return Err(takes(
                "this operator",
                "[node, artifact name or index]",
                arg.span,
            ));
        };
        let n = self.node(node, ctx)?;
        self.member_of(&self.model.node_data(n).artifacts, which, "Artifact")
    }

    /// An element of `list` by name (unique) or position.
    fn member_of(&self, list: &[Id], which: &Node, what: &str) -> VR<Id> {
        let m = self.model;
        match which.as_scalar().map(|s| s.core) {
            Some(Core::Int(i)) => usize::try_from(i)
                .ok()
                .and_then(|i| list.get(i).copied())
                .ok_or_else(|| not_found(what, &i.to_string(), which.span)),
            _ => {
                let name = which.scalar_text().unwrap_or_default();
                let found: Vec<Id> = list
                    .iter()
                    .copied()
                    .filter(|x| m.get(*x).name == name)
                    .collect();
                match found.as_slice() {
                    [one] => Ok(*one),
                    [] => Err(not_found(what, name, which.span)),
                    _ => Err(fail(
                        codes::VAR_UNKNOWN,
                        format!("{what} \"{name}\" is ambiguous"),
                        which.span,
                        "several have this name: name it by its position instead",
                    )),
                }
            }
        }
    }

    fn io(&self, kind: Kind, arg: &Node, ctx: Option<Id>) -> VR<Id> {
        let m = self.model;
        let what = if kind == Kind::Input {
            "Input"
        } else {
            "Output"
        };
        match (arg.as_str(), arg.as_scalar().map(|s| s.core)) {
            (Some("SELF"), _) => {
                self.expect(ctx.ok_or_else(|| no_context(arg.span))?, kind, arg.span)
            }
            (Some(name), _) => {
                let by_name = if kind == Kind::Input {
                    &m.inputs
                } else {
                    &m.outputs
                };
                match by_name.get(name).map(Vec::as_slice) {
                    Some([one]) => Ok(*one),
                    Some([_, ..]) => Err(fail(
                        codes::VAR_UNKNOWN,
                        format!("{what} \"{name}\" is ambiguous"),
                        arg.span,
                        "several have this name: name it by its position instead",
                    )),
                    _ => Err(not_found(what, name, arg.span)),
                }
            }
            (_, Some(Core::Int(i))) => usize::try_from(i)
                .ok()
                .and_then(|i| m.of(kind).nth(i))
                .ok_or_else(|| not_found(what, &i.to_string(), arg.span)),
            _ => Err(takes("this operator", "a name or position", arg.span)),
        }
    }

    fn import(&self, arg: &Node, ctx: Option<Id>) -> VR<Id> {
        match (arg.as_str(), arg.as_scalar().map(|s| s.core)) {
            (Some("SELF"), _) => self.expect(
                ctx.ok_or_else(|| no_context(arg.span))?,
                Kind::Import,
                arg.span,
            ),
            (_, Some(Core::Int(i))) => usize::try_from(i)
                .ok()
                .and_then(|i| self.model.of(Kind::Import).nth(i))
                .ok_or_else(|| not_found("Import", &i.to_string(), arg.span)),
            _ => Err(takes(
                "import_presence",
                "the position of an import",
                arg.span,
            )),
        }
    }

    fn technology(&self, arg: &Node, ctx: Option<Id>) -> VR<Id> {
        let Some([node, which]) = arg.as_seq() else {
            return Err(takes(
                "technology_presence",
                "[node, technology name or index]",
                arg.span,
            ));
        };
        let n = self.node(node, ctx)?;
        self.member_of(&self.model.node_data(n).technologies, which, "Technology")
    }

    /// `*_type_presence` and `*_property_presence`: the container, then a type or property
    /// of it by name or position.
    fn typed(&self, op: &str, arg: &Node, ctx: Option<Id>, types: bool) -> VR<Id> {
        let parts = arg.as_seq().filter(|p| p.len() >= 2).ok_or_else(|| {
            takes(
                op,
                "a list of the container and the name or position",
                arg.span,
            )
        })?;
        let (container_parts, last) = parts.split_at(parts.len() - 1);
        let container = match (op.split('_').next(), container_parts) {
            (Some("node"), [n]) => self.node(n, ctx)?,
            (Some("group"), [g]) => self.group(g, ctx)?,
            (Some("policy"), [p]) => self.policy(p, ctx)?,
            (Some("relation"), [n, r]) => {
                let n = self.node(n, ctx)?;
                super::links::relation_of(self.model, n, r).map_err(|why| {
                    fail(codes::VAR_UNKNOWN, format!("Relation {why}"), arg.span, "")
                })?
            }
            (Some("artifact"), [n, a]) => {
                let n = self.node(n, ctx)?;
                self.member_of(&self.model.node_data(n).artifacts, a, "Artifact")?
            }
            _ => {
                return Err(takes(
                    op,
                    "the container's path and a name or position",
                    arg.span,
                ));
            }
        };
        let e = self.model.get(container);
        let list = if types { &e.types } else { &e.properties };
        self.member_of(list, &last[0], if types { "Type" } else { "Property" })
    }
}

fn takes(op: &str, what: &str, span: Span) -> Fail {
    fail(
        codes::VAR_EXPRESSION,
        format!("`{op}` takes {what}"),
        span,
        "see § Intrinsic Functions for the operands of each operator",
    )
}

fn not_found(what: &str, name: &str, span: Span) -> Fail {
    fail(
        codes::VAR_UNKNOWN,
        format!("{what} \"{name}\" not found"),
        span,
        "",
    )
}

fn no_context(span: Span) -> Fail {
    fail(
        codes::VAR_EXPRESSION,
        "SELF and CONTAINER are only valid in the conditions of an element".into(),
        span,
        "name the element instead",
    )
}
