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
//! - [`topology`]: service templates: topology, boundary, plans;
//! - [`to_tosca2`]: the 1.3 tree rewritten as TOSCA 2.0, for `convert --to tosca_2_0`;
//! - [`rebase`]: artifact paths rewritten relative to the file `convert` writes.

mod build;
mod convert;
mod doc;
mod load;
mod meta;
mod names;
mod props;
pub mod rebase;
mod symbols;
pub mod to_tosca2;
mod topology;
mod types;

use std::collections::{HashMap, HashSet};

use crate::diag::{Diagnostic, Diagnostics};
use crate::quirk::Quirks;
use crate::source::{FileId, Loader, SourceMap};
use crate::yaml::Node;

pub use convert::{ConvertTarget, merge};
pub use doc::TOSCA_NS;
pub use meta::check_csar_meta;
pub(crate) use props::builtin as props_builtin;

/// The Simple Profile version XML is translated into.
pub const YAML_VERSION: &str = "tosca_simple_yaml_1_3";

/// What the XML became: one YAML tree per TOSCA document read (entry first), and the
/// constructs that have no YAML counterpart (reported by `toscana convert`).
pub struct Translated {
    pub trees: Vec<(FileId, Node)>,
    /// Some QName was taken on trust (`--quirk winery`), so types may be missing.
    pub incomplete: bool,
    pub lost: Vec<Lost>,
}

/// An XML construct the Simple Profile 1.3 tree does not hold.
pub struct Lost {
    /// What it is, as the warning names it (`` `InstanceStates` ``).
    pub what: String,
    /// The XML element.
    pub span: crate::source::Span,
    /// What TOSCA 2.0 says for it, when 2.0 has a counterpart that 1.3 lacks.
    pub tosca2: Option<Tosca2Only>,
}

impl Lost {
    /// The warning `toscana convert` gives when the dialect it writes (`TOSCA YAML 1.3`,
    /// `TOSCA 2.0`) has no counterpart.
    pub fn warning(&self, dialect: &str) -> Diagnostic {
        Diagnostic::warning(
            crate::diag::codes::XML_NO_COUNTERPART,
            format!("{} has no counterpart in {dialect}", self.what),
        )
        .at(self.span)
    }
}

/// A keyname TOSCA 2.0 has for an XML construct that 1.3 has not: `key: value` on the type
/// `type_name` of `section` (`valid_source_node_types` of a relationship type, say).
pub struct Tosca2Only {
    pub section: &'static str,
    pub type_name: String,
    pub key: &'static str,
    pub value: Node,
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
    csar_entry: Option<&str>,
    diags: &mut Diagnostics,
) -> Option<Translated> {
    let loaded = load::load(loader, entry, quirks, diags)?;
    let root = csar_root(loader.sources(), entry, csar_entry);
    translate(loader.sources(), &loaded, quirks, root, diags)
}

/// The folder of an unpacked CSAR (the entry's folder, up as many levels as Entry-Definitions
/// is deep); `None` for a zipped CSAR (paths inside it say where they are) or a plain file.
fn csar_root(
    sources: &SourceMap,
    entry: FileId,
    csar_entry: Option<&str>,
) -> Option<std::path::PathBuf> {
    let crate::source::Origin::Path(path) = &sources.get(entry).origin else {
        return None;
    };
    let depth = csar_entry?.trim_start_matches("./").matches('/').count();
    let mut root = path.parent()?.to_path_buf();
    for _ in 0..depth {
        root = root.parent()?.to_path_buf();
    }
    Some(root)
}

fn translate(
    sources: &SourceMap,
    loaded: &load::Loaded,
    quirks: &Quirks,
    csar_root: Option<std::path::PathBuf>,
    diags: &mut Diagnostics,
) -> Option<Translated> {
    // The loader parsed each file and reported what does not parse.
    let docs: Vec<(doc::Doc, load::Role)> = loaded
        .files
        .iter()
        .filter_map(|f| {
            let parsed = doc::parse_unreported(f.id, sources.get(f.id)).ok();
            parsed.map(|d| (d, f.role))
        })
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
        visible: visibility(&docs_only, loaded),
        schemas: HashMap::new(),
        own_schemas: HashMap::new(),
        policy_template_values: HashMap::new(),
        pending_interfaces: Vec::new(),
        trusted: Vec::new(),
        trusted_props: HashMap::new(),
        csar_root,
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
    if let Some((_, entry)) = trees.first_mut() {
        let stubs: Vec<(&str, Node, Node)> = x
            .trusted
            .iter()
            .filter_map(|(kind, name, span)| {
                let props = x.trusted_props.get(name).map(Vec::as_slice).unwrap_or(&[]);
                types::stub(*kind, *span, props).map(|(s, n)| (s, build::s(name, *span), n))
            })
            .collect();
        if !stubs.is_empty() {
            *entry = with_types(entry, stubs);
        }
    }
    Some(Translated {
        trees,
        incomplete: x.incomplete,
        lost: x.lost,
    })
}

