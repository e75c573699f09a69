//! Type ancestry: each type with its parents, most specific first, computed once per type.
//!
//! Names resolve per kind: a defined name as it is, else a Simple Profile shorthand of a
//! normative type (`Compute`, `Storage.BlockStorage`, `tosca:Compute` for
//! `tosca.nodes.Compute`). Data types may end their chain at a primitive type (`integer`).

use std::collections::HashMap;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::hash::{FastMap, FastSet};
use crate::ir::{Dialect, TypeNames};
use crate::model::{Model, TypeDef, TypeKind};
use crate::source::{FileId, Span};

/// The primitive types a data type may derive from (Simple Profile and TOSCA 2.0).
const PRIMITIVES: &[&str] = &[
    "string",
    "integer",
    "float",
    "boolean",
    "timestamp",
    "null",
    "nil",
    "bytes",
    "version",
    "range",
    "list",
    "map",
    "scalar-unit.size",
    "scalar-unit.time",
    "scalar-unit.frequency",
    "scalar-unit.bitrate",
    "scalar",
];

/// Memoized ancestries. Every chain is walked once, so the whole catalogue costs time linear in
/// the number of types, whatever order templates ask in.
pub struct Ancestry {
    /// Type identity → its ancestry (identities, most specific first), per kind (indexed by
    /// [`kind_index`]). Keyed by name alone so a lookup borrows the name instead of building a
    /// `(kind, String)` key: these maps are asked several times per node template.
    /// Shared: every element of a type points to its list ([`TypeNames`]).
    cache: [FastMap<String, TypeNames>; KINDS],
    /// Shorthand → full name of the normative types read, per kind; ambiguous ones left out.
    shorthands: HashMap<(TypeKind, String), String>,
    /// (kind, file written in) → name as written → the identities it can mean.
    lookups: FastMap<(TypeKind, FileId), FastMap<String, Vec<String>>>,
    /// Types whose chain passes [`Model::max_type_depth`], per kind: their ancestries are cut
    /// at the limit, and the chain is reported once, at the first of them.
    too_deep: [FastSet<String>; KINDS],
    /// (kind, file, name as written) of the names found only when letter case is ignored
    /// (`--quirk oasis-profiles`), and the places already warned about.
    case_folded: FastSet<(TypeKind, FileId, String)>,
    case_warned: FastSet<Span>,
}

const KINDS: usize = TypeKind::ALL.len();

/// The position of `kind` in [`TypeKind::ALL`], for per-kind tables.
fn kind_index(kind: TypeKind) -> usize {
    kind as usize
}

/// `(kind, name)` as a key of [`Model::types`] without allocating the name: it hashes as the
/// `(TypeKind, String)` key does (a derived `Hash` hashes the fields in order, and a `String`
/// hashes as its `str`).
#[derive(Hash)]
pub(crate) struct TypeRef<'a>(pub TypeKind, pub &'a str);

impl indexmap::Equivalent<(TypeKind, String)> for TypeRef<'_> {
    fn equivalent(&self, key: &(TypeKind, String)) -> bool {
        self.0 == key.0 && self.1 == key.1
    }
}

impl Ancestry {
    /// Indexes the shorthands of the normative (`tosca.`) types the model holds. Only the
    /// Simple Profile has shorthands; TOSCA 2.0 names are what they are.
    ///
    /// The shorthand is the name after the kind's prefix (`Compute`, `Storage.BlockStorage`,
    /// `tosca:Compute`); a trailing part of it (`BlockStorage`, `NetworkInfo`) also works when
    /// no other normative type of that kind has it as its whole shorthand or trailing part.
    pub fn new(model: &Model) -> Self {
        // Form → (priority, full name or None when ambiguous at that priority); 0 is an exact
        // shorthand, 1 a trailing part.
        let mut shorthands: HashMap<(TypeKind, String), (u8, Option<String>)> = HashMap::new();
        if model.dialect != Dialect::Tosca2 {
            for (kind, name) in model.types.keys() {
                let Some(rest) = name.strip_prefix(kind.normative_prefix()) else {
                    continue;
                };
                let mut forms = vec![(0, rest.to_string()), (0, format!("tosca:{rest}"))];
                let mut suffix = rest;
                while let Some((_, shorter)) = suffix.split_once('.') {
                    forms.push((1, shorter.to_string()));
                    forms.push((1, format!("tosca:{shorter}")));
                    suffix = shorter;
                }
                for (priority, form) in forms {
                    let slot = shorthands
                        .entry((*kind, form))
                        .or_insert((priority, Some(name.clone())));
                    if priority < slot.0 {
                        *slot = (priority, Some(name.clone()));
                    } else if priority == slot.0 && slot.1.as_deref() != Some(name.as_str()) {
                        slot.1 = None;
                    }
                }
            }
        }
        let shorthands = shorthands
            .into_iter()
            .filter_map(|(k, (_, v))| v.map(|v| (k, v)))
            .collect();
        Ancestry {
            cache: Default::default(),
            shorthands,
            lookups: FastMap::default(),
            too_deep: Default::default(),
            case_folded: FastSet::default(),
            case_warned: FastSet::default(),
        }
    }

