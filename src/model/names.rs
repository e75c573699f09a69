//! TOSCA 2.0 namespaces: which type definitions a name written in a file can mean.
//!
//! Every TOSCA 2.0 file has an unnamed root namespace holding its own definitions and those of
//! the files it imports without a `namespace`; an import with `namespace: N` puts the imported
//! file's namespace under the prefix `N`, so its types read `N:Name`, and prefixes nest
//! (`my:k8s:Pod` is `Pod` of the `k8s` import of the file imported as `my`; §6.8.4 Namespaces,
//! T2-NS-01..03). A name is always read from the file it is written in, so the same words can
//! mean different types in different files.
//!
//! Importing a file into the root namespace brings in its whole namespace, named namespaces
//! included: if `mytypes.yaml` imports a profile as `k8s`, a file that imports `mytypes.yaml`
//! without a namespace can write `k8s:Pod`. The spec only shows the nested form (`my:k8s:Pod`);
//! reading a root import as transparent is the consistent extension of it. An unqualified name
//! is looked up in the root namespace only, never in named ones (T2-NS-10). A written name is
//! first read whole, then split at its first `:`, so a definition whose own name contains `:`
//! (warned about by the grammar) can still be named.
//!
//! # Type identity
//!
//! A type is keyed in [`super::Model::types`] by its *identity*: its name qualified by the
//! profile of its file, else by the chain of namespaces through which the entry first reached
//! the file (`fileB:MyNode`, `my:k8s:Pod`); the entry's own types and those imported into its
//! root namespace keep their bare names. A file that declares `profile: P` starts over: its types
//! and those of the files it imports are `P:Name`, `P:ns:Name` (§6.7.1 Grammar), so `Host` of
//! `org.base:v1` and `Host` of `org.base:v2` are two types (T2-PROF-06). A file reached twice is
//! read once and keeps the identity of its first reading, so its types are the same types
//! under every prefix (T2-IMPORT-13). The identity is what the IR shows in a type's ancestry.
//!
//! Two definitions with the same identity are two definitions of one name in one namespace,
//! which the front end reports (§6.8.4 Namespaces). Two types of different identities can still
//! both be visible under one name in one file (a file reached first through a namespace, then again
//! through a root import next to a definition of the same name): a reference to that name is
//! ambiguous, and is reported where it is written.
//!
//! # Shadowing (`--quirk oasis-profiles`)
//!
//! Some published profiles define a type and also import, into their root namespace, a file
//! that defines another type of that name (`community.tosca.technology.base:0.1` defines `Bash`
//! and imports `community.tosca.core:0.1`, which defines `Bash` too), meaning their own. The
//! spec makes that an error (§6.8.4 Namespaces); under the quirk a definition *shadows* the
//! same-named definitions its file imports into its root namespace, directly or through
//! further root imports, so the name means the definition nearest the file that writes it.
//! Two definitions neither of whose files imports the other stay ambiguous, and so do two
//! files that import each other. The front end warns at every shadowing definition.
//!
//! Simple Profile (1.x) files use only the qualifiers: a file imported with
//! `namespace_prefix: P` (and the files it imports, first reached through it) defines its types
//! as `P:Name`, so two prefixed imports may each define `Endpoint`. Their names are read in one
//! global namespace (`resolve::types`): a name written in a prefixed file is first read as its
//! own file's qualified name, then as written, as a shorthand, or with a known prefix dropped.
//! XML files keep one global namespace.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use crate::model::TypeKind;
use crate::source::FileId;

/// How the identities of a file's types are qualified: by a profile, then by namespaces.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Qualifier {
    /// The profile the file belongs to: its own `profile:`, or its importer's.
    pub profile: Option<String>,
    /// The namespaces from the profile's (or the entry's) root to the file.
    pub path: Vec<String>,
}

impl Qualifier {
    /// The qualifier of a file that declares `profile: name`.
    pub fn profile(name: &str) -> Self {
        Qualifier {
            profile: Some(name.to_string()),
            path: Vec::new(),
        }
    }

