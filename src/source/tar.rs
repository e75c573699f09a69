//! Tar CSARs: TOSCA 2.0 allows a CSAR to be a UStar tar archive, plain or gzip-compressed
//! (`.tar`, `.tar.gz`, `.tgz`; §17.1.1.1 Tarballs), next to zip.
//!
//! The `tar` crate parses the format (headers, checksums, GNU and POSIX long names, PAX
//! sizes); this module decides what a CSAR may hold. A tar has no index and a gzip stream
//! cannot be entered in the middle, so the archive is read once, front to back, into memory,
//! and every limit of a zip CSAR holds while reading: entries, total size, size of one file
//! and the compression ratio of the whole stream, checked on the sizes the headers declare
//! (so a bomb is refused before it is expanded) and again on the bytes actually read (so no
//! header can lie its way past them). Entry names get the same checks as zip's, in the caller;
//! links, devices and FIFOs refuse the archive. Nothing is ever unpacked to disk.

use std::cell::Cell;
use std::io::{self, Read};

use tar::EntryType;

use crate::limits::Limits;

/// Tar works in blocks of 512 bytes: headers, and data padded to a whole block.
const BLOCK: u64 = 512;

/// How many bytes may lie between one entry's data and the next entry's header: the padding,
/// any extension headers (long names, PAX records) and their data. An extension this large is
/// not a name, and the `tar` crate reads extensions into memory whole.
const MAX_EXTENSION_BYTES: u64 = 1024 * 1024;

/// One entry of a tar, as read.
#[derive(Debug)]
pub(crate) enum TarEntry {
    File(Vec<u8>),
    Dir,
    /// A file larger than the per-file limit: its bytes were skipped, its size is kept for the
    /// error that reading it gives.
    TooLarge(u64),
    /// A hard or symbolic link.
    Link,
    /// A device, FIFO or other special file (its type flag).
    Special(u8),
}

/// Why a tar could not be read whole.
#[derive(Debug)]
pub(crate) enum TarError {
    /// Not a tar, or a damaged one.
    Invalid(String),
    /// A CSAR limit was hit.
    Limit(String),
}