    /// The one place a type name is read: the identities (keys of [`Model::types`]) that `name`,
    /// written in file `from`, can mean. TOSCA 2.0 reads it in the namespaces of that file
    /// ([`crate::model::names`]); more than one identity means the name is ambiguous there. The
    /// Simple Profile has one namespace: the name itself, else the normative type it is a
    /// shorthand of, else `prefix:Name` read as `Name`.
    fn lookup(&mut self, model: &Model, kind: TypeKind, name: &str, from: FileId) -> &[String] {
        let known = self
            .lookups
            .get(&(kind, from))
            .is_some_and(|names| names.contains_key(name));
        if !known {
            let found = if model.dialect == Dialect::Tosca2 {
                let exact = model.namespaces.lookup(kind, name, from);
                if exact.is_empty() && model.namespaces.reads_oasis_profiles() {
                    let folded = model.namespaces.lookup_ignoring_case(kind, name, from);
                    if !folded.is_empty() {
                        self.case_folded.insert((kind, from, name.to_string()));
                    }
                    folded
                } else {
                    exact
                }
            } else {
                self.global_name(model, kind, name, from)
                    .into_iter()
                    .collect()
            };
            self.lookups
                .entry((kind, from))
                .or_default()
                .insert(name.to_string(), found);
        }
        &self.lookups[&(kind, from)][name]
    }

    /// A Simple Profile name written in file `from`: first the name as the file's own prefixed
    /// scope qualifies it (a file imported with `namespace_prefix: k8s` defines `k8s:Port`,
    /// and writes `Port` for it), then itself, a shorthand, or `prefix:Name` of a prefixed
    /// import read in the one global namespace.
    fn global_name(
        &self,
        model: &Model,
        kind: TypeKind,
        name: &str,
        from: FileId,
    ) -> Option<String> {
        let qualifier = model.namespaces.qualifier(from);
        if !qualifier.path.is_empty() {
            let qualified = qualifier.id(name);
            if model.types.contains_key(&TypeRef(kind, &qualified)) {
                return Some(qualified);
            }
        }
        self.unqualified_name(model, kind, name)
    }

    /// [`Self::global_name`] in the one global namespace.
    fn unqualified_name(&self, model: &Model, kind: TypeKind, name: &str) -> Option<String> {
        if model.types.contains_key(&TypeRef(kind, name)) {
            return Some(name.to_string());
        }
        if let Some(full) = self.shorthands.get(&(kind, name.to_string())) {
            return Some(full.clone());
        }
        let (prefix, rest) = name.split_once(':')?;
        if model.namespace_prefixes.contains(prefix) {
            return self.unqualified_name(model, kind, rest);
        }
        None
    }

    /// The identity of the type `name` stands for in file `from`: the name itself, the type it
    /// is a shorthand of (Simple Profile), or the namespaced type it names (TOSCA 2.0); `None`
    /// when it names no type of this kind there. An ambiguous name gives the first of its
    /// meanings; [`Ancestry::of`] and [`Ancestry::resolve`] report it.
    pub fn full_name(
        &mut self,
        model: &Model,
        kind: TypeKind,
        name: &str,
        from: FileId,
    ) -> Option<String> {
        self.lookup(model, kind, name, from).first().cloned()
    }