/// Which documents each document sees: itself and what it imports directly.
fn visibility(docs: &[&doc::Doc], loaded: &load::Loaded) -> Vec<HashSet<usize>> {
    let index: HashMap<FileId, usize> = docs.iter().enumerate().map(|(i, d)| (d.id, i)).collect();
    let mut out: Vec<HashSet<usize>> = (0..docs.len()).map(|i| HashSet::from([i])).collect();
    for imp in &loaded.imports {
        if let (Some(&from), Some(&to)) = (index.get(&imp.importer), index.get(&imp.file)) {
            out[from].insert(to);
        }
    }
    out
}

/// The type sections a translated tree has, in the order they are written.
pub(crate) const TYPE_SECTIONS: [&str; 6] = [
    "artifact_types",
    "capability_types",
    "interface_types",
    "relationship_types",
    "node_types",
    "policy_types",
];

/// `tree` with `extra` definitions added to its type sections (`(section, name, definition)`).
/// Other keys keep their order; the type sections, in [`TYPE_SECTIONS`] order, stand where the
/// first of them stood, or before `topology_template`.
pub(crate) fn with_types(tree: &Node, extra: Vec<(&str, Node, Node)>) -> Node {
    use crate::yaml::{Kind, Map};
    let Some(map) = tree.as_map() else {
        return tree.clone();
    };
    let mut sections: Vec<(&str, crate::source::Span, Map)> = TYPE_SECTIONS
        .iter()
        .map(|s| (*s, tree.span, Map::new()))
        .collect();
    let mut add = |section: &str, key: Node, value: Node| {
        if let Some((_, _, m)) = sections.iter_mut().find(|(s, _, _)| *s == section) {
            let _ = m.insert(key, value);
        }
    };
    for e in map.entries() {
        let key = e.key.scalar_text().unwrap_or_default();
        if TYPE_SECTIONS.contains(&key) {
            for se in e.value.as_map().map(Map::entries).unwrap_or_default() {
                add(key, se.key.clone(), se.value.clone());
            }
        }
    }
    for (section, key, value) in extra {
        add(section, key, value);
    }
    let mut out = Map::new();
    let mut pending = Some(sections);
    for e in map.entries() {
        let key = e.key.scalar_text().unwrap_or_default();
        let is_section = TYPE_SECTIONS.contains(&key);
        if (is_section || key == "topology_template")
            && let Some(sections) = pending.take()
        {
            place(&mut out, sections);
        }
        if !is_section {
            let _ = out.insert(e.key.clone(), e.value.clone());
        }
    }
    if let Some(sections) = pending {
        place(&mut out, sections);
    }
    Node {
        span: tree.span,
        tag: None,
        style: crate::yaml::Style::Plain,
        kind: Kind::Map(out),
    }
}

fn place(out: &mut crate::yaml::Map, sections: Vec<(&str, crate::source::Span, crate::yaml::Map)>) {
    for (name, span, m) in sections {
        if !m.is_empty() {
            let node = Node {
                span,
                tag: None,
                style: crate::yaml::Style::Plain,
                kind: crate::yaml::Kind::Map(m),
            };
            let _ = out.insert(build::s(name, span), node);
        }
    }
}

/// The translation's state: the documents, the symbol table and what it found.
pub(crate) struct X<'d, 'a> {
    docs: &'d [&'d doc::Doc<'a>],
    roles: &'d [load::Role],
    sym: names::Symbols,
    quirks: &'d Quirks,
    diags: &'d mut Diagnostics,
    lost: Vec<Lost>,
    /// The folder of an unpacked CSAR, which artifact references are relative to.
    csar_root: Option<std::path::PathBuf>,
    /// For each document, the documents whose definitions it may use: itself and those it
    /// imports directly (imports are not transitive, X1-IMP-08).
    visible: Vec<HashSet<usize>>,
    incomplete: bool,
    /// Names taken on trust (`--quirk winery`), in the order met, with where first.
    trusted: Vec<(names::XKind, String, crate::source::Span)>,
    /// Property names the templates of a trusted type set, by type name.
    trusted_props: HashMap<String, Vec<String>>,
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
    /// The schema each type element declares itself, by (document, element): read, and
    /// reported, once, by whichever asks first (the type's own translation, or a template's
    /// [`X::schema_of`] of that type or of a type derived from it).
    own_schemas: HashMap<(usize, roxmltree::NodeId), Option<props::Schema>>,
    /// Each policy template's properties, by (document, element): read, and reported, once,
    /// by whichever asks first (the template's own translation, or a Policy whose policyRef
    /// names it).
    policy_template_values: HashMap<(usize, roxmltree::NodeId), Option<Node>>,
}
