//! Built-in type libraries, embedded at build time.
//!
//! `simple/` holds the normative types of the TOSCA Simple Profile in YAML, one complete file per
//! version (1.0, 1.1, 1.2, 1.3), written from the specification. Each file is an ordinary TOSCA
//! file with types only, whose `tosca_definitions_version` is its own version, so the front end
//! reads it like any other file. A 1.x service template gets the file of its version implicitly.
//!
//! Next to each, `simple/nonnormative_1_x.yaml` holds the non-normative types of the 1.0
//! draft's Appendix D (Docker and VM ISO images, the Docker capability and application, MySQL,
//! Apache, WordPress, Node.js), which the specification's examples and OpenStack tosca-parser's
//! test files use as if they were built in; 1.3's also has what the OASIS 1.3 non-normative
//! library adds (the QCOW2 image and the Docker runtime node). A 1.x template gets them
//! implicitly too, read after the normative file of its version, and their shorthands work like
//! the normative ones (`Container.Docker`).
//!
//! A file that defines a type of the same name itself replaces the built-in definition. For a
//! normative type that is unusual and draws a warning (`tosca::duplicate`). For a non-normative
//! type it is ordinary: these are examples, and real files carry their own (tosca-parser's
//! `custom_types/wordpress.yaml` defines `tosca.nodes.WebApplication.WordPress`, and a 1.3 file
//! may import the OASIS non-normative profile), so the file's definition is used silently
//! ([`is_non_normative`]).
//!
//! `tosca2/` holds the TOSCA 2.0 profiles, which a 2.0 file gets only by importing them by name,
//! as 2.0 has no implicit types (§6.7.2 TOSCA Simple Profile): the TOSCA 2.0 simple profile
//! (`profile: org.oasis-open.simple:2.0`), and the compatibility profiles
//! `org.oasis-open.simple:1.0` to `1.3`, the normative types of each Simple Profile version under
//! their 1.x names (`tosca.nodes.Compute`) written in 2.0 grammar (`tosca2/simple_1_x.yaml`, from
//! `simple/tosca_simple_yaml_1_x.yaml` by the rules in its header). The non-normative Appendix D
//! types are not part of them.

/// One embedded profile file: its name (used as `<builtin>/NAME` in messages), its text, and its
/// YAML events recorded by `build.rs` (replayed instead of scanning the text again:
/// [`crate::yaml::load_recorded`]).
pub struct ProfileFile {
    pub name: &'static str,
    pub text: &'static str,
    pub events: &'static [u8],
}

/// The embedded file `src/profiles/PATH`, with its recorded events.
macro_rules! embedded {
    ($path:expr) => {
        ProfileFile {
            name: $path,
            text: include_str!($path),
            events: include_bytes!(concat!(
                env!("OUT_DIR"),
                "/profile-events/",
                $path,
                ".events"
            )),
        }
    };
}

/// The files of one Simple Profile version `1_x`: its normative types, then its non-normative
/// (Appendix D) types.
macro_rules! simple_files {
    ($v:literal) => {
        &[
            embedded!(concat!("simple/tosca_simple_yaml_", $v, ".yaml")),
            embedded!(concat!("simple/nonnormative_", $v, ".yaml")),
        ]
    };
}

const SIMPLE_1_0: &[ProfileFile] = simple_files!("1_0");
const SIMPLE_1_1: &[ProfileFile] = simple_files!("1_1");
const SIMPLE_1_2: &[ProfileFile] = simple_files!("1_2");
const SIMPLE_1_3: &[ProfileFile] = simple_files!("1_3");

/// Whether the embedded file of this name (`ProfileFile::name`) holds non-normative types,
/// which a user's file may redefine without a warning.
pub fn is_non_normative(name: &str) -> bool {
    [SIMPLE_1_0, SIMPLE_1_1, SIMPLE_1_2, SIMPLE_1_3]
        .iter()
        .any(|files| files[1..].iter().any(|f| f.name == name))
}

/// The TOSCA 2.0 simple profile (`tosca2/simple_2_0.yaml`; its header says where its
/// definitions come from and how they were brought into line with TOSCA 2.0).
const TOSCA2_SIMPLE: &[ProfileFile] = &[embedded!("tosca2/simple_2_0.yaml")];

/// The compatibility profile `org.oasis-open.simple:1.x` of one Simple Profile version: its
/// normative types in TOSCA 2.0 grammar (`tosca2/simple_1_x.yaml`, whose header gives the rules
/// by which it was written from `simple/tosca_simple_yaml_1_x.yaml`).
macro_rules! compatibility_files {
    ($v:literal) => {
        &[embedded!(concat!("tosca2/simple_", $v, ".yaml"))]
    };
}