    /// [`Ancestry::full_name`] of a name written at `at`, reporting there a name that means two
    /// types. `None` when it names no type (unreported: the caller knows what else it may be).
    pub fn resolve(
        &mut self,
        model: &Model,
        kind: TypeKind,
        name: &str,
        at: Span,
        diags: &mut Diagnostics,
    ) -> Option<String> {
        let found = self.lookup(model, kind, name, at.file);
        if found.len() > 1 {
            diags.push(ambiguous(model, kind, name, found, at));
        }
        let first = found.first().cloned();
        if !self.case_folded.is_empty()
            && let Some(id) = &first
            && self
                .case_folded
                .contains(&(kind, at.file, name.to_string()))
            && self.case_warned.insert(at)
        {
            diags.push(case_folded(model, kind, name, id, at));
        }
        first
    }

    /// The ancestry of `name`, written at `used_at` (most specific first), reporting unknown,
    /// ambiguous and cyclic types. An unknown type still gets an ancestry of its own name, so
    /// one mistake does not cascade into a hundred.
    pub fn of(
        &mut self,
        model: &Model,
        kind: TypeKind,
        name: &str,
        used_at: Span,
        diags: &mut Diagnostics,
    ) -> TypeNames {
        match self.resolve(model, kind, name, used_at, diags) {
            Some(full) => self.walk(model, kind, &full, Some(diags)),
            None => {
                if !tolerated(model, name, used_at) {
                    unknown_type(self, model, kind, name, used_at, diags);
                }
                TypeNames::from([name.to_string()])
            }
        }
    }

    /// The ancestry of `name` as written at `used_at`, like [`Ancestry::of`] but reporting
    /// nothing: for a second reading of a type name that another pass reads with `of` and
    /// reports there (unknown, ambiguous, cyclic), so each fact is reported once, where it is
    /// read. An unknown name is its own ancestry, as with `of`.
    pub fn of_reported_elsewhere(
        &mut self,
        model: &Model,
        kind: TypeKind,
        name: &str,
        used_at: Span,
    ) -> TypeNames {
        match self.full_name(model, kind, name, used_at.file) {
            Some(full) => self.chain(model, kind, &full),
            None => TypeNames::from([name.to_string()]),
        }
    }

    /// The ancestry of the type whose identity is `id` (a key of [`Model::types`], or a name
    /// that is none, which is its own ancestry). Reports nothing: what is wrong with a type's
    /// derivation is [`Ancestry::check_all`]'s to report, once, however often its ancestry is
    /// asked. After `check_all` every type's ancestry is known, so this only reads it; before
    /// it, the walk is remembered unreported, and `check_all` would say nothing of it: so
    /// `check_all` comes first (`resolve::resolve`).
    pub fn chain(&mut self, model: &Model, kind: TypeKind, id: &str) -> TypeNames {
        self.walk(model, kind, id, None)
    }

    /// Walks every type defined in the files read, so a bad derivation is reported even in a
    /// type no template uses. Memoized: linear in the number of types.
    pub fn check_all(&mut self, model: &Model, diags: &mut Diagnostics) {
        for (kind, id) in model.types.keys() {
            self.walk(model, *kind, id, Some(diags));
        }
    }