    /// The qualifier of a file this file imports, into `namespace` or the root namespace.
    pub fn imported(&self, namespace: Option<&str>) -> Self {
        let mut path = self.path.clone();
        path.extend(namespace.map(str::to_string));
        Qualifier {
            profile: self.profile.clone(),
            path,
        }
    }

    /// The identity of a type named `name` in a file of this qualifier.
    pub fn id(&self, name: &str) -> String {
        let mut id = String::new();
        for part in self.profile.iter().chain(&self.path) {
            id.push_str(part);
            id.push(':');
        }
        id.push_str(name);
        id
    }
}

/// What one file contributes to name lookup.
#[derive(Debug, Clone, Default)]
struct FileScope {
    qualifier: Qualifier,
    /// Files imported without a namespace, in import order.
    root: Vec<FileId>,
    /// Files imported into a named namespace, in import order.
    named: Vec<(String, FileId)>,
    /// Imports that could not be read: into the root namespace (`None`) or a named one.
    failed: Vec<Option<String>>,
    /// What the file defines: (space, name as defined, identity), in source order.
    defines: Vec<(Space, String, String)>,
}

/// The kinds of names that live in namespaces: the types of each kind, repositories and
/// custom functions (§10.4 Function Definitions: "namespacing works as for types").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Space {
    Type(TypeKind),
    Repository,
    Function,
}

/// A file's root namespace gathered from every file in it, so a lookup costs one hash probe
/// however many files are imported into it.
#[derive(Debug, Default)]
struct RootIndex {
    /// (space, name) → the identities of that name, each with the file defining it, in import
    /// order.
    names: HashMap<(Space, String), Vec<(String, FileId)>>,
    /// Namespace prefix → the files imported under it, in import order.
    namespaces: HashMap<String, Vec<FileId>>,
    /// The namespaces of imports that could not be read (`None`: the root namespace).
    failed: Vec<Option<String>>,
}

/// How [`Namespaces::collect`] compares names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Case {
    Exact,
    /// Equal but for letter case (`--quirk oasis-profiles`).
    Ignored,
}

/// The namespaces of every TOSCA 2.0 file read; see the module docs.
#[derive(Debug, Clone, Default)]
pub struct Namespaces {
    files: HashMap<FileId, FileScope>,
    /// Where a name is read when the file it was written in is not known.
    entry: Option<FileId>,
    /// Root namespaces gathered on first use; cleared whenever a file, import or definition
    /// is added, since the front end resolves repositories while it still reads files.
    index: RefCell<HashMap<FileId, Rc<RootIndex>>>,
    /// Whether a definition shadows the same-named ones its file imports into its root
    /// namespace (`--quirk oasis-profiles`; see the module docs).
    shadowing: bool,
}

/// A definition that shadows another of the same name (see [`Namespaces::shadowed_in`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shadowing {
    /// What kind of definition it is.
    pub space: Space,
    pub name: String,
    /// The identity of the shadowing definition (the file's own).
    pub own: String,
    /// The identity of the definition it shadows.
    pub hidden: String,
}

impl Namespaces {
    /// Registers a file on its first reading, with the qualifier of its types. The first file
    /// registered is the entry.
    pub fn enter(&mut self, file: FileId, qualifier: Qualifier) {
        self.index.get_mut().clear();
        self.entry.get_or_insert(file);
        self.files.entry(file).or_insert(FileScope {
            qualifier,
            ..FileScope::default()
        });
    }

    /// Lets definitions shadow the same-named ones their files import into their root
    /// namespaces (`--quirk oasis-profiles`), instead of making the name ambiguous.
    pub fn allow_shadowing(&mut self) {
        self.index.get_mut().clear();
        self.shadowing = true;
    }

    /// The qualifier of a registered file's types (none for a file not registered).
    pub fn qualifier(&self, file: FileId) -> Qualifier {
        self.files
            .get(&file)
            .map(|s| s.qualifier.clone())
            .unwrap_or_default()
    }

