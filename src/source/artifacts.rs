//! Reading the files artifacts name (scripts, configuration files), for backends that ship them.
//!
//! Artifact paths in the IR ([`Artifact::path`]) are relative to the topology root: the folder of
//! the entry file, or the CSAR root. The backends that carry scripts along (a Kubernetes
//! ConfigMap, Terraform's `artifacts/` folder) read them through [`ArtifactFiles`], so the
//! loader's rules hold for artifacts as for templates: bounded sizes, and nothing outside a CSAR
//! is ever read on its behalf.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::PathBuf;

use super::csar::{Archive, EntryError};
use super::text::{ReadError, os_reason, read_disk};
use crate::ir::Artifact;
use crate::limits::Limits;

/// Where the artifact files of one run live.
///
/// A file is looked up and read once per run, however many nodes name it: a topology of many
/// copies of one stack names the same install script thousands of times, and each lookup is a
/// system call (each read three).
#[derive(Debug)]
pub struct ArtifactFiles {
    place: Place,
    /// Whether each path looked up on disk is a file, by path.
    found: RefCell<HashMap<String, bool>>,
    /// What each path read gave, by path.
    read: RefCell<HashMap<String, Result<Vec<u8>, String>>>,
}

#[derive(Debug)]
enum Place {
    /// The template has no folder of its own (it was built in memory); no artifact can be read.
    Nowhere,
    /// A folder on disk. `confined` for an unpacked CSAR: paths may not leave it.
    Disk { root: PathBuf, confined: bool },
    /// A zip CSAR; reading needs `&mut` for the zip reader and the running size total.
    Archive(RefCell<Archive>),
}

impl ArtifactFiles {
    fn at(place: Place) -> Self {
        ArtifactFiles {
            place,
            found: RefCell::default(),
            read: RefCell::default(),
        }
    }

    /// No files: every read says why.
    pub fn nowhere() -> Self {
        ArtifactFiles::at(Place::Nowhere)
    }

    /// Files under `root` on disk; `confined` refuses paths that leave it (an unpacked CSAR).
    pub(crate) fn disk(root: PathBuf, confined: bool) -> Self {
        ArtifactFiles::at(Place::Disk { root, confined })
    }

    /// Files inside an open zip CSAR.
    pub(crate) fn archive(archive: Archive) -> Self {
        ArtifactFiles::at(Place::Archive(RefCell::new(archive)))
    }

    /// Whether the file at `path` (relative to the topology root) is there, without reading it:
    /// `None` when it is, or when there is no folder to look in; else the reason, and whether
    /// the files are a CSAR's, which must hold every artifact it names.
    pub fn missing(&self, path: &str) -> Option<(String, bool)> {
        let escapes = path.starts_with('/') || path.split('/').any(|p| p == "..");
        match &self.place {
            Place::Nowhere => None,
            Place::Disk { root, confined } => {
                if *confined && escapes {
                    Some((format!("`{path}` leaves the CSAR"), true))
                } else {
                    let is_file = *self
                        .found
                        .borrow_mut()
                        .entry(path.to_string())
                        .or_insert_with(|| root.join(path).is_file());
                    (!is_file).then(|| (format!("`{path}` does not exist"), *confined))
                }
            }
            Place::Archive(archive) => {
                if escapes {
                    Some((format!("`{path}` leaves the CSAR"), true))
                } else {
                    (!archive.borrow().has_file(path))
                        .then(|| (format!("`{path}` is not in the CSAR"), true))
                }
            }
        }
    }

    /// The bytes of `artifact`'s file, bounded by `limits`. The error is a reason a backend puts
    /// in its own diagnostic ("cannot ship `install.sh`: it does not exist").
    pub fn read(&self, artifact: &Artifact, limits: &Limits) -> Result<Vec<u8>, String> {
        if let Some(done) = artifact
            .path
            .as_deref()
            .and_then(|p| self.read.borrow().get(p).cloned())
        {
            return done;
        }
        let result = self.read_uncached(artifact, limits);
        if let Some(path) = &artifact.path {
            self.read.borrow_mut().insert(path.clone(), result.clone());
        }
        result
    }

    fn read_uncached(&self, artifact: &Artifact, limits: &Limits) -> Result<Vec<u8>, String> {
        let Some(path) = artifact.path.as_deref() else {
            return Err(match &artifact.repository {
                Some(repo) => {
                    format!("it lives in repository `{repo}`, not in the template's files")
                }
                None => "it is a URL, not a file of the template".to_string(),
            });
        };
        let escapes = path.starts_with('/') || path.split('/').any(|p| p == "..");
        match &self.place {
            Place::Nowhere => Err(
                "the template was not read from a file, so it has no folder to read artifacts from"
                    .to_string(),
            ),
            Place::Disk { root, confined } => {
                if *confined && escapes {
                    return Err(format!("`{path}` leaves the CSAR"));
                }
                read_disk(&root.join(path), limits.max_file_bytes).map_err(|e| reason(e, path))
            }
            Place::Archive(archive) => {
                if escapes {
                    return Err(format!("`{path}` leaves the CSAR"));
                }
                archive
                    .borrow_mut()
                    .read(path, limits)
                    .map_err(|e| match e {
                        EntryError::Read(e) => reason(e, path),
                        EntryError::Invalid(why) | EntryError::Limit(why) => {
                            format!("`{path}` cannot be read from the CSAR: {why}")
                        }
                    })
            }
        }
    }
}

fn reason(e: ReadError, path: &str) -> String {
    match e {
        ReadError::NotFound => format!("`{path}` does not exist"),
        ReadError::IsDirectory => format!("`{path}` is a directory"),
        ReadError::TooLarge { size, limit } => {
            format!("`{path}` is {size} bytes, more than the limit of {limit} bytes")
        }
        ReadError::Io(e) => format!("`{path}` cannot be read: {}", os_reason(&e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn artifact(path: &str) -> Artifact {
        Artifact {
            name: "install".to_string(),
            type_name: None,
            types: Default::default(),
            file: path.to_string(),
            path: Some(path.to_string()),
            repository: None,
            repository_url: None,
            deploy_path: None,
            description: None,
            properties: Default::default(),
            checksum: None,
            checksum_algorithm: None,
            location: None,
        }
    }

    #[test]
    fn a_file_named_many_times_is_looked_up_and_read_once_per_run() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("install.sh"), "echo one\n").unwrap();
        let files = ArtifactFiles::disk(dir.path().to_path_buf(), false);
        let limits = Limits::default();
        assert_eq!(files.missing("install.sh"), None);
        assert_eq!(
            files.read(&artifact("install.sh"), &limits).unwrap(),
            b"echo one\n"
        );
        // Changed or gone after the first use, the file still reads as it was: the run sees one
        // version of it.
        std::fs::remove_file(dir.path().join("install.sh")).unwrap();
        assert_eq!(files.missing("install.sh"), None);
        assert_eq!(
            files.read(&artifact("install.sh"), &limits).unwrap(),
            b"echo one\n"
        );
        // Other paths are still looked up.
        assert!(files.missing("configure.sh").is_some());
        assert!(files.read(&artifact("configure.sh"), &limits).is_err());
    }
}