    /// The ancestry of `start`, reporting what is wrong with it into `diags` when given.
    fn walk(
        &mut self,
        model: &Model,
        kind: TypeKind,
        start: &str,
        mut diags: Option<&mut Diagnostics>,
    ) -> TypeNames {
        let mut chain: Vec<String> = Vec::new();
        let mut on_chain: FastMap<String, usize> = FastMap::default();
        let mut current = start.to_string();
        // The ancestry the chain ends in, and whether it was cut at the depth limit.
        let (tail, cut): (Vec<String>, bool) = loop {
            if let Some(known) = self.cache[kind_index(kind)].get(current.as_str()) {
                if chain.is_empty() {
                    return known.clone();
                }
                let cut = self.too_deep[kind_index(kind)].contains(current.as_str());
                break (known.to_vec(), cut);
            }
            if let Some(&pos) = on_chain.get(current.as_str()) {
                if let Some(diags) = diags.as_deref_mut() {
                    report_cycle(model, kind, &chain[pos..], diags);
                }
                break (Vec::new(), false);
            }
            let Some(def) = model.types.get(&TypeRef(kind, &current)) else {
                break (vec![current], false);
            };
            on_chain.insert(current.clone(), chain.len());
            chain.push(current.clone());
            let Some((parent, span)) = &def.derived_from else {
                break (Vec::new(), false);
            };
            let found = self.lookup(model, kind, parent, span.file);
            if found.len() > 1
                && let Some(diags) = diags.as_deref_mut()
            {
                diags.push(ambiguous(model, kind, parent, found, *span));
            }
            match found.first().cloned() {
                Some(full) => current = full,
                None if kind == TypeKind::Data && PRIMITIVES.contains(&parent.as_str()) => {
                    break (vec![parent.clone()], false);
                }
                None => {
                    let Some(diags) = diags.as_deref_mut() else {
                        break (vec![parent.clone()], false);
                    };
                    if let Some(other) = self.defined_as_other_kind(model, kind, parent, *span) {
                        diags.push(
                            Diagnostic::error(
                                codes::TOSCA_UNKNOWN_TYPE,
                                format!(
                                    "{} `{}` derives from `{parent}`, which is a {}",
                                    kind.noun(),
                                    def.name,
                                    other.noun()
                                ),
                            )
                            .at(*span)
                            .hint(format!(
                                "a {} derives from another {}",
                                kind.noun(),
                                kind.noun()
                            )),
                        );
                    } else if !tolerated(model, parent, *span) {
                        unknown_type(self, model, kind, parent, *span, diags);
                    }
                    break (vec![parent.clone()], false);
                }
            }
        };
        if chain.is_empty() {
            return TypeNames::from(tail);
        }
        // Cache every suffix of the chain: each type on it has the rest as its ancestry, cut
        // at the depth limit (a chain of n types would otherwise keep n² names).
        let limit = model.max_type_depth.max(1);
        let mut full = chain;
        let own = full.len();
        full.extend(tail);
        let mut reported = cut;
        let mut first = None;
        for i in (0..own).rev() {
            let too_deep = full.len() - i > limit;
            if too_deep {
                if !reported && let Some(diags) = diags.as_deref_mut() {
                    reported = true;
                    report_too_deep(model, kind, &full[i], limit, diags);
                }
                self.too_deep[kind_index(kind)].insert(full[i].clone());
            }
            let end = full.len().min(i + limit);
            let shared = TypeNames::from(&full[i..end]);
            self.cache[kind_index(kind)].insert(full[i].clone(), shared.clone());
            first = Some(shared);
        }
        first.unwrap_or_default()
    }
}

/// A type whose chain of `derived_from` is longer than the limit, at its `derived_from`.
fn report_too_deep(
    model: &Model,
    kind: TypeKind,
    name: &str,
    limit: usize,
    diags: &mut Diagnostics,
) {
    let def = &model.types[&TypeRef(kind, name)];
    let at = def.derived_from.as_ref().map_or(def.span, |(_, s)| *s);
    diags.push(
        Diagnostic::error(
            codes::TOSCA_LIMIT,
            format!(
                "the chain of `derived_from` from {} `{}` to its root holds more than {limit} types, the limit",
                kind.noun(),
                def.name
            ),
        )
        .at(at)
        .hint(format!(
            "types derived from it are cut at the limit too; {}",
            crate::limits::Limit::TypeDepth.hint()
        )),
    );
}

/// The definitions along an ancestry (most specific first), for the types on it that were read.
/// Takes a computed ancestry, so a problem with the type is reported once, where it was computed.
pub fn definitions<'m>(model: &'m Model, kind: TypeKind, ancestry: &[String]) -> Vec<&'m TypeDef> {
    ancestry
        .iter()
        .filter_map(|name| model.types.get(&TypeRef(kind, name)))
        .collect()
}

/// An unknown name that is not an error: when an import could not be followed (reported where
/// it is written), the name may well be defined there. Unknown XML types are taken on trust
/// (`incomplete_types`); a TOSCA 2.0 name only when an import it may come from failed.
pub(super) fn tolerated(model: &Model, name: &str, at: Span) -> bool {
    model.incomplete_types
        || (model.dialect == Dialect::Tosca2 && model.namespaces.maybe_unread(name, at.file))
}

