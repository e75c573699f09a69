//! TOSCA 1.0 XML (the 2013 OASIS standard; the CSD06 schema plus its two later changes).
//!
//! The XML is not given a model of its own: each `Definitions` document is translated into the
//! YAML tree of a `tosca_simple_yaml_1_3` file, every node spanned at the XML element or
//! attribute it came from, and those trees are read by the Simple Profile front end and the
//! resolver like any other. So every backend works on XML, `toscana convert` writes the same
//! trees as YAML, and every diagnostic points into the XML.
//!
//! The stages, one module each:
//! - [`load`]: the entry and its imports (TOSCA definitions and XML Schemas; WSDL is recorded),
//!   the root element (a CSD02 draft is named and refused);
//! - [`symbols`]: every definition by kind and expanded name, XSD elements and types, ids;
//! - [`names`]: QNames and the naming rule for translated types;
//! - [`props`]: property definitions (XSD element/type, Winery key/value) and values;
//! - [`types`]: types and their implementations;
//! - [`topology`]: service templates: topology, boundary, plans.

mod build;
pub mod command;
mod doc;
mod load;
mod names;
mod props;
mod symbols;
mod topology;
mod types;

use std::collections::{HashMap, HashSet};

use crate::diag::{Diagnostic, Diagnostics};
use crate::front::quirk::Quirks;
use crate::source::{FileId, Loader, SourceMap};
use crate::yaml::Node;

pub use doc::TOSCA_NS;
pub(crate) use props::builtin as props_builtin;

/// The Simple Profile version XML is translated into.
pub const YAML_VERSION: &str = "tosca_simple_yaml_1_3";

/// What the XML became: one YAML tree per TOSCA document read (entry first), and the
/// constructs that have no YAML counterpart (reported by `toscana convert`).
pub struct Translated {
    pub trees: Vec<(FileId, Node)>,
    /// Some QName was taken on trust (`--quirk winery`), so types may be missing.
    pub incomplete: bool,
    pub lost: Vec<Diagnostic>,
}

/// Whether a text is an XML document (toscana's cue to read it as TOSCA 1.0 XML).
pub fn looks_like_xml(text: &str) -> bool {
    text.trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with('<')
}

/// Reads the XML entry and its imports and translates them. `None` when the entry cannot be
/// read as TOSCA 1.0 XML at all.
pub fn read(
    loader: &mut Loader,
    entry: FileId,
    quirks: &Quirks,
    diags: &mut Diagnostics,
) -> Option<Translated> {
    let loaded = load::load(loader, entry, quirks, diags)?;
    translate(loader.sources(), &loaded, quirks, diags)
}

fn translate(
    sources: &SourceMap,
    loaded: &load::Loaded,
    quirks: &Quirks,
    diags: &mut Diagnostics,
) -> Option<Translated> {
    let mut quiet = Diagnostics::with_cap(0);
    let docs: Vec<(doc::Doc, load::Role)> = loaded
        .files
        .iter()
        .filter_map(|f| doc::parse(f.id, sources.get(f.id), &mut quiet).map(|d| (d, f.role)))
        .collect();
    let docs_only: Vec<&doc::Doc> = docs.iter().map(|(d, _)| d).collect();
    let roles: Vec<load::Role> = docs.iter().map(|(_, r)| *r).collect();
    let mut x = X {
        docs: &docs_only,
        roles: &roles,
        sym: names::Symbols::default(),
        quirks,
        diags,
        lost: Vec::new(),
        incomplete: false,
        interface_types: HashSet::new(),
        impls: HashMap::new(),
        namespace_only: loaded.namespace_only.clone(),
        schemas: HashMap::new(),
        pending_interfaces: Vec::new(),
    };
    symbols::collect(&mut x);
    symbols::check_imports(&mut x, loaded);
    types::collect_implementations(&mut x);
    let mut trees = Vec::new();
    for (i, role) in roles.iter().enumerate() {
        if *role == load::Role::Tosca {
            let tree = types::document(&mut x, i, i == 0);
            trees.push((docs_only[i].id, tree));
        }
    }
    Some(Translated {
        trees,
        incomplete: x.incomplete,
        lost: x.lost,
    })
}

/// The translation's state: the documents, the symbol table and what it found.
pub(crate) struct X<'d, 'a> {
    docs: &'d [&'d doc::Doc<'a>],
    roles: &'d [load::Role],
    sym: names::Symbols,
    quirks: &'d Quirks,
    diags: &'d mut Diagnostics,
    lost: Vec<Diagnostic>,
    incomplete: bool,
    /// Interface type names already written into some tree.
    interface_types: HashSet<String>,
    /// Node type / relationship type (translated name) → its implementations in reading order.
    impls: HashMap<String, Vec<names::Def>>,
    /// Namespaces imported without a location (their definitions were not read).
    namespace_only: Vec<String>,
    /// Interface types to write into the tree being built.
    pending_interfaces: Vec<(String, crate::source::Span)>,
    /// Property schemas already worked out, by type name.
    schemas: HashMap<String, Option<props::Schema>>,
}
