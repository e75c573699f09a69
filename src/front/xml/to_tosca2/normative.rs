//! The Simple Profile 1.3 types a converted file uses, for a 2.0 file to define itself.
//!
//! TOSCA 2.0 has no normative types and no implicit imports (T2-DIFF-01, §6.7.2 TOSCA Simple
//! Profile). The XML's types derive from the 1.3 normative types (`tosca.nodes.Root` for a type
//! with no `DerivedFrom`, `tosca.nodes.Compute` for Winery's `Compute`), and their meaning (the
//! `state` attribute, the `feature` capability, the `dependency` requirement a node-to-node
//! relationship uses) is theirs. The 2.0 simple profile (`org.oasis-open.simple:2.0`) is not
//! the same library: its `Root` has no `tosca_id`, its `state` no default, its scalar types
//! other units. So the 2.0 file defines the 1.3 types it uses, under their 1.3 names: every
//! type its definitions name, directly or through other normative types, taken from the
//! embedded 1.3 profile. Backends match those names as they match the 2.0 profile's
//! (`ir::family`).
//!
//! 1.3's built-in `range` and `scalar-unit.*` types are no built-ins in 2.0 (T2-DIFF-06): a
//! file that uses them defines them, as a list of two integers and as scalar types with 1.3's
//! units.
//!
//! `range` is written as the compatibility profile `org.oasis-open.simple:1.3` writes it
//! (`src/profiles/tosca2/simple_1_3.yaml`): `derived_from: list`, `entry_schema: integer`, a
//! length of two. 2.0 mandates the entry schema ("For data types that derive from the TOSCA list
//! or map data types, the mandatory schema definition for the entries", §9.2 Data Type) and has
//! no type for "an integer or `UNBOUNDED`" (no union type; `UNBOUNDED` survives only in
//! `count_range`'s own grammar), so a range's upper bound is an integer in 2.0. The XML
//! reader writes no range values (XML properties are not typed by `range`); what uses the type
//! is the normative `PortSpec`, whose port ranges are bounded, and a 1.3 `in_range` over a range
//! becomes bounds on its two integers ([`super::validation`]).

use std::collections::HashSet;

use crate::diag::Diagnostic;
use crate::limits::Limits;
use crate::source::{Origin, SourceMap, Span};
use crate::yaml::{Kind, Map, Node};

use super::TypeKind;
use super::build::{self, M};
use super::names::Names;

/// The 1.3 profile's files (normative, then non-normative), read.
pub struct Library {
    files: Vec<Node>,
}

impl Library {
    /// The embedded 1.3 profile, read. Each of its files reads clean (`profiles::tests` loads
    /// every one and asserts no diagnostic); were one not to, it is left out rather than
    /// stopping the conversion, and what its reading found goes into `lost`, placed in the
    /// embedded file.
    pub fn load(lost: &mut Vec<Diagnostic>) -> Library {
        let mut sources = SourceMap::new();
        let mut files = Vec::new();
        for file in crate::profiles::simple_profile(super::super::YAML_VERSION).unwrap_or_default()
        {
            let id = sources.add(file.name, Origin::Builtin(file.name.to_string()), file.text);
            match crate::yaml::load_recorded_own(&sources, id, file.events, &Limits::default()) {
                Ok(root) => files.push(root),
                Err(found) => lost.extend(crate::yaml::placed_by_name(&sources, found)),
            }
        }
        Library { files }
    }

    /// The definition of type `name` in `section`.
    pub fn get(&self, section: TypeKind, name: &str) -> Option<&Node> {
        self.files
            .iter()
            .find_map(|f| f.as_map()?.get(section.section())?.as_map()?.get(name))
    }

    /// Every type, with its section, in file order.
    fn types(&self) -> impl Iterator<Item = (TypeKind, &str, &Node)> {
        self.files.iter().flat_map(|f| {
            f.as_map()
                .map(Map::entries)
                .unwrap_or_default()
                .iter()
                .filter_map(|e| Some((TypeKind::of_section(e.key.scalar_text()?)?, &e.value)))
                .flat_map(|(section, defs)| {
                    defs.as_map()
                        .map(Map::entries)
                        .unwrap_or_default()
                        .iter()
                        .filter_map(move |t| Some((section, t.key.scalar_text()?, &t.value)))
                })
        })
    }
}

