//! The elements of a variable topology template in the current language (§ Element System):
//! every element that can be present or absent, with its identifier (§ Element Identifier
//! System), its display (§ Element Display System), its container and its links. Built by
//! [`super::build`]; read by the condition enricher, the encoder, the checks and the transform.

use indexmap::IndexMap;

use crate::source::Span;
use crate::yaml::Node;

/// An element, by position in [`Model::elements`].
pub type Id = usize;

/// The element types of § Element Identifier System.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Type,
    Node,
    Relation,
    Property,
    Policy,
    Group,
    Input,
    Artifact,
    Import,
    Technology,
    Output,
}

impl Kind {
    /// The word of identifiers and displays (`node`, `relation`, ...).
    pub fn word(self) -> &'static str {
        match self {
            Kind::Type => "type",
            Kind::Node => "node",
            Kind::Relation => "relation",
            Kind::Property => "property",
            Kind::Policy => "policy",
            Kind::Group => "group",
            Kind::Input => "input",
            Kind::Artifact => "artifact",
            Kind::Import => "import",
            Kind::Technology => "technology",
            Kind::Output => "output",
        }
    }

    /// The order in which the reference resolver lists its elements (which breaks ties between
    /// equally good solutions the same way).
    pub const ORDER: [Kind; 11] = [
        Kind::Type,
        Kind::Node,
        Kind::Relation,
        Kind::Property,
        Kind::Policy,
        Kind::Group,
        Kind::Input,
        Kind::Artifact,
        Kind::Import,
        Kind::Technology,
        Kind::Output,
    ];
}

/// How an element's manual conditions imply it (§ Requirement Assignment, `implied`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Implied {
    No,
    /// Implied when its container (for a relation: its source) is present.
    Container,
    /// A relation implied when its target is present.
    Target,
}

#[derive(Debug, Clone, Default)]
pub struct NodeData {
    pub outgoing: Vec<Id>,
    pub ingoing: Vec<Id>,
    pub artifacts: Vec<Id>,
    pub technologies: Vec<Id>,
    pub groups: Vec<Id>,
    /// § Node Template `weight`, in [0, 1].
    pub weight: f64,
    pub anchor: bool,
    /// § Node Template `technology`, written (possibly as an empty list).
    pub technology_written: bool,
}

#[derive(Debug, Clone)]
pub struct RelationData {
    pub source: Id,
    pub target: Id,
    /// The relationship template it uses, by name.
    pub relationship: Option<String>,
    pub groups: Vec<Id>,
}

#[derive(Debug, Clone, Default)]
pub struct PropertyData<'t> {
    /// The value as written, or `None` when given by `expression`.
    pub value: Option<&'t Node>,
    pub expression: Option<&'t Node>,
    /// Elements whose presence the value reads (`get_input`, `get_property`, ...).
    pub consuming: Vec<Id>,
}

#[derive(Debug, Clone)]
pub struct TechnologyData {
    pub weight: f64,
    /// The node type assigned when the technology is chosen.
    pub assign: String,
    /// Priority among deployment scenarios (lower is preferred): how far the rule's
    /// component is from the node's type.
    pub prio: f64,
    /// The hosts a rule's hosting stack found (its deployment scenario).
    pub scenario: Vec<Id>,
}

#[derive(Debug, Clone)]
pub enum Data<'t> {
    Type,
    Node(NodeData),
    Relation(RelationData),
    Property(PropertyData<'t>),
    Policy { targets: Vec<Id> },
    Group { members: Vec<Id>, variability: bool },
    Input { consumers: Vec<Id> },
    Artifact,
    Import,
    Technology(TechnologyData),
    Output { producers: Vec<Id> },
}

#[derive(Debug, Clone)]
pub struct Element<'t> {
    pub kind: Kind,
    pub name: String,
    pub index: Option<usize>,
    pub container: Option<Id>,
    /// The keynames of the element as written (`None` for short forms such as `host: vm`).
    pub def: Option<&'t Node>,
    /// Where messages about the element point.
    pub span: Span,
    /// `conditions` as written, a list meaning all of them.
    pub written: Vec<&'t Node>,
    /// Conditions the resolver attached (a technology rule's hosting stack and artifact).
    pub made: Vec<super::formula::Formula>,
    /// `default_alternative: true` (§ default alternatives).
    pub default_alternative: bool,
    /// `default_alternative` was written: the written conditions are replaced by `false`.
    pub alternative_written: bool,
    pub implied: Implied,
    pub types: Vec<Id>,
    pub properties: Vec<Id>,
    pub data: Data<'t>,
}

impl<'t> Element<'t> {
    /// A boolean keyname of the element's definition (`pruning`, `default_condition`, ...).
    pub fn flag(&self, key: &str) -> Option<bool> {
        self.keyname(key).and_then(super::options::bool_of)
    }

