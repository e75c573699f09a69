//! The consistency and semantic checks of the resolved topology (§ Conduct Checks, § Checks
//! Options), in the reference resolver's order and with its texts; every failure is reported,
//! the first being the one the reference resolver stops at.

use crate::diag::{Diagnostic, Diagnostics, codes};

use super::model::{Data, Id, Kind, Model};
use super::options::Options;

/// Reads, for a node, the elements one expectation check wants it to keep.
type ItemsOf = fn(&Model<'_>, Id) -> Vec<Id>;

struct Checker<'a, 't> {
    m: &'a Model<'t>,
    o: &'a Options<'t>,
    present: &'a [bool],
    diags: &'a mut Diagnostics,
}

pub fn run(m: &Model<'_>, o: &Options<'_>, present: &[bool], diags: &mut Diagnostics) {
    let mut c = Checker {
        m,
        o,
        present,
        diags,
    };
    c.relation_ends();
    c.containers(Kind::Artifact, "missing_artifact_container_check");
    if c.o.consistency_check("ambiguous_artifact_check") {
        c.unique_names(c.per_node(|n| c.m.node_data(n).artifacts.clone()));
    }
    c.containers(Kind::Property, "missing_property_container_check");
    if c.o.consistency_check("ambiguous_property_check") {
        c.unique_names(c.per_node(|n| c.m.get(n).properties.clone()));
    }
    c.containers(Kind::Type, "missing_type_container_check");
    c.types();
    c.hosting();
    c.expected();
    c.containers(Kind::Technology, "missing_technology_container_check");
    c.technologies();
    c.inputs_outputs();
    if c.o.consistency_check("ambiguous_relation_check") {
        c.unique_names(c.per_node(|n| c.m.node_data(n).outgoing.clone()));
    }
    c.assigned_types();
}

impl Checker<'_, '_> {
    fn is(&self, id: Id) -> bool {
        self.present[id]
    }

    fn present_of(&self, kind: Kind) -> Vec<Id> {
        self.m.of(kind).filter(|i| self.present[*i]).collect()
    }

    fn fail(&mut self, id: Id, message: String, hint: &str) {
        self.diags.push(
            Diagnostic::error(codes::VAR_INCONSISTENT, message)
                .at(self.m.get(id).span)
                .hint(hint.to_string()),
        );
    }

    /// A list for each present node.
    fn per_node(&self, f: impl Fn(Id) -> Vec<Id>) -> Vec<Vec<Id>> {
        self.present_of(Kind::Node).into_iter().map(f).collect()
    }

    fn relation_ends(&mut self) {
        let relations = self.present_of(Kind::Relation);
        for (key, end) in [
            ("relation_source_check", "source"),
            ("relation_target_check", "target"),
        ] {
            if !self.o.consistency_check(key) {
                continue;
            }
            for r in &relations {
                let data = self.m.relation_data(*r);
                let node = if end == "source" {
                    data.source
                } else {
                    data.target
                };
                if !self.is(node) {
                    let message = format!(
                        "Relation {end} \"{}\" of {} does not exist",
                        self.m.get(node).name,
                        self.m.display(*r)
                    );
                    self.fail(
                        *r,
                        message,
                        &format!("give the requirement assignment a condition that holds only when its {end} is present, or prune relations (`relation_pruning: true`)"),
                    );
                }
            }
        }
    }

    fn containers(&mut self, kind: Kind, key: &str) {
        if !self.o.consistency_check(key) {
            return;
        }
        for e in self.present_of(kind) {
            if let Some(container) = self.m.get(e).container
                && !self.is(container)
            {
                let message = format!("Container of {} does not exist", self.m.display(e));
                self.fail(
                    e,
                    message,
                    "give it a condition that holds only when its container is present, or switch its pruning on",
                );
            }
        }
    }

    /// At most one present element of a name in each list.
    fn unique_names(&mut self, lists: Vec<Vec<Id>>) {
        for list in lists {
            let mut seen: Vec<String> = Vec::new();
            for e in list.into_iter().filter(|i| self.present[*i]) {
                let name = self.m.get(e).name.clone();
                if seen.contains(&name) {
                    let message = format!("{} is ambiguous", self.m.display_upper(e));
                    self.fail(
                        e,
                        message,
                        "at most one element of a name may be present; make their conditions exclude each other",
                    );
                }
                seen.push(name);
            }
        }
    }

    fn types(&mut self) {
        if !self.o.consistency_check("ambiguous_type_check") {
            return;
        }
        for kind in [Kind::Node, Kind::Group, Kind::Policy, Kind::Artifact] {
            let elements = self.present_of(kind);
            for e in &elements {
                if !self.m.get(*e).types.iter().any(|t| self.is(*t)) {
                    let message = format!("{} has no type", self.m.display_upper(*e));
                    self.fail(
                        *e,
                        message,
                        "give one of its type assignments a condition that holds",
                    );
                }
            }
            self.unique_names(
                elements
                    .iter()
                    .map(|e| self.m.get(*e).types.clone())
                    .collect(),
            );
        }
    }

    fn hosting(&mut self) {
        let nodes = self.present_of(Kind::Node);
        if self.o.consistency_check("ambiguous_hosting_check") {
            for n in &nodes {
                if self
                    .m
                    .hostings(*n)
                    .into_iter()
                    .filter(|r| self.is(*r))
                    .count()
                    > 1
                {
                    let message = format!(
                        "{} has more than one hosting relations",
                        self.m.display_upper(*n)
                    );
                    self.fail(
                        *n,
                        message,
                        "make the conditions of its hosting requirements exclude each other",
                    );
                }
            }
        }
        if self.o.semantic_check("expected_hosting_check") {
            for n in &nodes {
                let hostings = self.m.hostings(*n);
                if !hostings.is_empty() && !hostings.iter().any(|r| self.is(*r)) {
                    let message = format!(
                        "{} expected to have a hosting relation",
                        self.m.display_upper(*n)
                    );
                    self.fail(
                        *n,
                        message,
                        "one of its hosting requirements must be present whenever the node is",
                    );
                }
            }
        }
    }

    /// A node that had incoming relations, artifacts or technologies keeps one.
    fn expected(&mut self) {
        let checks: [(&str, &str, ItemsOf); 3] = [
            (
                "expected_incoming_relation_check",
                "an incoming relation",
                |m, n| m.node_data(n).ingoing.clone(),
            ),
            (
                "expected_artifact_check",
                "an deployment artifact",
                |m, n| m.node_data(n).artifacts.clone(),
            ),
            ("expected_technology_check", "a technology", |m, n| {
                m.node_data(n).technologies.clone()
            }),
        ];
        for (key, what, items) in checks {
            if !self.o.semantic_check(key) {
                continue;
            }
            for n in self.present_of(Kind::Node) {
                let list = items(self.m, n);
                if !list.is_empty() && !list.iter().any(|i| self.is(*i)) {
                    let message = format!("{} expected to have {what}", self.m.display_upper(n));
                    self.fail(
                        n,
                        message,
                        &format!("a node that had {what} keeps one, or is removed by pruning"),
                    );
                }
            }
        }
    }

    fn technologies(&mut self) {
        if !self.o.consistency_check("ambiguous_technology_check") {
            return;
        }
        for n in self.present_of(Kind::Node) {
            let present = self
                .m
                .node_data(n)
                .technologies
                .iter()
                .filter(|t| self.is(**t))
                .count();
            if present > 1 {
                let message = format!("{} has more than one technology", self.m.display_upper(n));
                self.fail(n, message, "switch technology pruning on, or make the technologies' conditions exclude each other");
            }
        }
    }

    /// The resolved template needs one type per node: a node that had technologies takes the
    /// type its present technology assigns, so one must be present.
    fn assigned_types(&mut self) {
        for n in self.present_of(Kind::Node) {
            let technologies = &self.m.node_data(n).technologies;
            if !technologies.is_empty() && !technologies.iter().any(|t| self.is(*t)) {
                let message = format!("{} has no present technology", self.m.display_upper(n));
                self.fail(n, message, "give one of its technologies a condition that holds, or switch technology pruning off");
            }
        }
    }

    fn inputs_outputs(&mut self) {
        if self.o.consistency_check("ambiguous_input_check") {
            self.unique_names(vec![self.m.of(Kind::Input).collect()]);
        }
        if self.o.unconsumed_input_check() {
            for i in self.present_of(Kind::Input) {
                if let Data::Input { consumers } = &self.m.get(i).data
                    && !consumers.iter().any(|c| self.is(*c))
                {
                    let message = format!("{} is not consumed", self.m.display_upper(i));
                    self.fail(i, message, "remove the input, or switch input pruning on");
                }
            }
        }
        if self.o.consistency_check("ambiguous_output_check") {
            self.unique_names(vec![self.m.of(Kind::Output).collect()]);
        }
        if self.o.unproduced_output_check() {
            for out in self.present_of(Kind::Output) {
                if let Data::Output { producers } = &self.m.get(out).data
                    && producers.iter().any(|p| !self.is(*p))
                {
                    let message = format!("{} is not produced", self.m.display_upper(out));
                    self.fail(
                        out,
                        message,
                        "remove the output, or switch output pruning on",
                    );
                }
            }
        }
    }
}
