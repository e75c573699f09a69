//! CSAR archives: opened in place, checked whole before use, read entry by entry into memory.
//!
//! A CSAR is a zip, or (TOSCA 2.0, §17.1.1.1 Tarballs) a tar, plain or gzipped, which is read whole
//! into memory under the same limits ([`super::tar`]). Nothing is ever extracted to disk, so a
//! hostile archive cannot write anywhere; still every entry name is checked up front (a `..` or
//! absolute name in a TOSCA archive is at best a mistake, and relative imports would otherwise
//! resolve to it), and sizes are bounded both as declared and as actually read, because a
//! zip's size fields are only claims.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;

use zip::ZipArchive;

use super::tar::{TarEntry, TarError};
use super::text::{ReadError, read_bounded};
use crate::diag::{Diagnostic, codes};
use crate::limits::Limits;

/// Entries smaller than this never trip the compression-ratio limit: a small, very repetitive
/// YAML file legitimately compresses far better than 200:1 and cannot hurt anyone.
pub(crate) const RATIO_MIN_BYTES: u64 = 1024 * 1024;

/// Unix file-type bits in the upper half of a zip entry's external attributes.
const S_IFMT: u32 = 0o170000;
const S_IFLNK: u32 = 0o120000;

/// An open, checked CSAR.
pub(crate) struct Archive {
    /// The archive's name as shown to users (the path as given).
    pub(crate) shown: String,
    /// The archive's path, for [`Origin::Archive`](super::Origin).
    pub(crate) path: PathBuf,
    store: Store,
    /// Normalized entry name → index in the zip (or in the tar's entries), for files only.
    files: BTreeMap<String, usize>,
    /// Normalized names of directories (explicit or implied by a file under them).
    dirs: BTreeSet<String>,
    /// Uncompressed bytes actually read so far, checked against `max_csar_bytes`.
    bytes_read: u64,
}

/// Where the entries are: an open zip, or the entries of a tar read whole.
enum Store {
    Zip(ZipArchive<BufReader<File>>),
    Tar(Vec<TarEntry>),
}

/// What an archive file is, from its first bytes.
#[derive(Debug, PartialEq, Eq)]
enum Format {
    Zip,
    Tar,
    Gzip,
    Unknown,
}

fn format_of(path: &std::path::Path) -> Format {
    let mut head = [0u8; 263];
    let n = File::open(path)
        .and_then(|mut f| {
            let mut n = 0;
            while n < head.len() {
                match std::io::Read::read(&mut f, &mut head[n..])? {
                    0 => break,
                    k => n += k,
                }
            }
            Ok(n)
        })
        .unwrap_or(0);
    let head = &head[..n];
    if head.starts_with(b"PK") {
        Format::Zip
    } else if head.starts_with(&[0x1f, 0x8b]) {
        Format::Gzip
    } else if head.len() >= 262 && &head[257..262] == b"ustar" {
        Format::Tar
    } else {
        Format::Unknown
    }
}

impl std::fmt::Debug for Archive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Archive")
            .field("shown", &self.shown)
            .field("files", &self.files.len())
            .finish()
    }
}

/// Why an entry name is refused, or `None` if it is a safe relative name.
fn unsafe_reason(name: &str) -> Option<&'static str> {
    if name.contains('\0') {
        return Some("it contains a NUL character");
    }
    if name.contains('\\') {
        return Some("it uses `\\` as a separator; zip entries use `/`");
    }
    if name.starts_with('/') {
        return Some("it is an absolute path");
    }
    let first = name.split('/').next().unwrap_or("");
    let b = first.as_bytes();
    if b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':' {
        return Some("it starts with a Windows drive letter");
    }
    if name.split('/').any(|c| c == "..") {
        return Some("it has a `..` component that climbs out of the archive");
    }
    None
}

/// `a/./b//c/` → `a/b/c`: the one spelling used for lookups and duplicate detection.
fn normalize_name(name: &str) -> String {
    name.split('/')
        .filter(|c| !c.is_empty() && *c != ".")
        .collect::<Vec<_>>()
        .join("/")
}