    /// The identity of a type `name` defined in `file`.
    pub fn id(&self, file: FileId, name: &str) -> String {
        match self.files.get(&file) {
            Some(scope) => scope.qualifier.id(name),
            None => name.to_string(),
        }
    }

    /// The scope of `file`, to be changed: what was gathered from it is stale.
    fn scope_mut(&mut self, file: FileId) -> &mut FileScope {
        self.index.get_mut().clear();
        self.files.entry(file).or_default()
    }

    /// Records that `importer` imports `imported`, into `namespace` or its root namespace.
    pub fn import(&mut self, importer: FileId, imported: FileId, namespace: Option<&str>) {
        let scope = self.scope_mut(importer);
        match namespace {
            Some(ns) => scope.named.push((ns.to_string(), imported)),
            None => scope.root.push(imported),
        }
    }

    /// Records that an import of `importer`, into `namespace` or its root namespace, could not
    /// be read (and was reported).
    pub fn failed(&mut self, importer: FileId, namespace: Option<&str>) {
        self.scope_mut(importer)
            .failed
            .push(namespace.map(str::to_string));
    }

    /// Records that `file` defines a type `name` of `kind` whose identity is `id`.
    pub fn define(&mut self, file: FileId, kind: TypeKind, name: &str, id: &str) {
        self.scope_mut(file)
            .defines
            .push((Space::Type(kind), name.to_string(), id.to_string()));
    }

    /// Records that `file` defines a repository `name` whose identity is `id`.
    pub fn define_repository(&mut self, file: FileId, name: &str, id: &str) {
        self.scope_mut(file)
            .defines
            .push((Space::Repository, name.to_string(), id.to_string()));
    }

    /// Records that `file` defines a custom function `name` whose identity is `id`.
    pub fn define_function(&mut self, file: FileId, name: &str, id: &str) {
        self.scope_mut(file)
            .defines
            .push((Space::Function, name.to_string(), id.to_string()));
    }

    /// The identities of the custom functions `written` (a call's name without `$`) can mean
    /// in `from`, as [`Self::lookup`] gives those of types.
    pub fn lookup_function(&self, written: &str, from: FileId) -> Vec<String> {
        self.find_all(Space::Function, written, from)
    }

    /// The identities of the types `written` can mean in `from`, in the order the imports list
    /// them: none when it names nothing, one when it is a proper reference, more when it is
    /// ambiguous.
    pub fn lookup(&self, kind: TypeKind, written: &str, from: FileId) -> Vec<String> {
        self.find_all(Space::Type(kind), written, from)
    }

    /// The identities of the repositories `written` can mean in `from`, as [`Self::lookup`]
    /// gives those of types: repository names live in the same namespaces (§6.8.4 Namespaces).
    pub fn lookup_repository(&self, written: &str, from: FileId) -> Vec<String> {
        self.find_all(Space::Repository, written, from)
    }

    fn find_all(&self, space: Space, written: &str, from: FileId) -> Vec<String> {
        let mut found = Vec::new();
        if let Some(from) = self.scope_of(from) {
            self.collect(space, written, from, Case::Exact, &mut found);
        }
        found
    }

    /// What `written` names from `from`: in its root namespace, whole, else through the
    /// namespace its first prefix names. With [`Case::Ignored`] the names of the root namespace
    /// are scanned for one equal but for letter case: that runs only for a name unknown as
    /// written.
    fn collect(
        &self,
        space: Space,
        written: &str,
        from: FileId,
        case: Case,
        found: &mut Vec<String>,
    ) {
        let index = self.root_index(from);
        let exact = match case {
            Case::Exact => index
                .names
                .get(&(space, written.to_string()))
                .map(Vec::as_slice),
            Case::Ignored => None,
        };
        let scanned: Vec<&[(String, FileId)]> = match case {
            Case::Exact => Vec::new(),
            Case::Ignored => index
                .names
                .iter()
                .filter(|((s, name), _)| *s == space && name.eq_ignore_ascii_case(written))
                .map(|(_, c)| c.as_slice())
                .collect(),
        };
        for candidates in exact.into_iter().chain(scanned) {
            for (id, file) in candidates {
                let hidden = self.shadowing
                    && candidates
                        .iter()
                        .any(|(other, by)| other != id && self.shadows(*by, *file));
                if !hidden && !found.contains(id) {
                    found.push(id.clone());
                }
            }
        }
        if !found.is_empty() {
            return;
        }
        let Some((prefix, rest)) = written.split_once(':') else {
            return;
        };
        for &imported in index.namespaces.get(prefix).map_or(&[][..], Vec::as_slice) {
            self.collect(space, rest, imported, case, found);
        }
    }