const TOSCA2_SIMPLE_1_0: &[ProfileFile] = compatibility_files!("1_0");
const TOSCA2_SIMPLE_1_1: &[ProfileFile] = compatibility_files!("1_1");
const TOSCA2_SIMPLE_1_2: &[ProfileFile] = compatibility_files!("1_2");
const TOSCA2_SIMPLE_1_3: &[ProfileFile] = compatibility_files!("1_3");

/// The names of the TOSCA 2.0 profiles toscana embeds.
pub const TOSCA2_PROFILE_NAMES: &[&str] = &[
    "org.oasis-open.simple:2.0",
    "org.oasis-open.simple:1.3",
    "org.oasis-open.simple:1.2",
    "org.oasis-open.simple:1.1",
    "org.oasis-open.simple:1.0",
];

/// The second name of the 2.0 simple profile: `profile: org.oasis-open.tosca.simple:2.0` is how
/// §6.8.3 Examples imports it, while the profile itself declares `org.oasis-open.simple:2.0`.
pub const TOSCA2_SIMPLE_ALIAS: &str = "org.oasis-open.tosca.simple:2.0";

/// The embedded TOSCA 2.0 profile a 2.0 file imports by this name, if toscana ships it. Unlike
/// the Simple Profile's types for 1.x files, a 2.0 file gets it only by importing it (§6.7.2 TOSCA
/// Simple Profile). Besides the 2.0 simple profile, the 1.x normative types are there as the
/// compatibility profiles `org.oasis-open.simple:1.0` to `1.3`, under their 1.x names.
///
/// The 2.0 simple profile also answers to [`TOSCA2_SIMPLE_ALIAS`], the name the specification's
/// own example imports it by (§6.8.3 Examples): a file written from the specification must not
/// fail on the name its text teaches.
pub fn tosca2_profile(name: &str) -> Option<&'static [ProfileFile]> {
    match name {
        "org.oasis-open.simple:2.0" | TOSCA2_SIMPLE_ALIAS => Some(TOSCA2_SIMPLE),
        "org.oasis-open.simple:1.3" => Some(TOSCA2_SIMPLE_1_3),
        "org.oasis-open.simple:1.2" => Some(TOSCA2_SIMPLE_1_2),
        "org.oasis-open.simple:1.1" => Some(TOSCA2_SIMPLE_1_1),
        "org.oasis-open.simple:1.0" => Some(TOSCA2_SIMPLE_1_0),
        _ => None,
    }
}

/// The first embedded TOSCA 2.0 profile (in [`TOSCA2_PROFILE_NAMES`] order) that defines a type
/// `name` under `section` (`node_types`), for the hint of a 2.0 file that names the type without
/// importing the profile. The files are read as text: a section is a line `section:` and its
/// types are the keys indented by two spaces under it, as every embedded profile is written.
pub fn tosca2_profile_defining(section: &str, name: &str) -> Option<&'static str> {
    let header = format!("{section}:");
    TOSCA2_PROFILE_NAMES.iter().copied().find(|profile| {
        tosca2_profile(profile).into_iter().flatten().any(|file| {
            let mut in_section = false;
            file.text.lines().any(|line| {
                if !line.starts_with(' ') && !line.starts_with('#') && !line.is_empty() {
                    in_section = line.trim_end() == header;
                    return false;
                }
                in_section
                    && line
                        .strip_prefix("  ")
                        .filter(|rest| !rest.starts_with(' '))
                        .and_then(|rest| rest.trim_end().strip_suffix(':'))
                        == Some(name)
            })
        })
    })
}

/// The types a Simple Profile file of this `tosca_definitions_version` gets implicitly, normative
/// first, then non-normative; or None if the version is not a Simple Profile one.
pub fn simple_profile(version: &str) -> Option<&'static [ProfileFile]> {
    match version {
        "tosca_simple_yaml_1_0"
        | "tosca_simple_yaml_1_0_0"
        | "http://docs.oasis-open.org/tosca/ns/simple/yaml/1.0"
        | "http://docs.oasis-open.org/tosca/simple/1.0"
        | "tosca_simple_profile_for_nfv_1_0_0" => Some(SIMPLE_1_0),
        "tosca_simple_yaml_1_1" => Some(SIMPLE_1_1),
        "tosca_simple_yaml_1_2" => Some(SIMPLE_1_2),
        "tosca_simple_yaml_1_3" => Some(SIMPLE_1_3),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
