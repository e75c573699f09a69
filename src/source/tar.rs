//! Tar CSARs: TOSCA 2.0 allows a CSAR to be a UStar tar archive, plain or gzip-compressed
//! (`.tar`, `.tar.gz`, `.tgz`; L9291-9295), next to zip.
//!
//! A tar has no index and a gzip stream cannot be entered in the middle, so the archive is read
//! once, front to back, into memory: every limit of a zip CSAR holds while reading (entries,
//! total size, size of one file, compression ratio of the whole stream), entry names get the
//! same checks, and links, devices and FIFOs refuse the archive. Long names come from POSIX
//! (`x`) or GNU (`L`) extension headers.

use std::io::Read;

use crate::limits::Limits;

/// Tar works in blocks of 512 bytes: headers, and data padded to a whole block.
const BLOCK: usize = 512;

/// An extension header (long name) larger than this is not a name.
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

/// Reads every entry of a tar stream. `compressed` is the size of the file when the stream is
/// decompressed from it (gzip), for the compression-ratio limit.
pub(crate) fn read_all(
    mut reader: impl Read,
    limits: &Limits,
    compressed: Option<u64>,
) -> Result<Vec<(String, TarEntry)>, TarError> {
    let mut entries = Vec::new();
    let mut total: u64 = 0;
    let mut long_name: Option<String> = None;
    let mut header = [0u8; BLOCK];
    loop {
        if !read_block(&mut reader, &mut header)? {
            break; // the end of the stream is the end of the archive
        }
        if header.iter().all(|&b| b == 0) {
            break; // the end-of-archive marker
        }
        check_sum(&header)?;
        let size = octal(&header[124..136])
            .ok_or_else(|| TarError::Invalid("an entry has an unreadable size".into()))?;
        total = total.saturating_add(size);
        if total > limits.max_csar_bytes {
            return Err(TarError::Limit(format!(
                "it expands to more than the limit of {} bytes",
                limits.max_csar_bytes
            )));
        }
        if let Some(packed) = compressed
            && total > super::csar::RATIO_MIN_BYTES
            && total / packed.max(1) > limits.max_compression_ratio
        {
            return Err(TarError::Limit(format!(
                "it expands from {packed} to more than {total} bytes, a ratio above the limit of {}",
                limits.max_compression_ratio
            )));
        }
        let flag = header[156];
        match flag {
            b'x' | b'L' => {
                if size > MAX_EXTENSION_BYTES {
                    return Err(TarError::Invalid(
                        "an extension header is larger than any name".into(),
                    ));
                }
                let data = read_data(&mut reader, size, true)?.unwrap_or_default();
                let name = if flag == b'L' {
                    Some(text(&data))
                } else {
                    pax_path(&data)
                };
                if name.is_some() {
                    long_name = name;
                }
                continue;
            }
            b'g' => {
                read_data(&mut reader, size, false)?;
                continue;
            }
            _ => {}
        }
        let name = match long_name.take() {
            Some(name) => name,
            None => header_name(&header),
        };
        let entry = match flag {
            b'0' | 0 | b'7' => {
                if size > limits.max_file_bytes {
                    read_data(&mut reader, size, false)?;
                    TarEntry::TooLarge(size)
                } else {
                    TarEntry::File(read_data(&mut reader, size, true)?.unwrap_or_default())
                }
            }
            b'5' => {
                read_data(&mut reader, size, false)?;
                TarEntry::Dir
            }
            b'1' | b'2' => TarEntry::Link,
            other => {
                read_data(&mut reader, size, false)?;
                TarEntry::Special(other)
            }
        };
        entries.push((name, entry));
        if entries.len() > limits.max_csar_entries {
            return Err(TarError::Limit(format!(
                "it has more entries than the limit of {}",
                limits.max_csar_entries
            )));
        }
    }
    Ok(entries)
}

/// Reads one block; false at the end of the stream, an error if it ends inside a block.
fn read_block(reader: &mut impl Read, block: &mut [u8; BLOCK]) -> Result<bool, TarError> {
    let mut filled = 0;
    while filled < BLOCK {
        match reader.read(&mut block[filled..]) {
            Ok(0) if filled == 0 => return Ok(false),
            Ok(0) => return Err(TarError::Invalid("it ends inside a header".into())),
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(TarError::Invalid(e.to_string())),
        }
    }
    Ok(true)
}

/// Reads `size` bytes of data and the padding after them; the bytes when `keep`.
fn read_data(reader: &mut impl Read, size: u64, keep: bool) -> Result<Option<Vec<u8>>, TarError> {
    let padded = size.div_ceil(BLOCK as u64) * BLOCK as u64;
    let mut taken = reader.take(padded);
    let kept = if keep {
        let mut data = Vec::with_capacity(size.min(1 << 20) as usize);
        (&mut taken)
            .take(size)
            .read_to_end(&mut data)
            .map_err(|e| TarError::Invalid(e.to_string()))?;
        Some(data)
    } else {
        None
    };
    let rest = std::io::copy(&mut taken, &mut std::io::sink())
        .map_err(|e| TarError::Invalid(e.to_string()))?;
    let read = kept.as_ref().map_or(0, |d| d.len() as u64) + rest;
    if read < padded {
        return Err(TarError::Invalid("it ends inside an entry's data".into()));
    }
    Ok(kept)
}