    /// Whether, under the shadowing quirk, a definition in `by` shadows one of the same name in
    /// `file` (see [`Self::would_shadow`]).
    pub fn shadows(&self, by: FileId, file: FileId) -> bool {
        self.shadowing && self.would_shadow(by, file)
    }

    /// Whether a definition in `by` would shadow one in `file` under the shadowing quirk:
    /// `file` is in `by`'s root namespace and not the other way round.
    pub fn would_shadow(&self, by: FileId, file: FileId) -> bool {
        by != file
            && self.root_namespace(by).contains(&file)
            && !self.root_namespace(file).contains(&by)
    }

    /// Under the shadowing quirk, the definitions of `file` that shadow others its root imports
    /// bring in (none without the quirk), in the order the file defines them.
    pub fn shadowed_in(&self, file: FileId) -> Vec<Shadowing> {
        let Some(scope) = self.files.get(&file).filter(|_| self.shadowing) else {
            return Vec::new();
        };
        let index = self.root_index(file);
        let mut out = Vec::new();
        for (space, name, own) in &scope.defines {
            let candidates = index
                .names
                .get(&(*space, name.clone()))
                .map_or(&[][..], Vec::as_slice);
            for (hidden, defined_in) in candidates {
                if hidden != own && self.shadows(file, *defined_in) {
                    out.push(Shadowing {
                        space: *space,
                        name: name.clone(),
                        own: own.clone(),
                        hidden: hidden.clone(),
                    });
                }
            }
        }
        out
    }

    /// Whether `--quirk oasis-profiles` is on: definitions shadow, and a name unknown as written
    /// is read ignoring letter case ([`Self::lookup_ignoring_case`]).
    pub fn reads_oasis_profiles(&self) -> bool {
        self.shadowing
    }

    /// What `written` (unknown in `from`) names when letter case is ignored, the namespace
    /// prefix excepted: `core:port` for the `Port` of the profile imported as `core`
    /// (`community.tosca.technology.kubernetes:0.1` writes it so). Names are case-sensitive
    /// (YAML keys are, and the profiles' own examples write `core:Port`): the resolver reads a
    /// name so only under `--quirk oasis-profiles`, and otherwise names the type in its error.
    /// Sorted, so that more than one is reported in one order.
    pub fn lookup_ignoring_case(&self, kind: TypeKind, written: &str, from: FileId) -> Vec<String> {
        let mut found = Vec::new();
        if let Some(from) = self.scope_of(from) {
            self.collect(Space::Type(kind), written, from, Case::Ignored, &mut found);
        }
        found.sort();
        found
    }

    /// Whether `written`, unknown in `from`, may be defined in an import that could not be read:
    /// one into the namespace its prefix names, or into the root namespace for a plain name.
    pub fn maybe_unread(&self, written: &str, from: FileId) -> bool {
        let Some(from) = self.scope_of(from) else {
            return false;
        };
        let index = self.root_index(from);
        let failed = |ns: Option<&str>| index.failed.iter().any(|n| n.as_deref() == ns);
        match written.split_once(':') {
            None => failed(None),
            Some((prefix, rest)) => {
                failed(None)
                    || failed(Some(prefix))
                    || index
                        .namespaces
                        .get(prefix)
                        .map_or(&[][..], Vec::as_slice)
                        .iter()
                        .any(|&imported| self.maybe_unread(rest, imported))
            }
        }
    }

