//! Quirks: named, documented lenient modes for what real-world files do that their
//! specification forbids (the idea is go-puccini's). Each quirk names the tool whose files need
//! it, so `--quirk winery` says exactly which deviations are accepted and why.

use clap::ValueEnum;

/// One lenient mode, chosen with `--quirk NAME` (repeatable).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, ValueEnum)]
pub enum Quirk {
    /// TOSCA 1.0 XML as Eclipse Winery and OpenTOSCA write it
    ///
    /// TOSCA 1.0 XML as Eclipse Winery and the OpenTOSCA ecosystem write it: the Winery
    /// key/value properties extension (`winery:PropertiesDefinition`), `name` on
    /// `ImplementationArtifact`, property elements in no namespace, imports without
    /// `importType` (inferred from the file extension), Winery-only elements in the TOSCA
    /// namespace (skipped), documents holding only imports, and QNames defined elsewhere in the
    /// Winery repository rather than imported (taken on trust, with a warning each).
    Winery,
    /// A Simple Profile keyname of a later version than the file declares
    ///
    /// Simple Profile files that use a keyname of a later Simple Profile version than the one
    /// they declare (`key_schema` in a `tosca_simple_yaml_1_2` file): the keyname is read, with a
    /// warning, instead of being an error. For files whose authors bumped the grammar but not
    /// the version line.
    NewerKeynames,
    /// `tosca_simple_yaml_1_1_0` and the like, read as the version it means
    ///
    /// `tosca_definitions_version: tosca_simple_yaml_1_1_0` (and `_1_2_0`, `_1_3_0`), as some
    /// tools of the 1.1 era write it: read as the two-part version it means, with a warning.
    ThreePartVersions,
    /// Newer keynames within ETSI NFV SOL001 definitions
    ///
    /// ETSI NFV SOL001 type files and the descriptors built on them. Within a SOL001
    /// definition (a type named `tosca.<kind>.nfv.…`, or any entity of a file whose `metadata`
    /// says `template_author: ETSI_NFV`), a keyname of a later Simple Profile version than the
    /// file declares (`operations:` and `notifications:` in an interface type, `key_schema`,
    /// artifact `checksum` in a `tosca_simple_yaml_1_2` file) is read with a warning instead of
    /// being an error: SOL001's 1.3-era grammar turns up in files that declare 1.2 (or that tools
    /// relabel, as OpenStack Tacker relabels v2.6.1 to `tosca_simple_yaml_1_0`). It is
    /// `newer-keynames` confined to SOL001 definitions, so a typo elsewhere stays an error.
    ///
    /// Not accepted, since SOL001 as published does not need it: the published v2.6.1 types
    /// (`tosca_simple_yaml_1_2`) and v4.4.1 types (`tosca_simple_yaml_1_3`) are read strictly
    /// without a diagnostic, and their `tosca.` names, `tosca.policies.Placement` bases and
    /// `range` properties are valid TOSCA. Descriptors that break SOL001's own constraints
    /// (`vnfm_info: [Tacker]` against its pattern) stay errors.
    EtsiNfv,
    /// TOSCA 2.0 `$in_range`, as the draft's examples and the community profiles call it
    ///
    /// `$in_range: [ <value>, [ <lower>, <upper> ] ]` in TOSCA 2.0, as the examples of the
    /// TOSCA 2.0 draft (§8.6 Node Filter Definition, §9.1.1.2 integer) and the OASIS community
    /// profiles call it: read as a built-in with both bounds included, checked and evaluated like
    /// the comparisons. csd07 defines no such function and OASIS's own conformance test says it
    /// must be rejected, so without the quirk it is an error whose hint gives the `$and` to write.
    InRange,
    /// What the OASIS TOSCA community's 2.0 profiles do: shadowed names, nested refinements
    ///
    /// The TOSCA 2.0 profiles of the OASIS TOSCA community (`io.kubernetes:1.35`,
    /// `community.tosca.*`): a type defined in a file shadows a same-named type the file imports
    /// into its root namespace (instead of making the name ambiguous, §6.8.4 Namespaces), and a
    /// `properties` block in a property definition (no keyname of one, §9.4 Property Definition) is
    /// read as a data type derived from the property's type that refines those properties, and a
    /// type name that names no type as written is read ignoring letter case when that names
    /// exactly one; each with a warning where the file does it.
    ///
    /// `community.tosca.technology.base:0.1` defines `Bash` and imports
    /// `community.tosca.core:0.1`, which defines `Bash` too, into its root namespace (see
    /// [`crate::model::names`] for the shadowing rule); `io.kubernetes:1.35` refines
    /// `Service.spec`, `Deployment.spec` and the `metadata` of several types so (see
    /// [`super::nested_refinements`]); `community.tosca.technology.kubernetes:0.1` types two
    /// properties `core:port` where the core profile defines `Port`. The type names written
    /// inside type definitions (a requirement definition's `node` and `relationship`, a
    /// capability, interface or artifact definition's `type`) that name no type are warnings:
    /// `io.kubernetes:1.35`'s `cluster` requirement names `base:KubernetesCluster`, which the
    /// base profile it expects it in does not define.
    OasisProfiles,
    /// Unknown keynames as warnings (ignored) instead of errors
    ///
    /// Keynames that no grammar of the file's dialect defines, in any dialect: each is a
    /// warning, and the keyname is ignored, instead of an error. Unknown keynames are errors by
    /// default because a misspelt one (`propertes:`) would otherwise drop what it holds without
    /// a word. For files written for a processor that reads extensions of its own, such as the
    /// `short_name:` of the type files in the OASIS TMForum example, which copies the
    /// "Shorthand Name" column of the Simple Profile's type tables into the YAML; the OASIS
    /// authors' own examples comment it out as "not a valid TOSCA keyname".
    UnknownKeynames,
}

/// The quirks in force for one run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Quirks(Vec<Quirk>);

impl Quirks {
    pub fn new(list: &[Quirk]) -> Self {
        let mut v = list.to_vec();
        v.sort();
        v.dedup();
        Quirks(v)
    }

    pub fn has(&self, q: Quirk) -> bool {
        self.0.contains(&q)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