/// The header checksum: the sum of its bytes with the checksum field read as spaces.
fn check_sum(header: &[u8; BLOCK]) -> Result<(), TarError> {
    let stored = octal(&header[148..156]);
    let sum: u64 = header
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            if (148..156).contains(&i) {
                32
            } else {
                u64::from(b)
            }
        })
        .sum();
    if stored == Some(sum) {
        Ok(())
    } else {
        Err(TarError::Invalid(
            "a header's checksum does not match; this is not a tar archive, or a damaged one"
                .into(),
        ))
    }
}

/// An octal number field, NUL- or space-terminated; `None` if it is not one.
fn octal(field: &[u8]) -> Option<u64> {
    let digits: Vec<u8> = field
        .iter()
        .copied()
        .skip_while(|&b| b == b' ')
        .take_while(|&b| b != 0 && b != b' ')
        .collect();
    if digits.is_empty() {
        return Some(0);
    }
    u64::from_str_radix(std::str::from_utf8(&digits).ok()?, 8).ok()
}

/// A NUL-terminated text field.
fn text(field: &[u8]) -> String {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    String::from_utf8_lossy(&field[..end]).into_owned()
}

/// The name of a UStar header: its `prefix` and `name` fields.
fn header_name(header: &[u8; BLOCK]) -> String {
    let name = text(&header[0..100]);
    let ustar = &header[257..262] == b"ustar";
    let prefix = if ustar {
        text(&header[345..500])
    } else {
        String::new()
    };
    if prefix.is_empty() {
        name
    } else {
        format!("{prefix}/{name}")
    }
}

/// The `path` record of a POSIX extended header (`<length> path=<name>\n` records).
fn pax_path(data: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(data);
    text.lines().find_map(|record| {
        let (_, pair) = record.split_once(' ')?;
        pair.strip_prefix("path=").map(str::to_string)
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A tar of `(name, type flag, data)` entries, as `tar` writes it (UStar headers).
    pub(crate) fn tar(entries: &[(&str, u8, &[u8])]) -> Vec<u8> {
        let mut out = Vec::new();
        for (name, flag, data) in entries {
            let mut header = [0u8; BLOCK];
            header[..name.len()].copy_from_slice(name.as_bytes());
            header[100..107].copy_from_slice(b"0000644");
            header[124..135].copy_from_slice(format!("{:011o}", data.len()).as_bytes());
            header[136..147].copy_from_slice(b"00000000000");
            header[156] = *flag;
            header[257..263].copy_from_slice(b"ustar\0");
            header[263..265].copy_from_slice(b"00");
            header[148..156].copy_from_slice(b"        ");
            let sum: u64 = header.iter().map(|&b| u64::from(b)).sum();
            header[148..155].copy_from_slice(format!("{sum:06o}\0").as_bytes());
            out.extend_from_slice(&header);
            out.extend_from_slice(data);
            out.resize(out.len().div_ceil(BLOCK) * BLOCK, 0);
        }
        out.resize(out.len() + 2 * BLOCK, 0);
        out
    }

    #[test]
    fn entries_are_read_with_their_kinds() {
        let long = format!("{}/x.yaml", "d".repeat(120));
        let pax = format!("{} path={long}\n", long.len() + 10);
        let bytes = tar(&[
            ("a/", b'5', b""),
            (
                "a/main.yaml",
                b'0',
                b"tosca_definitions_version: tosca_2_0\n",
            ),
            ("link", b'2', b""),
            ("pax", b'x', pax.as_bytes()),
            ("short", b'0', b"long name"),
        ]);
        let entries = read_all(&bytes[..], &Limits::default(), None).unwrap();
        let names: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["a/", "a/main.yaml", "link", long.as_str()]);
        assert!(matches!(&entries[1].1, TarEntry::File(d) if d.starts_with(b"tosca_")));
        assert!(matches!(entries[0].1, TarEntry::Dir));
        assert!(matches!(entries[2].1, TarEntry::Link));
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
        let limits = Limits {
            max_csar_bytes: 1000,
            ..Limits::default()
        };
        assert!(matches!(
            read_all(&bytes[..], &limits, None),
            Err(TarError::Limit(_))
        ));
        let mut broken = bytes.clone();
        broken[0] = b'X';
        assert!(matches!(
            read_all(&broken[..], &Limits::default(), None),
            Err(TarError::Invalid(_))
        ));
        assert!(matches!(
            read_all(&bytes[..700], &Limits::default(), None),
            Err(TarError::Invalid(_))
        ));
    }
}