/// What a file uses that 2.0 does not give it: library types and 1.3 built-in types.
pub struct Used<'l> {
    /// Types of the library, in library order, as 1.3 defines them.
    pub types: Vec<(TypeKind, &'l str, &'l Node)>,
    /// The 1.3 built-ins it needs, defined in 2.0.
    pub builtins: Vec<(TypeKind, &'static str, Node)>,
}

/// The library types `root` uses, directly or through others, that it does not define itself.
pub fn used<'l>(library: &'l Library, root: &Map, names: &Names) -> Used<'l> {
    let by_name: std::collections::HashMap<&str, &Node> =
        library.types().map(|(_, name, def)| (name, def)).collect();
    let mut mentioned: HashSet<String> = HashSet::new();
    let mut wanted: HashSet<&str> = HashSet::new();
    let mut queue: Vec<&Node> = root.entries().iter().map(|e| &e.value).collect();
    while let Some(node) = queue.pop() {
        match &node.kind {
            Kind::Scalar(s) => {
                if let Some((name, def)) = by_name.get_key_value(&*s.text)
                    && !names.defines(name)
                    && wanted.insert(name)
                {
                    queue.push(def);
                }
                mentioned.insert(s.text.to_string());
            }
            Kind::Seq(items) => queue.extend(items),
            Kind::Map(m) => queue.extend(m.entries().iter().map(|e| &e.value)),
        }
    }
    let types = library
        .types()
        .filter(|(_, name, _)| wanted.remove(name))
        .collect();
    let span = Span::default();
    let mut builtins = Vec::new();
    for unit_type in [
        "scalar-unit.size",
        "scalar-unit.time",
        "scalar-unit.frequency",
        "scalar-unit.bitrate",
    ] {
        if mentioned.contains(unit_type)
            && !names.defines(unit_type)
            && let Some(def) = scalar_type(unit_type, span)
        {
            builtins.push((TypeKind::Data, unit_type, def));
        }
    }
    if mentioned.contains("range") && !names.defines("range") {
        builtins.push((TypeKind::Data, "range", range_type(span)));
    }
    Used { types, builtins }
}

/// A 1.3 scalar-unit type as a 2.0 scalar type with the same units. 1.3 matches most unit
/// names ignoring case; a 2.0 unit is matched as written, so values are best written with the
/// units as listed.
fn scalar_type(name: &str, span: Span) -> Option<Node> {
    let table = crate::model::literals::simple_profile_units(name)?;
    let mut m = M::new(span);
    m.put(
        "description",
        span,
        build::s(format!("TOSCA Simple Profile 1.3's `{name}`."), span),
    );
    m.put("derived_from", span, build::s("scalar", span));
    m.put("data_type", span, build::s("float", span));
    let mut units = M::new(span);
    for (unit, factor) in &table.units {
        let number = if factor.fract() == 0.0 && factor.abs() < 9.0e15 {
            build::int(*factor as i64, span)
        } else {
            build::float(*factor, span)
        };
        units.put(unit, span, number);
    }
    m.put("units", span, units.done());
    m.put("canonical_unit", span, build::s(&table.canonical, span));
    Some(m.done())
}

/// 1.3's `range` in 2.0: a list of two integers (see the module docs for `UNBOUNDED`).
fn range_type(span: Span) -> Node {
    let call = |f: &str, args: Vec<Node>| {
        let mut m = M::new(span);
        m.put(f, span, build::seq(args, span));
        m.done()
    };
    let length = call("$length", vec![build::s("$value", span)]);
    let mut m = M::new(span);
    m.put(
        "description",
        span,
        build::s(
            "TOSCA Simple Profile 1.3's `range`: a lower and an upper bound, as a list of two integers (UNBOUNDED has no 2.0 counterpart).",
            span,
        ),
    );
    m.put("derived_from", span, build::s("list", span));
    m.put("entry_schema", span, build::s("integer", span));
    m.put(
        "validation",
        span,
        call("$equal", vec![length, build::int(2, span)]),
    );
    m.done()
}
