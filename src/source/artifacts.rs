//! Reading the files artifacts name (scripts, configuration files), for backends that ship them.
//!
//! Artifact paths in the IR ([`Artifact::path`]) are relative to the topology root: the folder of
//! the entry file, or the CSAR root. The backends that carry scripts along (a Kubernetes
//! ConfigMap, Terraform's `artifacts/` folder) read them through [`ArtifactFiles`], so the
//! loader's rules hold for artifacts as for templates: bounded sizes, and nothing outside a CSAR
//! is ever read on its behalf.

use std::cell::RefCell;
use std::path::PathBuf;

use super::csar::{Archive, EntryError};
use super::text::{ReadError, os_reason, read_disk};
use crate::ir::Artifact;
use crate::limits::Limits;

/// Where the artifact files of one run live.
#[derive(Debug)]
pub struct ArtifactFiles {
    place: Place,
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
    /// No files: every read says why.
    pub fn nowhere() -> Self {
        ArtifactFiles {
            place: Place::Nowhere,
        }
    }

    /// Files under `root` on disk; `confined` refuses paths that leave it (an unpacked CSAR).
    pub(crate) fn disk(root: PathBuf, confined: bool) -> Self {
        ArtifactFiles {
            place: Place::Disk { root, confined },
        }
    }

    /// Files inside an open zip CSAR.
    pub(crate) fn archive(archive: Archive) -> Self {
        ArtifactFiles {
            place: Place::Archive(RefCell::new(archive)),
        }
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
                    let full = root.join(path);
                    (!full.is_file()).then(|| (format!("`{path}` does not exist"), *confined))
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
