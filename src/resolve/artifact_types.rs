//! Which artifact type a file's extension tells: the type an artifact gets when it is written as
//! a file alone.
//!
//! Both dialects let a file stand for an artifact whose type is not written:
//! - Simple Profile: the short notation `<artifact_name>: <artifact_file_URI>` "may be used when
//!   the artifact's type and mime type can be inferred from the file URI" (A.5.5.2.1 Short
//!   notation), and an operation's `implementation` names an artifact "or the direct name of an
//!   implementation artifact's relative filename" (A.5.11 Operation definition), which the
//!   orchestrator reads as a file of a normative implementation artifact type, `db_create.sh`
//!   as a `tosca.artifacts.Implementation.Bash` (6 TOSCA template for database content
//!   deployment). The extensions are the artifact types' `file_ext`, "the optional list of one
//!   or more recognized file extensions for this type of artifact type" (A.6.3 Artifact Type;
//!   checklist SP-ARTT-02, SP-ARTD-02, SP-OP-04).
//! - TOSCA 2.0: `file_ext` is "the optional list of one or more recognized file extensions for
//!   this type of artifact type" (§12.1 Artifact Type); an implementation string that names no
//!   artifact is an implicit artifact whose type is inferred from `file_ext` (checklist
//!   T2-IMPL-03, §11.8 Operation and Notification Implementations).
//!
//! Decisions the specs leave open, taken here:
//! - **Only a type that writes `file_ext` claims an extension.** §12.1 lets a derived type
//!   inherit `file_ext` ("a new definition ... will overwrite the one inherited"), but a type
//!   that merely inherits it says nothing about files: were it to claim `sh`, every user type
//!   derived from `Implementation.Bash` would make `.sh` files ambiguous or its own.
//! - **The most derived claimant wins.** When two claimants of one extension lie on one
//!   derivation chain (a profile's `Implementation.Python` and a template's `Python3` derived
//!   from it, both `py`), the derived one is the later, narrower statement, and the artifact's
//!   ancestry still lists the other, so whatever asks for the ancestor still finds it.
//! - **Claimants on different branches are ambiguous**: neither is more right, so the artifact
//!   keeps no type and the reader warns (the file is still used).
//! - **The longest extension wins**: `backup.tar.gz` is `tar.gz` before `gz`. Extensions
//!   compare without letter case (`INSTALL.SH`), and a URL's query or fragment is not part of
//!   its file name. A dot that starts the name (`.bashrc`) starts no extension.
//! - **An implementation file whose extension no type lists stays untyped, unwarned.** The
//!   checklist's T2-IMPL-03 suggests a warning; but the Simple Profile lets an implementation be
//!   any "relative filename" (A.5.11), only `sh` and `py` are listed by the profiles, and an
//!   Ansible playbook (`site.yml`) is a correct implementation, which gets no warning here
//!   (`tests/no_warnings.rs`). A *short artifact definition* of such a file is warned about
//!   (`artifact_defs`): its notation is only for files whose type can be inferred (A.5.5.2.1).
//! - **Every artifact type read counts**, in whatever file or namespace it is defined: the
//!   specs name no scope, and the types that claim extensions are the profiles' few.

use std::collections::HashSet;

use crate::hash::FastMap;
use crate::model::{Model, TypeKind};

use super::types::Ancestry;

/// What a file's extension tells of its artifact type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Inferred<'t> {
    /// One type claims the extension (or is the most derived of the claimants): its identity.
    Type(&'t str),
    /// Types of different branches claim the extension, none derived from another.
    Ambiguous {
        extension: &'t str,
        types: &'t [String],
    },
    /// No artifact type lists the extension.
    Unknown,
}

/// Each extension the artifact types read list, with the types that claim it.
#[derive(Debug, Default)]
pub struct FileTypes {
    /// Lowercase extension (no leading dot) → the identities of its claimants, each left only
    /// where no other claimant derives from it, sorted.
    by_extension: FastMap<String, Vec<String>>,
}

impl FileTypes {
    /// The extensions of every artifact type of `model`. Linear in the types and their chains.
    pub fn new(model: &Model, ancestry: &mut Ancestry) -> Self {
        let mut by_extension: FastMap<String, Vec<String>> = FastMap::default();
        for ((kind, id), def) in &model.types {
            if *kind != TypeKind::Artifact {
                continue;
            }
            let Some(listed) = def
                .def
                .as_map()
                .and_then(|m| m.get("file_ext"))
                .and_then(|n| n.as_seq())
            else {
                continue;
            };
            for extension in listed.iter().filter_map(|e| e.scalar_text()) {
                let extension = extension.trim_start_matches('.').to_lowercase();
                if extension.is_empty() {
                    continue;
                }
                let claimants = by_extension.entry(extension).or_default();
                if !claimants.contains(id) {
                    claimants.push(id.clone());
                }
            }
        }
        for claimants in by_extension.values_mut() {
            if claimants.len() > 1 {
                most_derived(model, ancestry, claimants);
            }
            claimants.sort();
        }
        FileTypes { by_extension }
    }

    /// The type the extension of `file` tells.
    pub fn infer(&self, file: &str) -> Inferred<'_> {
        let name = file_name(file).to_lowercase();
        let found = name
            .match_indices('.')
            .filter(|(i, _)| *i > 0)
            .find_map(|(i, _)| self.by_extension.get_key_value(&name[i + 1..]));
        match found {
            None => Inferred::Unknown,
            Some((_, types)) if types.len() == 1 => Inferred::Type(&types[0]),
            Some((extension, types)) => Inferred::Ambiguous { extension, types },
        }
    }
}

/// The file name of a path or URL: after the last `/`, without a URL's query or fragment.
fn file_name(file: &str) -> &str {
    let path = match file.contains("://") {
        true => file.split(['?', '#']).next().unwrap_or(file),
        false => file,
    };
    path.rsplit('/').next().unwrap_or(path)
}

/// Drops from `claimants` every type another claimant derives from.
fn most_derived(model: &Model, ancestry: &mut Ancestry, claimants: &mut Vec<String>) {
    let mut ancestors: HashSet<String> = HashSet::new();
    for id in claimants.iter() {
        let chain = ancestry.chain(model, TypeKind::Artifact, id);
        ancestors.extend(chain.iter().skip(1).cloned());
    }
    // Types in a derivation cycle (reported by `Ancestry::check_all`) would drop each other.
    if claimants.iter().any(|id| !ancestors.contains(id)) {
        claimants.retain(|id| !ancestors.contains(id));
    }
}

#[cfg(test)]
mod tests {
    use super::file_name;

    #[test]
    fn a_file_name_is_the_last_path_segment_without_a_urls_query() {
        assert_eq!(file_name("scripts/install.sh"), "install.sh");
        assert_eq!(file_name("https://x.org/a/run.py?ref=main#top"), "run.py");
        assert_eq!(file_name("odd#name.sh"), "odd#name.sh");
        assert_eq!(file_name("plain"), "plain");
    }
}