impl Ancestry {
    /// The other kind of type `name`, written at `at`, names, if it names one.
    fn defined_as_other_kind(
        &mut self,
        model: &Model,
        kind: TypeKind,
        name: &str,
        at: Span,
    ) -> Option<TypeKind> {
        TypeKind::ALL
            .into_iter()
            .find(|k| *k != kind && !self.lookup(model, *k, name, at.file).is_empty())
    }
}

/// A name that means two or more types where it is written, with each definition labelled.
fn ambiguous(model: &Model, kind: TypeKind, name: &str, ids: &[String], at: Span) -> Diagnostic {
    let listed = ids
        .iter()
        .map(|id| format!("`{id}`"))
        .collect::<Vec<_>>()
        .join(" and ");
    let mut d = Diagnostic::error(
        codes::TOSCA_AMBIGUOUS,
        format!(
            "{} `{name}` is ambiguous here: it names {listed}",
            kind.noun()
        ),
    )
    .at_with(
        at,
        "more than one type has this name in this file's namespace",
    );
    let mut files = Vec::new();
    for id in ids {
        if let Some(def) = model.types.get(&(kind, id.clone())) {
            d = d.label(def.span, format!("`{id}` is defined here"));
            files.push(def.span.file);
        }
    }
    let shadowing = files
        .iter()
        .any(|&by| files.iter().any(|&f| model.namespaces.would_shadow(by, f)));
    d.hint(if shadowing {
        "names are unique in a namespace (§6.8.4 Namespaces): import one of the files with `namespace: N` and write `N:Name` for its type, or rename one of the types; one file defines the name and also imports the other definition into its root namespace, which `--quirk oasis-profiles` reads as its own definition shadowing the imported one"
    } else {
        "import one of the files with `namespace: N` and write `N:Name` for its type, or rename one of the types"
    })
}

/// A name that means a type only when letter case is ignored, read so under `--quirk
/// oasis-profiles`.
fn case_folded(model: &Model, kind: TypeKind, name: &str, id: &str, at: Span) -> Diagnostic {
    let written = spelt_as(model, kind, name, id);
    let defined = written.rsplit(':').next().unwrap_or(&written).to_string();
    Diagnostic::warning(
        codes::TOSCA_UNKNOWN_TYPE,
        format!(
            "{} `{name}` names no type as written (names are case-sensitive); read as `{written}` (--quirk oasis-profiles)",
            kind.noun()
        ),
    )
    .at_with(at, format!("`{id}` is spelt `{defined}`"))
    .hint(format!("write `{written}`"))
}

/// `name` as it should have been written to name the type `id`: its namespace prefix, then the
/// type's name as defined (`core:port` → `core:Port`).
fn spelt_as(model: &Model, kind: TypeKind, name: &str, id: &str) -> String {
    let defined = model
        .types
        .get(&TypeRef(kind, id))
        .map_or(id, |def| def.name.as_str());
    match name.rsplit_once(':') {
        Some((prefix, _)) => format!("{prefix}:{defined}"),
        None => defined.to_string(),
    }
}