impl std::fmt::Display for TarError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TarError::Invalid(why) | TarError::Limit(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for TarError {}

/// Reads every entry of a tar stream. `compressed` is the size of the file when the stream is
/// decompressed from it (gzip), for the compression-ratio limit.
pub(crate) fn read_all(
    reader: impl Read,
    limits: &Limits,
    compressed: Option<u64>,
) -> Result<Vec<(String, TarEntry)>, TarError> {
    let between = Cell::new(Some(MAX_EXTENSION_BYTES + BLOCK));
    let position = Cell::new(0);
    let guard = Guard {
        inner: reader,
        limits,
        compressed,
        position: &position,
        between: &between,
    };
    let mut archive = tar::Archive::new(guard);
    let damaged = |e: io::Error| match e.get_ref().and_then(|i| i.downcast_ref::<TarError>()) {
        Some(TarError::Limit(why)) => TarError::Limit(why.clone()),
        Some(TarError::Invalid(why)) => TarError::Invalid(why.clone()),
        None => TarError::Invalid(format!("{e}, after {} bytes of tar data", position.get())),
    };
    let mut entries = Vec::new();
    let mut declared: u64 = 0;
    for entry in archive.entries().map_err(damaged)? {
        let mut entry = entry.map_err(damaged)?;
        let entry_type = entry.header().entry_type();
        if entry_type == EntryType::XGlobalHeader {
            continue; // global PAX records (comments, times) say nothing a CSAR needs
        }
        let size = entry.size();
        declared = declared.saturating_add(size);
        if let Some(why) = beyond_limits(declared, compressed, limits) {
            return Err(TarError::Limit(why));
        }
        let name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        let read = match entry_type {
            EntryType::Regular | EntryType::Continuous if size > limits.max_file_bytes => {
                TarEntry::TooLarge(size)
            }
            EntryType::Regular | EntryType::Continuous => {
                between.set(None);
                let mut data = Vec::with_capacity(size.min(1 << 20) as usize);
                entry.read_to_end(&mut data).map_err(damaged)?;
                if (data.len() as u64) < size {
                    return Err(TarError::Invalid(format!(
                        "it ends inside the data of `{name}`"
                    )));
                }
                TarEntry::File(data)
            }
            EntryType::Directory => TarEntry::Dir,
            EntryType::Link | EntryType::Symlink => TarEntry::Link,
            other => TarEntry::Special(other.as_byte()),
        };
        // What the crate skips of this entry's data, then the next entry's extension headers.
        between.set(Some(
            size.div_ceil(BLOCK) * BLOCK + MAX_EXTENSION_BYTES + BLOCK,
        ));
        entries.push((name, read));
        if entries.len() > limits.max_csar_entries {
            return Err(TarError::Limit(format!(
                "it has more entries than the limit of {}",
                limits.max_csar_entries
            )));
        }
    }
    Ok(entries)
}

/// Why `total` expanded bytes (from `compressed` packed ones, for gzip) break a CSAR limit.
fn beyond_limits(total: u64, compressed: Option<u64>, limits: &Limits) -> Option<String> {
    if total > limits.max_csar_bytes {
        return Some(format!(
            "it expands to more than the limit of {} bytes",
            limits.max_csar_bytes
        ));
    }
    let packed = compressed?;
    (total > super::csar::RATIO_MIN_BYTES && total / packed.max(1) > limits.max_compression_ratio)
        .then(|| {
            format!(
                "it expands from {packed} to more than {total} bytes, a ratio above the limit of {}",
                limits.max_compression_ratio
            )
        })
}

/// The stream under the `tar` crate: counts what is actually read, so the size and ratio
/// limits hold whatever the headers claim, and bounds what lies between entries (`between`,
/// bytes left; `None` while an entry's own data is read under the per-file limit).
struct Guard<'a, R> {
    inner: R,
    limits: &'a Limits,
    compressed: Option<u64>,
    position: &'a Cell<u64>,
    between: &'a Cell<Option<u64>>,
}

