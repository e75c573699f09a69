//! Reading the files artifacts name (scripts, configuration files), for backends that ship them.
//!
//! Artifact paths in the IR ([`crate::ir::Artifact::path`]) are relative to the topology root: the folder of
//! the entry file, or the CSAR root. The backends that carry scripts along (a Kubernetes
//! ConfigMap, Terraform's `artifacts/` folder) read them through [`ArtifactFiles`], so the
//! loader's rules hold for artifacts as for templates: bounded sizes, and nothing outside the
//! template's root (its CSAR, the directory given, or the entry file's folder; see
//! [`super::confine`]) is ever read on its behalf, whether by `..`, an absolute path or a link.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::PathBuf;

use super::confine::{Escape, Root, RootKind, Slash, join_inside};
use super::csar::{Archive, EntryError};
use super::text::{ReadError, os_reason, read_disk};
use crate::limits::Limits;

/// Where the artifact files of one run live.
///
/// A file is looked up and read once per run, however many nodes name it: a topology of many
/// copies of one stack names the same install script thousands of times, and each lookup is a
/// system call (each read three).
#[derive(Debug)]
pub struct ArtifactFiles {
    place: Place,
    /// What looking each path up on disk found, by path.
    found: RefCell<HashMap<String, Option<Missing>>>,
    /// What each path read gave, by path.
    read: RefCell<HashMap<String, Result<Vec<u8>, String>>>,
}

#[derive(Debug)]
enum Place {
    /// The template has no folder of its own (it was built in memory); no artifact can be read.
    Nowhere,
    /// A folder on disk: paths are relative to `base` (the topology root, absolute), and read
    /// only inside `root`, the root of the template.
    Disk { base: PathBuf, root: Root },
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

    /// Files on disk at paths relative to `base`, read only inside `root`.
    pub(crate) fn disk(base: PathBuf, root: Root) -> Self {
        ArtifactFiles::at(Place::Disk { base, root })
    }

    /// Files inside an open zip CSAR.
    pub(crate) fn archive(archive: Archive) -> Self {
        ArtifactFiles::at(Place::Archive(RefCell::new(archive)))
    }

    /// Whether the file at `path` (relative to the topology root) is there, without reading it:
    /// `None` when it is, or when there is no folder to look in; else why not.
    pub fn missing(&self, path: &str) -> Option<Missing> {
        match &self.place {
            Place::Nowhere => None,
            Place::Disk { base, root } => self
                .found
                .borrow_mut()
                .entry(path.to_string())
                .or_insert_with(|| match locate(base, root, path) {
                    Err(why) => Some(outside(path, &why, root)),
                    Ok(full) => (!full.is_file()).then(|| Missing {
                        reason: format!("`{path}` does not exist"),
                        in_csar: root.kind == RootKind::CsarDir,
                        outside: false,
                    }),
                })
                .clone(),
            Place::Archive(archive) => {
                let archive = archive.borrow();
                match join_inside("", path, Slash::Outside) {
                    Err(why) => Some(outside(path, &why, &archive_root(&archive))),
                    Ok(name) => (!archive.has_file(&name)).then(|| Missing {
                        reason: format!("`{path}` is not in the CSAR"),
                        in_csar: true,
                        outside: false,
                    }),
                }
            }
        }
    }

    /// The bytes of an artifact's file, bounded by `limits`: `path` and `repository` are the
    /// IR artifact's ([`crate::ir::Artifact::path`], which is `None` for a URL or a file of a
    /// repository). The error is a reason a backend puts in its own diagnostic ("cannot ship
    /// `install.sh`: it does not exist").
    pub fn read(
        &self,
        path: Option<&str>,
        repository: Option<&str>,
        limits: &Limits,
    ) -> Result<Vec<u8>, String> {
        if let Some(done) = path.and_then(|p| self.read.borrow().get(p).cloned()) {
            return done;
        }
        let result = self.read_uncached(path, repository, limits);
        if let Some(path) = path {
            self.read
                .borrow_mut()
                .insert(path.to_string(), result.clone());
        }
        result
    }

    fn read_uncached(
        &self,
        path: Option<&str>,
        repository: Option<&str>,
        limits: &Limits,
    ) -> Result<Vec<u8>, String> {
        let Some(path) = path else {
            return Err(match repository {
                Some(repo) => {
                    format!("it lives in repository `{repo}`, not in the template's files")
                }
                None => "it is a URL, not a file of the template".to_string(),
            });
        };
        match &self.place {
            Place::Nowhere => Err(
                "the template was not read from a file, so it has no folder to read artifacts from"
                    .to_string(),
            ),
            Place::Disk { base, root } => {
                let full =
                    locate(base, root, path).map_err(|why| outside(path, &why, root).reason)?;
                read_disk(&full, limits.max_file_bytes).map_err(|e| reason(e, path))
            }
            Place::Archive(archive) => {
                let name = join_inside("", path, Slash::Outside)
                    .map_err(|why| outside(path, &why, &archive_root(&archive.borrow())).reason)?;
                archive
                    .borrow_mut()
                    .read(&name, limits)
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

/// Why an artifact's file is not there to ship.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Missing {
    /// What is wrong, naming the path ("`x.sh` does not exist").
    pub reason: String,
    /// The template is a CSAR, which must hold every file it names: an error, not a warning.
    pub in_csar: bool,
    /// The path leaves the template's root: toscana does not read it (see
    /// [`super::confine`]).
    pub outside: bool,
}

/// Where the file at `path` (relative to `base`) is, when it is inside `root`.
fn locate(base: &std::path::Path, root: &Root, path: &str) -> Result<PathBuf, Escape> {
    let dir = root.name_of(base).unwrap_or_default();
    let full = root.locate(&join_inside(&dir, path, Slash::Outside)?);
    root.admits(&full)?;
    Ok(full)
}

/// The refusal of `path`, which `why` takes out of `root`.
fn outside(path: &str, why: &Escape, root: &Root) -> Missing {
    Missing {
        reason: format!(
            "`{path}` {why}, outside {}; toscana does not read it",
            root.describe()
        ),
        in_csar: matches!(root.kind, RootKind::CsarDir | RootKind::Archive),
        outside: true,
    }
}

/// The archive as a root, for the words of a refusal.
fn archive_root(archive: &Archive) -> Root {
    Root::new(
        std::path::Path::new(""),
        std::path::Path::new(&archive.shown),
        RootKind::Archive,
    )
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

    #[test]
    fn a_file_named_many_times_is_looked_up_and_read_once_per_run() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("install.sh"), "echo one\n").unwrap();
        let root = Root::new(dir.path(), std::path::Path::new(""), RootKind::Folder);
        let files = ArtifactFiles::disk(dir.path().to_path_buf(), root);
        let limits = Limits::default();
        assert_eq!(files.missing("install.sh"), None);
        assert_eq!(
            files.read(Some("install.sh"), None, &limits).unwrap(),
            b"echo one\n"
        );
        // Changed or gone after the first use, the file still reads as it was: the run sees one
        // version of it.
        std::fs::remove_file(dir.path().join("install.sh")).unwrap();
        assert_eq!(files.missing("install.sh"), None);
        assert_eq!(
            files.read(Some("install.sh"), None, &limits).unwrap(),
            b"echo one\n"
        );
        // Other paths are still looked up.
        assert!(files.missing("configure.sh").is_some());
        assert!(files.read(Some("configure.sh"), None, &limits).is_err());
    }
}