    /// The first namespace prefix of `written` that does not name a namespace where it is
    /// read (from `from`, then inside each namespace it names), if one does not.
    pub fn unknown_prefix<'w>(&self, written: &'w str, from: FileId) -> Option<&'w str> {
        let from = self.scope_of(from)?;
        let (prefix, rest) = written.split_once(':')?;
        let index = self.root_index(from);
        let mut missing = Some(prefix);
        for &imported in index.namespaces.get(prefix).map_or(&[][..], Vec::as_slice) {
            match self.unknown_prefix(rest, imported) {
                None => return None,
                Some(deeper) => missing = Some(deeper),
            }
        }
        missing
    }

    /// The file whose namespaces a name written in `file` is read in: the file itself, or the
    /// entry for text that is no file read (a `--set` value).
    fn scope_of(&self, file: FileId) -> Option<FileId> {
        if self.files.contains_key(&file) {
            Some(file)
        } else {
            self.entry
        }
    }

    /// `file`'s root namespace, gathered once (until something is added).
    fn root_index(&self, file: FileId) -> Rc<RootIndex> {
        if let Some(index) = self.index.borrow().get(&file) {
            return Rc::clone(index);
        }
        let mut index = RootIndex::default();
        for f in self.root_namespace(file) {
            let Some(scope) = self.files.get(&f) else {
                continue;
            };
            for (space, name, id) in &scope.defines {
                let ids = index.names.entry((*space, name.clone())).or_default();
                if !ids.iter().any(|(known, _)| known == id) {
                    ids.push((id.clone(), f));
                }
            }
            for (ns, imported) in &scope.named {
                let files = index.namespaces.entry(ns.clone()).or_default();
                if !files.contains(imported) {
                    files.push(*imported);
                }
            }
            index.failed.extend(scope.failed.iter().cloned());
        }
        let index = Rc::new(index);
        self.index.borrow_mut().insert(file, Rc::clone(&index));
        index
    }

    /// The files whose definitions are in `file`'s root namespace: itself, then what it imports
    /// without a namespace, transitively.
    pub fn root_namespace(&self, file: FileId) -> Vec<FileId> {
        let mut seen = HashSet::from([file]);
        let mut out = vec![file];
        let mut next = 0;
        while let Some(&f) = out.get(next) {
            next += 1;
            for &imported in self.files.get(&f).map_or(&[][..], |s| &s.root[..]) {
                if seen.insert(imported) {
                    out.push(imported);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NODE: TypeKind = TypeKind::Node;

    /// Registers `file` with `qualifier` and defines each name in it.
    fn file(ns: &mut Namespaces, id: u32, qualifier: Qualifier, names: &[&str]) -> FileId {
        let file = FileId(id);
        ns.enter(file, qualifier);
        let q = ns.qualifier(file);
        for name in names {
            ns.define(file, NODE, name, &q.id(name));
        }
        file
    }

    #[test]
    fn identities_carry_profile_and_namespace_path() {
        let root = Qualifier::default();
        assert_eq!(root.id("A"), "A");
        let nested = root.imported(Some("my")).imported(Some("k8s"));
        assert_eq!(nested.id("Pod"), "my:k8s:Pod");
        assert_eq!(nested.imported(None).id("Pod"), "my:k8s:Pod");
        let p = Qualifier::profile("org.base:v1");
        assert_eq!(p.id("Host"), "org.base:v1:Host");
        assert_eq!(p.imported(Some("x")).id("Host"), "org.base:v1:x:Host");
    }

    #[test]
    fn names_resolve_from_the_file_they_are_written_in() {
        let mut ns = Namespaces::default();
        let entry = file(&mut ns, 0, Qualifier::default(), &["MyNode"]);
        let b = file(
            &mut ns,
            1,
            Qualifier::default().imported(Some("fileB")),
            &["MyNode"],
        );
        ns.import(entry, b, Some("fileB"));
        assert_eq!(ns.lookup(NODE, "MyNode", entry), ["MyNode"]);
        assert_eq!(ns.lookup(NODE, "fileB:MyNode", entry), ["fileB:MyNode"]);
        // In B itself, its own MyNode.
        assert_eq!(ns.lookup(NODE, "MyNode", b), ["fileB:MyNode"]);
        assert!(ns.lookup(NODE, "fileC:MyNode", entry).is_empty());
        // An unqualified name does not reach into named namespaces.
        assert!(ns.lookup(NODE, "Other", entry).is_empty());
    }

    #[test]
    fn prefixes_nest_and_root_imports_are_transparent() {
        let mut ns = Namespaces::default();
        let main = file(&mut ns, 0, Qualifier::default(), &[]);
        let my = file(
            &mut ns,
            1,
            Qualifier::default().imported(Some("my")),
            &["MyType"],
        );
        let k8s_qualifier = ns.qualifier(my).imported(Some("k8s"));
        let k8s = file(&mut ns, 2, k8s_qualifier, &["Pod"]);
        let lib = file(&mut ns, 3, Qualifier::default(), &[]);
        ns.import(main, my, Some("my"));
        ns.import(my, k8s, Some("k8s"));
        ns.import(main, lib, None);
        ns.import(lib, my, None);
        assert_eq!(ns.lookup(NODE, "my:k8s:Pod", main), ["my:k8s:Pod"]);
        assert_eq!(ns.lookup(NODE, "my:MyType", main), ["my:MyType"]);
        // Through the root import of `lib`, which imports `my` into its root namespace.
        assert_eq!(ns.lookup(NODE, "MyType", main), ["my:MyType"]);
        assert_eq!(ns.lookup(NODE, "k8s:Pod", main), ["my:k8s:Pod"]);
        assert!(ns.lookup(NODE, "my:Pod", main).is_empty());
        assert_eq!(ns.unknown_prefix("my:Pod", main), None);
        assert_eq!(ns.unknown_prefix("my:k9s:Pod", main), Some("k9s"));
        assert_eq!(ns.unknown_prefix("your:Pod", main), Some("your"));
        assert_eq!(ns.unknown_prefix("Pod", main), None);
    }

    #[test]
    fn a_name_in_another_case_is_found_only_ignoring_case_and_keeps_its_prefix() {
        let mut ns = Namespaces::default();
        let main = file(&mut ns, 0, Qualifier::default(), &[]);
        let core = file(&mut ns, 1, Qualifier::profile("core:0.1"), &["Port"]);
        ns.import(main, core, Some("core"));
        assert!(ns.lookup(NODE, "core:port", main).is_empty());
        assert_eq!(
            ns.lookup_ignoring_case(NODE, "core:port", main),
            ["core:0.1:Port"]
        );
        // The prefix names a namespace as written; only the type's name is compared so.
        assert!(ns.lookup_ignoring_case(NODE, "CORE:Port", main).is_empty());
        assert!(ns.lookup_ignoring_case(NODE, "core:Ports", main).is_empty());
    }

    #[test]
    fn one_name_for_two_types_is_ambiguous_and_one_file_twice_is_not() {
        let mut ns = Namespaces::default();
        let main = file(&mut ns, 0, Qualifier::default(), &["T"]);
        let b = file(
            &mut ns,
            1,
            Qualifier::default().imported(Some("b")),
            &["T", "U"],
        );
        let c = file(&mut ns, 2, Qualifier::default(), &[]);
        ns.import(main, b, Some("b"));
        ns.import(main, c, None);
        ns.import(c, b, None);
        assert_eq!(ns.lookup(NODE, "T", main), ["T", "b:T"]);
        assert_eq!(ns.lookup(NODE, "U", main), ["b:U"]);
    }

    #[test]
    fn names_that_may_come_from_an_unread_import_are_known_as_such() {
        let mut ns = Namespaces::default();
        let main = file(&mut ns, 0, Qualifier::default(), &[]);
        let lib = file(&mut ns, 1, Qualifier::default().imported(Some("lib")), &[]);
        ns.import(main, lib, Some("lib"));
        ns.failed(main, Some("k8s"));
        ns.failed(lib, None);
        assert!(ns.maybe_unread("k8s:Pod", main));
        assert!(!ns.maybe_unread("Pod", main));
        assert!(!ns.maybe_unread("other:Pod", main));
        // `lib` lost a root import, so anything under its namespace may be there.
        assert!(ns.maybe_unread("lib:Pod", main));
        assert!(ns.maybe_unread("lib:x:Pod", main));
    }

    #[test]
    fn repositories_live_in_the_same_namespaces() {
        let mut ns = Namespaces::default();
        let main = file(&mut ns, 0, Qualifier::default(), &[]);
        let lib = file(&mut ns, 1, Qualifier::default().imported(Some("lib")), &[]);
        ns.import(main, lib, Some("lib"));
        ns.define_repository(main, "code", "code");
        ns.define_repository(lib, "code", "lib:code");
        assert_eq!(ns.lookup_repository("code", main), ["code"]);
        assert_eq!(ns.lookup_repository("lib:code", main), ["lib:code"]);
        assert_eq!(ns.lookup_repository("code", lib), ["lib:code"]);
        assert!(ns.lookup(NODE, "code", main).is_empty());
    }

    #[test]
    fn a_name_with_a_colon_is_read_whole_first() {
        let mut ns = Namespaces::default();
        let main = file(&mut ns, 0, Qualifier::default(), &["p2:Odd"]);
        let p2 = file(&mut ns, 1, Qualifier::profile("x:1"), &["Odd"]);
        ns.import(main, p2, Some("p2"));
        assert_eq!(ns.lookup(NODE, "p2:Odd", main), ["p2:Odd"]);
        assert_eq!(ns.lookup(NODE, "p2:Odd", FileId(99)), ["p2:Odd"]);
        assert_eq!(ns.lookup(NODE, "Odd", p2), ["x:1:Odd"]);
    }

    #[test]
    fn under_the_quirk_a_definition_shadows_what_its_file_imports() {
        // base defines T and imports core, which defines T, into its root namespace; k8s
        // imports base as `base`; main imports k8s into its root and core as `c`.
        let mut ns = Namespaces::default();
        let main = file(&mut ns, 0, Qualifier::default(), &[]);
        let k8s = file(&mut ns, 1, Qualifier::profile("k8s:1"), &[]);
        let base = file(&mut ns, 2, Qualifier::profile("base:1"), &["T"]);
        let core = file(&mut ns, 3, Qualifier::profile("core:1"), &["T", "U"]);
        let other = file(&mut ns, 4, Qualifier::profile("other:1"), &["T"]);
        ns.import(main, k8s, None);
        ns.import(main, other, None);
        ns.import(k8s, base, Some("base"));
        ns.import(base, core, None);
        // Strict: both are `T` in base's root namespace.
        assert_eq!(ns.lookup(NODE, "base:T", k8s), ["base:1:T", "core:1:T"]);
        assert!(ns.shadowed_in(base).is_empty());
        ns.allow_shadowing();
        assert_eq!(ns.lookup(NODE, "base:T", k8s), ["base:1:T"]);
        assert_eq!(ns.lookup(NODE, "base:U", k8s), ["core:1:U"]);
        assert_eq!(ns.lookup(NODE, "T", base), ["base:1:T"]);
        assert_eq!(
            ns.shadowed_in(base),
            [Shadowing {
                space: Space::Type(NODE),
                name: "T".into(),
                own: "base:1:T".into(),
                hidden: "core:1:T".into(),
            }]
        );
        assert!(ns.shadowed_in(core).is_empty());
        // Through a root import, base's T still shadows core's; `other`'s T is no import of
        // base's, so in main `T` stays ambiguous.
        ns.import(k8s, base, None);
        assert_eq!(ns.lookup(NODE, "T", k8s), ["base:1:T"]);
        assert_eq!(ns.lookup(NODE, "T", main), ["other:1:T", "base:1:T"]);
        // Files that import each other shadow neither.
        ns.import(core, base, None);
        assert_eq!(ns.lookup(NODE, "T", base), ["base:1:T", "core:1:T"]);
    }
}