fn unknown_type(
    ancestry: &mut Ancestry,
    model: &Model,
    kind: TypeKind,
    name: &str,
    at: Span,
    diags: &mut Diagnostics,
) {
    if model.dialect == Dialect::Tosca2
        && let Some(prefix) = model.namespaces.unknown_prefix(name, at.file)
    {
        diags.push(
            Diagnostic::error(
                codes::TOSCA_UNKNOWN_NAMESPACE,
                format!("unknown namespace `{prefix}` in {} `{name}`", kind.noun()),
            )
            .at_with(at, format!("no import of this file has `namespace: {prefix}`"))
            .hint("a prefix names the `namespace` of an import of the file the name is written in (§6.8.4 Namespaces); import the file that defines the type with that namespace, or drop the prefix"),
        );
        return;
    }
    let mut d = Diagnostic::error(
        codes::TOSCA_UNKNOWN_TYPE,
        format!("unknown {} `{name}`", kind.noun()),
    )
    .at_with(at, "not defined in any file read");
    let suffix = format!(":{name}");
    let prefixed = (model.dialect != Dialect::Tosca2)
        .then(|| {
            model
                .types
                .keys()
                .find(|(k, id)| *k == kind && id.ends_with(&suffix))
        })
        .flatten();
    let other_case = if model.dialect == Dialect::Tosca2 {
        model.namespaces.lookup_ignoring_case(kind, name, at.file)
    } else {
        Vec::new()
    };
    if let Some((_, id)) = prefixed {
        // Simple Profile `namespace_prefix` imports: the name lives under its prefix.
        d = d.hint(format!(
            "`{id}` is defined in a file imported with `namespace_prefix`, whose definitions are named with the prefix by the files that import it: write `{id}`"
        ));
    } else if let Some(other) = ancestry.defined_as_other_kind(model, kind, name, at) {
        d = d.hint(format!(
            "`{name}` is a {}, not a {}",
            other.noun(),
            kind.noun()
        ));
    } else if let [id] = other_case.as_slice() {
        let written = spelt_as(model, kind, name, id);
        d = d.hint(format!(
            "names are case-sensitive: write `{written}`; `--quirk oasis-profiles` reads `{name}` as `{written}`, with a warning, for the OASIS community's profiles that write it so"
        ));
    } else if let Some(profile) = (model.dialect == Dialect::Tosca2)
        .then(|| crate::profiles::tosca2_profile_defining(kind.section(), name))
        .flatten()
    {
        // TOSCA 2.0 imports no types implicitly (§6.7.2 TOSCA Simple Profile): `Compute` needs
        // the profile that defines it.
        d = d.hint(format!(
            "`{name}` is a type of the profile `{profile}`, which a TOSCA 2.0 file must import: `imports: [ {{ profile: {profile} }} ]`; imported with `namespace: p`, write `p:{name}`"
        ));
    } else {
        let mut known: Vec<&str> = Vec::new();
        for ((k, id), def) in &model.types {
            if *k == kind {
                known.push(def.name.as_str());
                if *id != def.name {
                    known.push(id.as_str());
                }
            }
        }
        // The Simple Profile's shorthands (`WebApplication`) are names too.
        known.extend(
            ancestry
                .shorthands
                .keys()
                .filter(|(k, _)| *k == kind)
                .map(|(_, form)| form.as_str()),
        );
        known.sort_unstable();
        known.dedup();
        d = d.did_you_mean(
            name,
            &known,
            Some(format!(
                "define it under `{}` or import the file that does",
                kind.section()
            )),
        );
    }
    diags.push(d);
}

fn report_cycle(model: &Model, kind: TypeKind, cycle: &[String], diags: &mut Diagnostics) {
    let first = &model.types[&(kind, cycle[0].clone())];
    let mut names: Vec<&str> = cycle.iter().map(String::as_str).collect();
    names.push(&cycle[0]);
    let mut d = Diagnostic::error(
        codes::TOSCA_CYCLE,
        format!("{} derivation cycle: {}", kind.noun(), names.join(" → ")),
    );
    d = d.at_with(
        first.derived_from.as_ref().map_or(first.span, |(_, s)| *s),
        "derives from itself through this chain",
    );
    for name in &cycle[1..] {
        if let Some((_, span)) = &model.types[&(kind, name.clone())].derived_from {
            d = d.label(*span, format!("`{name}` derives from here"));
        }
    }
    diags.push(d.hint("break the chain: one of these types must derive from another parent"));
}

#[cfg(test)]
mod tests {
    use super::*;
    use indexmap::IndexMap;

    /// A borrowed key finds what the owned key stored, whichever hasher the map uses: the two
    /// must hash alike, or lookups would silently miss.
    #[test]
    fn a_borrowed_type_key_finds_the_owned_one() {
        let names = ["tosca.nodes.Compute", "", "a.very.long.type.name.Level5"];
        let mut std_map: IndexMap<(TypeKind, String), usize> = IndexMap::new();
        let mut fast_map: IndexMap<(TypeKind, String), usize, foldhash::fast::RandomState> =
            IndexMap::default();
        for (i, name) in names.iter().enumerate() {
            std_map.insert((TypeKind::Node, name.to_string()), i);
            fast_map.insert((TypeKind::Node, name.to_string()), i);
        }
        for (i, name) in names.iter().enumerate() {
            assert_eq!(std_map.get(&TypeRef(TypeKind::Node, name)), Some(&i));
            assert_eq!(fast_map.get(&TypeRef(TypeKind::Node, name)), Some(&i));
            assert_eq!(fast_map.get(&TypeRef(TypeKind::Data, name)), None);
        }
    }
}