    pub fn keyname(&self, key: &str) -> Option<&'t Node> {
        self.def?.as_map()?.get(key)
    }

    pub fn node(&self) -> Option<&NodeData> {
        match &self.data {
            Data::Node(n) => Some(n),
            _ => None,
        }
    }

    pub fn relation(&self) -> Option<&RelationData> {
        match &self.data {
            Data::Relation(r) => Some(r),
            _ => None,
        }
    }
}

/// A relationship template of `relationship_templates`.
#[derive(Debug, Clone)]
pub struct RelationshipTemplate<'t> {
    pub key: &'t Node,
    pub def: &'t Node,
    pub used_by: Option<Id>,
}

#[derive(Debug, Default)]
pub struct Model<'t> {
    pub elements: Vec<Element<'t>>,
    pub nodes: IndexMap<String, Id>,
    pub groups: IndexMap<String, Id>,
    pub policies: IndexMap<String, Vec<Id>>,
    pub inputs: IndexMap<String, Vec<Id>>,
    pub outputs: IndexMap<String, Vec<Id>>,
    pub relationships: IndexMap<String, RelationshipTemplate<'t>>,
    /// The whole document, for type definitions.
    pub root: Option<&'t Node>,
}

impl<'t> Model<'t> {
    /// Type inheritance among the document's type definitions.
    pub fn inheritance(&self) -> Option<super::technologies::Inheritance<'t>> {
        self.root.map(super::technologies::Inheritance::new)
    }

    /// The solver variables of the elements built so far (presence variables are element
    /// positions, so they stay valid as elements are added).
    pub fn vars(&self) -> super::vars::Vars {
        super::vars::Vars::new(self.elements.len(), 0)
    }

    pub fn get(&self, id: Id) -> &Element<'t> {
        &self.elements[id]
    }

    pub fn push(&mut self, element: Element<'t>) -> Id {
        self.elements.push(element);
        self.elements.len() - 1
    }

    /// The elements of one kind, in the order they were written.
    pub fn of(&self, kind: Kind) -> impl Iterator<Item = Id> + '_ {
        self.elements
            .iter()
            .enumerate()
            .filter(move |(_, e)| e.kind == kind)
            .map(|(i, _)| i)
    }

    /// Every element, in the reference resolver's order.
    pub fn ordered(&self) -> Vec<Id> {
        Kind::ORDER.iter().flat_map(|k| self.of(*k)).collect()
    }

    /// § Element Identifier System: `node.a`, `property.p@0.node.a`.
    pub fn id(&self, id: Id) -> String {
        let e = &self.elements[id];
        let mut out = format!("{}.{}", e.kind.word(), e.name);
        if let Some(i) = e.index {
            out.push_str(&format!("@{i}"));
        }
        if let Some(c) = e.container {
            out.push('.');
            out.push_str(&self.id(c));
        }
        out
    }

    /// § Element Display System: `property "p@0" of node "a"`.
    pub fn display(&self, id: Id) -> String {
        let e = &self.elements[id];
        let mut out = format!("{} \"{}", e.kind.word(), e.name);
        if let Some(i) = e.index {
            out.push_str(&format!("@{i}"));
        }
        out.push('"');
        if let Some(c) = e.container {
            out.push_str(" of ");
            out.push_str(&self.display(c));
        }
        out
    }

    /// [`Model::display`] starting with a capital, as messages begin.
    pub fn display_upper(&self, id: Id) -> String {
        let d = self.display(id);
        let mut chars = d.chars();
        match chars.next() {
            Some(c) => c.to_uppercase().chain(chars).collect(),
            None => d,
        }
    }

    pub fn node_data(&self, id: Id) -> &NodeData {
        match &self.elements[id].data {
            Data::Node(n) => n,
            _ => unreachable!("element {id} is not a node"),
        }
    }

    pub fn relation_data(&self, id: Id) -> &RelationData {
        match &self.elements[id].data {
            Data::Relation(r) => r,
            _ => unreachable!("element {id} is not a relation"),
        }
    }

    /// A relation is a hosting relation when its name is `host`, or contains `host` between
    /// underscores (`host_one`, `primary_host`), as the reference resolver decides.
    pub fn is_hosting(&self, relation: Id) -> bool {
        let name = &self.elements[relation].name;
        name.split('_').any(|part| part == "host")
    }

    /// The hosting relations of a node.
    pub fn hostings(&self, node: Id) -> Vec<Id> {
        self.node_data(node)
            .outgoing
            .iter()
            .copied()
            .filter(|r| self.is_hosting(*r))
            .collect()
    }

    /// The names of a node's type and of every type it derives from (§ conditional types:
    /// only a node with one type has them).
    pub fn type_name(&self, element: Id) -> Option<&str> {
        let types = &self.elements[element].types;
        (types.len() == 1).then(|| self.elements[types[0]].name.as_str())
    }
}