impl<R: Read> Read for Guard<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let position = self.position.get() + n as u64;
        self.position.set(position);
        if let Some(why) = beyond_limits(position, self.compressed, self.limits) {
            return Err(io::Error::other(TarError::Limit(why)));
        }
        if let Some(left) = self.between.get() {
            let Some(left) = left.checked_sub(n as u64) else {
                return Err(io::Error::other(TarError::Invalid(format!(
                    "the extension headers before an entry take more than {MAX_EXTENSION_BYTES} \
                     bytes, larger than any name"
                ))));
            };
            self.between.set(Some(left));
        }
        Ok(n)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A tar of `(name, type flag, data)` entries, as `tar` writes it (UStar headers, a GNU
    /// long-name entry before a name over 100 bytes). Names are written as given, `..` too.
    pub(crate) fn tar(entries: &[(&str, u8, &[u8])]) -> Vec<u8> {
        let mut builder = tar::Builder::new(Vec::new());
        for (name, flag, data) in entries {
            let mut header = tar::Header::new_ustar();
            header.set_entry_type(EntryType::new(*flag));
            header.set_size(data.len() as u64);
            header.set_mode(0o644);
            if name.len() <= 100 {
                header.as_old_mut().name[..name.len()].copy_from_slice(name.as_bytes());
                header.set_cksum();
                builder.append(&header, *data).unwrap();
            } else {
                builder.append_data(&mut header, name, *data).unwrap();
            }
        }
        builder.into_inner().unwrap()
    }

    #[test]
    fn entries_are_read_with_their_kinds_and_long_names() {
        let long = format!("{}/x.yaml", "d".repeat(120));
        let pax = format!("{} path={long}\n", long.len() + 10);
        let gnu = format!("{}/y.yaml", "e".repeat(150));
        let bytes = tar(&[
            ("a/", b'5', b""),
            (
                "a/main.yaml",
                b'0',
                b"tosca_definitions_version: tosca_2_0\n",
            ),
            ("link", b'2', b""),
            ("fifo", b'6', b""),
            ("pax", b'x', pax.as_bytes()),
            ("short", b'0', b"long name"),
            (&gnu, b'0', b"gnu name"),
        ]);
        let entries = read_all(&bytes[..], &Limits::default(), None).unwrap();
        let names: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["a/", "a/main.yaml", "link", "fifo", long.as_str(), &gnu]
        );
        assert!(matches!(&entries[1].1, TarEntry::File(d) if d.starts_with(b"tosca_")));
        assert!(matches!(entries[0].1, TarEntry::Dir));
        assert!(matches!(entries[2].1, TarEntry::Link));
        assert!(matches!(entries[3].1, TarEntry::Special(b'6')));
        assert!(matches!(&entries[5].1, TarEntry::File(d) if d == b"gnu name"));
    }

    #[test]
    fn limits_and_damage_are_errors() {
        let bytes = tar(&[("big", b'0', &[b'x'; 2000]), ("small", b'0', b"ok")]);
        let limits = Limits {
            max_file_bytes: 1000,
            ..Limits::default()
        };
        let entries = read_all(&bytes[..], &limits, None).unwrap();
        assert!(matches!(entries[0].1, TarEntry::TooLarge(2000)));
        assert!(matches!(&entries[1].1, TarEntry::File(d) if d == b"ok"));
        let limits = Limits {
            max_csar_bytes: 1000,
            ..Limits::default()
        };
        assert!(matches!(
            read_all(&bytes[..], &limits, None),
            Err(TarError::Limit(_))
        ));
        let limits = Limits {
            max_csar_entries: 1,
            ..Limits::default()
        };
        assert!(matches!(
            read_all(&bytes[..], &limits, None),
            Err(TarError::Limit(why)) if why.contains("entries")
        ));
        let mut broken = bytes.clone();
        broken[0] = b'X';
        assert!(matches!(
            read_all(&broken[..], &Limits::default(), None),
            Err(TarError::Invalid(why)) if why.contains("checksum")
        ));
        // Cut inside the data of an entry that is read, of one that is skipped, and inside a
        // header.
        assert!(matches!(
            read_all(&bytes[..700], &Limits::default(), None),
            Err(TarError::Invalid(why)) if why.contains("`big`")
        ));
        let limits = Limits {
            max_file_bytes: 1000,
            ..Limits::default()
        };
        assert!(matches!(
            read_all(&bytes[..700], &limits, None),
            Err(TarError::Invalid(_))
        ));
        assert!(matches!(
            read_all(&bytes[..2600], &Limits::default(), None),
            Err(TarError::Invalid(_))
        ));
    }

    #[test]
    fn oversized_extension_headers_and_real_bytes_are_bounded() {
        // A long name of 2 MiB is not a name, whatever reads it.
        let huge = vec![b'n'; 2 << 20];
        let bytes = tar(&[("huge", b'L', &huge), ("x", b'0', b"")]);
        assert!(matches!(
            read_all(&bytes[..], &Limits::default(), None),
            Err(TarError::Invalid(why)) if why.contains("extension headers")
        ));
        // A gzip bomb is refused on the sizes its headers declare, before it is expanded.
        let bytes = tar(&[("blob", b'0', &huge)]);
        assert!(matches!(
            read_all(&bytes[..], &Limits::default(), Some(1024)),
            Err(TarError::Limit(why)) if why.contains("ratio")
        ));
        // And on the bytes actually read: headers count, though they declare no size.
        let empty: Vec<(&str, u8, &[u8])> = vec![("e", b'0', b""); 4];
        let bytes = tar(&empty);
        let limits = Limits {
            max_csar_bytes: 1000,
            ..Limits::default()
        };
        assert!(matches!(
            read_all(&bytes[..], &limits, None),
            Err(TarError::Limit(why)) if why.contains("1000 bytes")
        ));
    }
}