impl Archive {
    /// Opens a zip or tar and checks every entry; `None` (with errors pushed) if the archive is
    /// neither, breaks a limit or has any unsafe entry, in which case none of it is used.
    pub(crate) fn open(
        path: PathBuf,
        shown: String,
        limits: &Limits,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<Archive> {
        let file = match File::open(&path) {
            Ok(f) => f,
            Err(e) => {
                diags.push(super::text::ReadError::Io(e).into_input_diagnostic(&shown));
                return None;
            }
        };
        let lower = shown.to_ascii_lowercase();
        let tar_name = [".tar", ".tar.gz", ".tgz"]
            .iter()
            .any(|ext| lower.ends_with(ext));
        let (store, names) = match format_of(&path) {
            Format::Gzip => Self::open_tar(file, true, &shown, limits, diags)?,
            Format::Tar => Self::open_tar(file, false, &shown, limits, diags)?,
            Format::Unknown if tar_name => Self::open_tar(file, false, &shown, limits, diags)?,
            Format::Zip | Format::Unknown => Self::open_zip(file, &shown, limits, diags)?,
        };
        Some(Archive {
            shown,
            path,
            store,
            files: names.files,
            dirs: names.dirs,
            bytes_read: 0,
        })
    }

    /// A tar (gzipped or not), read whole, then checked entry by entry like a zip.
    fn open_tar(
        file: File,
        gzipped: bool,
        shown: &str,
        limits: &Limits,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<(Store, Names)> {
        let packed = file.metadata().map(|m| m.len()).ok();
        let read = if gzipped {
            let stream = flate2::read::MultiGzDecoder::new(BufReader::new(file));
            super::tar::read_all(stream, limits, packed)
        } else {
            super::tar::read_all(BufReader::new(file), limits, None)
        };
        let read = match read {
            Ok(entries) => entries,
            Err(TarError::Invalid(why)) => {
                diags.push(
                    Diagnostic::error(
                        codes::CSAR_INVALID,
                        format!("`{shown}` is not a valid tar archive: {why}"),
                    )
                    .hint(
                        "a CSAR is a zip or a (gzipped) tar file; check that the file is complete",
                    ),
                );
                return None;
            }
            Err(TarError::Limit(why)) => {
                diags.push(
                    Diagnostic::error(codes::CSAR_LIMIT, format!("`{shown}` is refused: {why}"))
                        .hint("this looks like an archive bomb, or the limits are too low for it"),
                );
                return None;
            }
        };
        let before = diags.len();
        let mut names = Names::default();
        let mut store = Vec::new();
        for (name, entry) in read {
            let kind = match entry {
                TarEntry::Link => EntryKind::Refused("it is a link".into()),
                TarEntry::Special(flag) => EntryKind::Refused(format!(
                    "it is a device, FIFO or other special file (tar type `{}`)",
                    char::from(flag).escape_default()
                )),
                TarEntry::Dir => EntryKind::Dir,
                TarEntry::File(_) | TarEntry::TooLarge(_) => EntryKind::File,
            };
            match names.admit(&name, kind) {
                Err(why) => diags.push(unsafe_entry(shown, &name, &why)),
                Ok(Some(normalized)) => {
                    names.add_file(normalized, store.len());
                    store.push(entry);
                }
                Ok(None) => {}
            }
        }
        (diags.len() == before).then_some((Store::Tar(store), names))
    }

    /// A zip, checked entry by entry.
    fn open_zip(
        file: File,
        shown: &str,
        limits: &Limits,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<(Store, Names)> {
        let zip = match ZipArchive::new(BufReader::new(file)) {
            Ok(z) => z,
            Err(e) => {
                diags.push(
                    Diagnostic::error(
                        codes::CSAR_INVALID,
                        format!("`{shown}` is not a valid zip archive: {e}"),
                    )
                    .hint("a CSAR is a zip or a (gzipped) tar file; check that the file is complete and not another format"),
                );
                return None;
            }
        };
        let before = diags.len();
        if zip.len() > limits.max_csar_entries {
            diags.push(
                Diagnostic::error(
                    codes::CSAR_LIMIT,
                    format!(
                        "`{shown}` has {} entries, more than the limit of {}",
                        zip.len(),
                        limits.max_csar_entries
                    ),
                )
                .hint("a CSAR holds a handful of definitions and artifacts; check the archive"),
            );
            return None;
        }
        if zip.has_duplicate_names() {
            diags.push(
                Diagnostic::error(
                    codes::CSAR_UNSAFE_PATH,
                    format!("`{shown}` holds two entries with the same name"),
                )
                .hint("rebuild the archive; which of the two is meant cannot be known"),
            );
        }
        let mut names = Names::default();
        let mut total: u64 = 0;
        for index in 0..zip.len() {
            let entry = match zip.by_index_data(index) {
                Ok(e) => e,
                Err(e) => {
                    diags.push(Diagnostic::error(
                        codes::CSAR_INVALID,
                        format!("`{shown}`: cannot read entry {index}: {e}"),
                    ));
                    continue;
                }
            };
            let name = match entry.name() {
                Ok(n) => n.into_owned(),
                Err(e) => {
                    diags.push(Diagnostic::error(
                        codes::CSAR_INVALID,
                        format!("`{shown}`: entry {index} has an unreadable name: {e}"),
                    ));
                    continue;
                }
            };
            let shown_entry = format!("{shown}!/{name}");
            let is_link = entry.is_symlink()
                || entry
                    .unix_mode()
                    .is_some_and(|mode| mode & S_IFMT == S_IFLNK)
                || (entry.external_attributes() >> 16) & S_IFMT == S_IFLNK;
            let kind = if is_link {
                EntryKind::Refused("it is a symbolic link".into())
            } else if entry.is_dir() {
                EntryKind::Dir
            } else {
                EntryKind::File
            };
            let normalized = match names.admit(&name, kind) {
                Err(why) => {
                    diags.push(unsafe_entry(shown, &name, &why));
                    continue;
                }
                Ok(None) => continue,
                Ok(Some(normalized)) => normalized,
            };
            let size = entry.size();
            let compressed = entry.compressed_size();
            total = total.saturating_add(size);
            if size > RATIO_MIN_BYTES && size / compressed.max(1) > limits.max_compression_ratio {
                diags.push(
                    Diagnostic::error(
                        codes::CSAR_LIMIT,
                        format!(
                            "`{shown_entry}` expands from {compressed} to {size} bytes, a ratio above the limit of {}",
                            limits.max_compression_ratio
                        ),
                    )
                    .hint("this looks like a zip bomb; the archive is refused"),
                );
                continue;
            }
            names.add_file(normalized, index);
        }
        if total > limits.max_csar_bytes {
            diags.push(
                Diagnostic::error(
                    codes::CSAR_LIMIT,
                    format!(
                        "`{shown}` expands to {total} bytes, more than the limit of {}",
                        limits.max_csar_bytes
                    ),
                )
                .hint("the archive is refused"),
            );
        }
        (diags.len() == before).then_some((Store::Zip(zip), names))
    }

    /// The normalized names of all file entries, sorted.
    pub(crate) fn file_names(&self) -> impl Iterator<Item = &str> {
        self.files.keys().map(String::as_str)
    }

    /// Whether a normalized name is a file entry.
    pub(crate) fn has_file(&self, name: &str) -> bool {
        self.files.contains_key(name)
    }

    /// Whether a normalized name is a directory of the archive (`""` is the root).
    pub(crate) fn has_dir(&self, name: &str) -> bool {
        name.is_empty() || self.dirs.contains(name)
    }

    /// Reads one file entry into memory, bounded by the per-file limit, the archive's total and
    /// the compression ratio, whatever its header claims.
    pub(crate) fn read(&mut self, name: &str, limits: &Limits) -> Result<Vec<u8>, EntryError> {
        let Some(&index) = self.files.get(name) else {
            return Err(if self.has_dir(name) {
                EntryError::Read(ReadError::IsDirectory)
            } else {
                EntryError::Read(ReadError::NotFound)
            });
        };
        let zip = match &mut self.store {
            Store::Zip(zip) => zip,
            Store::Tar(entries) => {
                return match &entries[index] {
                    TarEntry::File(bytes) => Ok(bytes.clone()),
                    TarEntry::TooLarge(size) => Err(EntryError::Read(ReadError::TooLarge {
                        size: *size,
                        limit: limits.max_file_bytes,
                    })),
                    _ => Err(EntryError::Read(ReadError::NotFound)),
                };
            }
        };
        let entry = zip
            .by_index(index)
            .map_err(|e| EntryError::Invalid(e.to_string()))?;
        if entry.encrypted() {
            return Err(EntryError::Invalid("the entry is encrypted".into()));
        }
        let declared = entry.size();
        let compressed = entry.compressed_size().max(1);
        if declared > limits.max_file_bytes {
            return Err(EntryError::Read(ReadError::TooLarge {
                size: declared,
                limit: limits.max_file_bytes,
            }));
        }
        let remaining = limits.max_csar_bytes.saturating_sub(self.bytes_read);
        let bound = limits.max_file_bytes.min(remaining);
        let bytes = match read_bounded(entry, bound) {
            Ok(b) => b,
            Err(ReadError::TooLarge { .. }) if bound < limits.max_file_bytes => {
                return Err(EntryError::Limit(format!(
                    "reading it would expand the archive past the limit of {} bytes",
                    limits.max_csar_bytes
                )));
            }
            Err(ReadError::Io(e)) => return Err(EntryError::Invalid(e.to_string())),
            Err(e) => return Err(EntryError::Read(e)),
        };
        let actual = bytes.len() as u64;
        self.bytes_read += actual;
        if actual > RATIO_MIN_BYTES && actual / compressed > limits.max_compression_ratio {
            return Err(EntryError::Limit(format!(
                "it expands from {compressed} to {actual} bytes, a ratio above the limit of {}",
                limits.max_compression_ratio
            )));
        }
        Ok(bytes)
    }
}

/// The entry names of an archive being opened: its files (normalized name → index in the
/// store) and folders, each name checked as it comes.
#[derive(Default)]
struct Names {
    files: BTreeMap<String, usize>,
    dirs: BTreeSet<String>,
}

/// What an entry is, as far as its name is concerned.
enum EntryKind {
    File,
    Dir,
    /// An entry no CSAR may hold (a link), and why.
    Refused(String),
}

impl Names {
    /// Checks one entry: `Err` with why it refuses the archive; `Ok(None)` for a folder
    /// (recorded); `Ok(Some(name))` for a file that may be added under its normalized name.
    fn admit(&mut self, name: &str, kind: EntryKind) -> Result<Option<String>, String> {
        if let Some(why) = unsafe_reason(name) {
            return Err(why.to_string());
        }
        let normalized = normalize_name(name);
        match kind {
            EntryKind::Refused(why) => Err(why),
            EntryKind::Dir => {
                self.dirs.insert(normalized);
                Ok(None)
            }
            EntryKind::File if normalized.is_empty() => Err("it has an empty name".into()),
            EntryKind::File if self.files.contains_key(&normalized) => {
                Err("another entry has the same name".into())
            }
            EntryKind::File => Ok(Some(normalized)),
        }
    }

    /// Adds a file admitted by [`Names::admit`], and the folders above it.
    fn add_file(&mut self, name: String, index: usize) {
        let mut parent = name.as_str();
        while let Some(i) = parent.rfind('/') {
            parent = &parent[..i];
            self.dirs.insert(parent.to_string());
        }
        self.files.insert(name, index);
    }
}

/// An entry that refuses the whole archive.
fn unsafe_entry(shown: &str, name: &str, why: &str) -> Diagnostic {
    Diagnostic::error(
        codes::CSAR_UNSAFE_PATH,
        format!("`{shown}` has an unsafe entry `{name}`: {why}"),
    )
    .hint("the whole archive is refused; rebuild it with plain relative paths")
}

/// Why reading an entry failed.
#[derive(Debug)]
pub(crate) enum EntryError {
    /// Missing, a directory or too large: worded like the same problem on disk.
    Read(ReadError),
    /// The zip data is broken (bad CRC, unsupported compression, encryption).
    Invalid(String),
    /// A CSAR limit was hit while actually reading.
    Limit(String),
}

impl EntryError {
    /// The diagnostic for an entry the loader needed (`shown` is `archive!/entry`).
    pub(crate) fn into_diagnostic(self, shown: &str) -> Diagnostic {
        let d = match self {
            EntryError::Read(ReadError::NotFound) => Diagnostic::error(
                codes::INPUT_NOT_FOUND,
                format!("`{shown}` does not exist in the archive"),
            ),
            EntryError::Read(e) => e.into_common_diagnostic(shown),
            EntryError::Invalid(why) => Diagnostic::error(
                codes::CSAR_INVALID,
                format!("cannot read `{shown}`: {why}"),
            )
            .hint("the archive is damaged or uses a feature toscana does not read (zip: only stored and deflated, unencrypted entries)"),
            EntryError::Limit(why) => {
                Diagnostic::error(codes::CSAR_LIMIT, format!("`{shown}` is refused: {why}"))
            }
        };
        d.in_file(shown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_names_are_recognised() {
        assert!(unsafe_reason("a/b.yaml").is_none());
        assert!(unsafe_reason("./a.yaml").is_none());
        assert!(unsafe_reason("../a").unwrap().contains(".."));
        assert!(unsafe_reason("a/../../b").unwrap().contains(".."));
        assert!(unsafe_reason("/etc/passwd").unwrap().contains("absolute"));
        assert!(unsafe_reason("C:/x").unwrap().contains("drive"));
        assert!(unsafe_reason("a\\b").unwrap().contains("separator"));
    }
}
