//! Command-line inputs: a file, a folder, a CSAR or standard input, and the entry file
//! each of them names.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::source::confine::{Root, RootKind, Slash, join_inside};
use crate::source::csar::Archive;
use crate::source::imports::normalize_path;
use crate::source::meta::{CsarMeta, parse_meta};
use crate::source::text::{ReadError, decode, os_reason, read_bounded, read_disk, read_magic};
use crate::source::{FileId, Origin, Span};

use super::{Fail, Input, InputArg, Loader, Place, Trust};

impl Loader {
    /// Opens one command-line input: a file, a directory, a CSAR or standard input. Returns
    /// `None` after pushing errors when nothing usable could be read.
    pub fn open_input(&mut self, input: &InputArg, diags: &mut Diagnostics) -> Option<Input> {
        match input {
            InputArg::Stdin => {
                let stdin = std::io::stdin();
                let lock = stdin.lock();
                self.open_reader(lock, diags)
            }
            InputArg::Path(path) => self.open_path(path, diags),
        }
    }

    /// Reads a template from any stream standing in for standard input (named `<stdin>`, with
    /// relative imports taken from the current directory); the seam for tests and embedders.
    pub fn open_reader(&mut self, reader: impl Read, diags: &mut Diagnostics) -> Option<Input> {
        let shown = "<stdin>";
        let bytes = match read_bounded(reader, self.options.limits.max_file_bytes) {
            Ok(b) => b,
            Err(e) => {
                diags.push(e.into_input_diagnostic(shown));
                return None;
            }
        };
        let text = match decode(bytes, shown) {
            Ok(t) => t,
            Err(d) => {
                diags.push(d);
                return None;
            }
        };
        let root = self.add_root(Root::new(&self.cwd, Path::new(""), RootKind::CurrentDir));
        let id = self.add(
            shown.to_string(),
            Origin::Stdin,
            text,
            Place::Stdin { root },
        );
        self.hand_out(id);
        Some(Input {
            entry: id,
            csar: None,
        })
    }

    fn open_path(&mut self, path: &Path, diags: &mut Diagnostics) -> Option<Input> {
        if self.options.overlay.has(&self.cwd.join(path)) {
            return self
                .read_file(path, diags)
                .map(|entry| Input { entry, csar: None });
        }
        let shown = path.display().to_string();
        let meta = match std::fs::metadata(path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                diags.push(ReadError::NotFound.into_input_diagnostic(&shown));
                return None;
            }
            Err(e) => {
                diags.push(ReadError::Io(e).into_input_diagnostic(&shown));
                return None;
            }
        };
        if meta.is_dir() {
            return self.open_dir(path, diags);
        }
        let lower = shown.to_ascii_lowercase();
        let magic = read_magic(path);
        let archive_name = [".zip", ".csar", ".tar", ".tar.gz", ".tgz"]
            .iter()
            .any(|ext| lower.ends_with(ext));
        if archive_name || magic.starts_with(b"PK\x03\x04") || magic.starts_with(&[0x1f, 0x8b]) {
            return self.open_archive(path, diags);
        }
        if let Some(entry) = &self.options.entry {
            diags.push(
                Diagnostic::warning(
                    codes::CLI_INPUTS,
                    format!(
                        "--entry {} is ignored: `{shown}` is a file, not a directory or CSAR",
                        entry.display()
                    ),
                )
                .hint("drop --entry, or pass the directory or archive that holds the entry"),
            );
        }
        self.read_file(path, diags)
            .map(|entry| Input { entry, csar: None })
    }

    pub(super) fn disk_place(&self, shown: PathBuf, root: usize, url: Option<String>) -> Place {
        let abs = normalize_path(&self.cwd.join(&shown));
        Place::Disk {
            shown: normalize_path(&shown),
            abs,
            root,
            url,
        }
    }

    /// A directory: an unpacked CSAR when it has a TOSCA.meta, otherwise `--entry` or its one
    /// service template. Either way the directory is the root: nothing of it is read through a
    /// link that leaves it.
    fn open_dir(&mut self, dir: &Path, diags: &mut Diagnostics) -> Option<Input> {
        let shown_dir = dir.display().to_string();
        let nested = dir.join("TOSCA-Metadata").join("TOSCA.meta");
        let root_meta = dir.join("TOSCA.meta");
        let metas: Vec<PathBuf> = [nested, root_meta]
            .into_iter()
            .filter(|p| p.is_file())
            .collect();
        if metas.len() > 1 {
            diags.push(two_metas(&shown_dir));
            return None;
        }
        let kind = match metas.is_empty() {
            true => RootKind::Folder,
            false => RootKind::CsarDir,
        };
        let root = self.add_root(Root::new(&self.cwd, dir, kind));
        if let Some(meta_path) = metas.first() {
            return self.open_csar_dir(meta_path, root, &shown_dir, diags);
        }
        if let Some(entry) = self.options.entry.clone() {
            return self.open_named_entry(&entry, root, &shown_dir, diags);
        }
        let candidates = self.service_templates_in(root, diags)?;
        match candidates.as_slice() {
            [] => {
                diags.push(
                    Diagnostic::error(
                        codes::INPUT_NO_ENTRY,
                        format!(
                            "`{shown_dir}` has no service template: none of its top-level .yaml/.yml files declares `tosca_definitions_version` and has a `topology_template:` or `service_template:`"
                        ),
                    )
                    .hint("name the entry file with --entry FILE, or pass the file itself"),
                );
                None
            }
            [one] => {
                let shown = self.roots[root].show(one);
                let place = self.disk_place(shown.clone(), root, None);
                match self.load(place, false, Trust::Confined) {
                    Ok((id, _)) => Some(Input {
                        entry: id,
                        csar: None,
                    }),
                    Err(Fail::NotFound) => {
                        diags.push(
                            ReadError::NotFound.into_input_diagnostic(&shown.display().to_string()),
                        );
                        None
                    }
                    Err(fail) => {
                        let shown = shown.display().to_string();
                        diags.push(self.failed(fail, &format!("`{shown}`"), &shown));
                        None
                    }
                }
            }
            several => {
                diags.push(ambiguous(&shown_dir, several));
                None
            }
        }
    }

    /// A folder laid out as a CSAR (its TOSCA.meta at `meta_path`): the entry the meta names,
    /// with every `Other-Definitions` file checked to be there.
    fn open_csar_dir(
        &mut self,
        meta_path: &Path,
        root: usize,
        shown_dir: &str,
        diags: &mut Diagnostics,
    ) -> Option<Input> {
        let meta_shown = meta_path.display().to_string();
        if let Err(why) = self.roots[root].admits(meta_path) {
            diags.push(
                self.roots[root]
                    .refusal(&format!("`{meta_shown}`"), &why)
                    .in_file(meta_shown),
            );
            return None;
        }
        let text = match read_disk(meta_path, self.options.limits.max_file_bytes) {
            Ok(b) => match decode(b, &meta_shown) {
                Ok(t) => t,
                Err(d) => {
                    diags.push(d);
                    return None;
                }
            },
            Err(e) => {
                diags.push(e.into_input_diagnostic(&meta_shown));
                return None;
            }
        };
        let meta_id = self.add(
            normalize_path(meta_path).display().to_string(),
            Origin::Path(meta_path.to_path_buf()),
            text,
            Place::Meta,
        );
        let meta = self.parse_meta_file(meta_id, diags)?;
        let entry = self.meta_entry(&meta, meta_id, shown_dir, diags)?;
        for (name, span) in self.other_definitions(&meta) {
            let exists = join_inside("", &name, Slash::Root).is_ok_and(|n| {
                let path = self.roots[root].locate(&n);
                path.is_file() && self.roots[root].admits(&path).is_ok()
            });
            if !exists {
                diags.push(missing_other_definition(&name, shown_dir, span));
            }
        }
        let place = self.disk_place(self.roots[root].show(&entry), root, None);
        self.finish_entry(place, meta, &entry, shown_dir, diags)
    }

    /// A folder's entry named by `--entry`, relative to the folder.
    fn open_named_entry(
        &mut self,
        entry: &Path,
        root: usize,
        shown_dir: &str,
        diags: &mut Diagnostics,
    ) -> Option<Input> {
        let written = entry.to_string_lossy();
        let name = match join_inside("", &written, Slash::Root) {
            Ok(name) => name,
            Err(_) => {
                diags.push(entry_escapes(&written, shown_dir));
                return None;
            }
        };
        let shown = self.roots[root].show(&name).display().to_string();
        let place = self.disk_place(self.roots[root].show(&name), root, None);
        match self.load(place, false, Trust::Confined) {
            Ok((id, _)) => Some(Input {
                entry: id,
                csar: None,
            }),
            Err(Fail::NotFound) => {
                diags.push(
                    Diagnostic::error(
                        codes::INPUT_NOT_FOUND,
                        format!("--entry names `{shown}`, which does not exist"),
                    )
                    .hint("--entry is relative to the directory given as input"),
                );
                None
            }
            Err(fail) => {
                diags.push(self.failed(fail, &format!("--entry `{written}`"), &shown));
                None
            }
        }
    }

    /// Top-level YAML files of a directory that look like service templates, sorted by name.
    /// Links that leave the folder are not candidates: they are not the template's files.
    fn service_templates_in(&self, root: usize, diags: &mut Diagnostics) -> Option<Vec<String>> {
        let root = &self.roots[root];
        let dir = &root.abs;
        let read = match std::fs::read_dir(dir) {
            Ok(r) => r,
            Err(e) => {
                diags.push(
                    Diagnostic::error(
                        codes::INPUT_UNREADABLE,
                        format!("cannot list `{}`: {}", root.shown.display(), os_reason(&e)),
                    )
                    .hint("check that you may read the directory"),
                );
                return None;
            }
        };
        let mut names: Vec<String> = read
            .filter_map(|e| e.ok())
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file() || t.is_symlink()))
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .filter(|n| is_yaml_name(n))
            .collect();
        names.sort();
        let limit = self.options.limits.max_file_bytes;
        Some(
            names
                .into_iter()
                .filter(|n| {
                    let path = dir.join(n);
                    root.admits(&path).is_ok()
                        && read_disk(&path, limit).is_ok_and(|b| {
                            looks_like_service_template(&String::from_utf8_lossy(&b))
                        })
                })
                .collect(),
        )
    }

    /// A CSAR (zip, or tar as TOSCA 2.0 allows): checked whole, then its meta file or its single
    /// root YAML file.
    fn open_archive(&mut self, path: &Path, diags: &mut Diagnostics) -> Option<Input> {
        let shown = path.display().to_string();
        let mut found = Vec::new();
        let archive = Archive::open(
            path.to_path_buf(),
            shown.clone(),
            &self.options.limits,
            &mut found,
        );
        diags.extend(found);
        let archive = archive?;
        let index = self.archives.len();
        self.archives.push(archive);
        let archive = &self.archives[index];

        let accepted = ["TOSCA-Metadata/TOSCA.meta", "TOSCA.meta"];
        let metas: Vec<&str> = accepted
            .into_iter()
            .filter(|n| archive.has_file(n))
            .collect();
        if metas.len() > 1 {
            diags.push(two_metas(&shown));
            return None;
        }
        if metas.is_empty() {
            // A TOSCA.meta that is almost in the right place is a mistake, not an absence.
            let misplaced: Vec<String> = archive
                .file_names()
                .filter(|n| {
                    let last = n.rsplit('/').next().unwrap_or(n);
                    last.eq_ignore_ascii_case("TOSCA.meta") && n.matches('/').count() <= 1
                })
                .map(str::to_string)
                .collect();
            if let Some(wrong) = misplaced.first() {
                diags.push(
                    Diagnostic::error(
                        codes::CSAR_META,
                        format!(
                            "`{shown}` has a meta file at `{wrong}`, where TOSCA does not look for it"
                        ),
                    )
                    .hint("TOSCA reads `TOSCA-Metadata/TOSCA.meta` (or `TOSCA.meta` at the root in TOSCA 2.0); rename it"),
                );
                return None;
            }
        }
        let (meta, entry) = if let Some(meta_name) = metas.first().map(|s| s.to_string()) {
            self.archive_meta(path, index, meta_name, &shown, diags)?
        } else if let Some(entry) = self.options.entry.clone() {
            let Some(entry) = join_inside("", &entry.to_string_lossy(), Slash::Root).ok() else {
                diags.push(entry_escapes(&entry.display().to_string(), &shown));
                return None;
            };
            (CsarMeta::default(), entry)
        } else {
            let roots: Vec<String> = self.archives[index]
                .file_names()
                .filter(|n| !n.contains('/') && is_yaml_name(n))
                .map(str::to_string)
                .collect();
            match roots.as_slice() {
                [one] => (CsarMeta::default(), one.clone()),
                [] => {
                    diags.push(
                        Diagnostic::error(
                            codes::INPUT_NO_ENTRY,
                            format!(
                                "`{shown}` has no TOSCA-Metadata/TOSCA.meta and no .yaml/.yml file at its root, so it has no entry point"
                            ),
                        )
                        .hint("add TOSCA-Metadata/TOSCA.meta with `Entry-Definitions: PATH`, or use --entry PATH (inside the archive)"),
                    );
                    return None;
                }
                several => {
                    diags.push(ambiguous(&shown, several));
                    return None;
                }
            }
        };
        let place = Place::Entry {
            archive: index,
            entry: entry.clone(),
        };
        self.finish_entry(place, meta, &entry, &shown, diags)
    }

    /// An archive's TOSCA.meta (`meta_name`): the meta and the entry it names, with every
    /// `Other-Definitions` file checked to be in the archive.
    fn archive_meta(
        &mut self,
        path: &Path,
        index: usize,
        meta_name: String,
        shown: &str,
        diags: &mut Diagnostics,
    ) -> Option<(CsarMeta, String)> {
        let meta_shown = format!("{shown}!/{meta_name}");
        let limits = self.options.limits.clone();
        let bytes = match self.archives[index].read(&meta_name, &limits) {
            Ok(b) => b,
            Err(e) => {
                diags.push(e.into_diagnostic(&meta_shown));
                return None;
            }
        };
        let text = match decode(bytes, &meta_shown) {
            Ok(t) => t,
            Err(d) => {
                diags.push(d);
                return None;
            }
        };
        let meta_id = self.add(
            meta_shown,
            Origin::Archive {
                archive: path.to_path_buf(),
                entry: meta_name,
            },
            text,
            Place::Meta,
        );
        let meta = self.parse_meta_file(meta_id, diags)?;
        let entry = self.meta_entry(&meta, meta_id, shown, diags)?;
        for (name, span) in self.other_definitions(&meta) {
            let exists = join_inside("", &name, Slash::Root)
                .ok()
                .is_some_and(|n| self.archives[index].has_file(&n));
            if !exists {
                diags.push(missing_other_definition(&name, shown, span));
            }
        }
        Some((meta, entry))
    }

    fn parse_meta_file(&mut self, meta_id: FileId, diags: &mut Diagnostics) -> Option<CsarMeta> {
        match parse_meta(self.sources.get(meta_id), meta_id) {
            Ok(m) => Some(m),
            Err(errors) => {
                diags.extend(errors);
                None
            }
        }
    }

    /// The entry named by `--entry` or `Entry-Definitions`, normalized inside the root.
    fn meta_entry(
        &self,
        meta: &CsarMeta,
        meta_id: FileId,
        shown: &str,
        diags: &mut Diagnostics,
    ) -> Option<String> {
        if let Some(entry) = &self.options.entry {
            let text = entry.to_string_lossy();
            let Some(norm) = join_inside("", &text, Slash::Root).ok() else {
                diags.push(entry_escapes(&text, shown));
                return None;
            };
            return Some(norm);
        }
        let Some(value) = &meta.entry_definitions else {
            let file = self.sources.get(meta_id);
            let near = meta
                .other
                .keys()
                .find(|k| k.to_ascii_lowercase().starts_with("entry"))
                .map(|k| format!(" (found `{k}`; the key is `Entry-Definitions`)"))
                .unwrap_or_default();
            diags.push(
                Diagnostic::error(
                    codes::CSAR_META,
                    format!("TOSCA.meta of `{shown}` has no `Entry-Definitions` key{near}"),
                )
                .at(file.span(meta_id, 0, 0))
                .hint("add `Entry-Definitions: PATH/TO/service.yaml` to the first block, or use --entry PATH"),
            );
            return None;
        };
        let span = meta
            .spans
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("Entry-Definitions"))
            .map(|(_, s)| *s);
        let Some(norm) = join_inside("", value, Slash::Root).ok() else {
            let mut d = Diagnostic::error(
                codes::CSAR_META,
                format!("`Entry-Definitions: {value}` leaves `{shown}`"),
            )
            .hint("Entry-Definitions is a path inside the CSAR, relative to its root");
            if let Some(span) = span {
                d = d.at(span);
            }
            diags.push(d);
            return None;
        };
        Some(norm)
    }

    /// `Other-Definitions` names with the span of the key's value, for "missing" warnings.
    fn other_definitions(&self, meta: &CsarMeta) -> Vec<(String, Option<Span>)> {
        let span = meta
            .spans
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("Other-Definitions"))
            .map(|(_, s)| *s);
        meta.other_definitions
            .iter()
            .map(|n| (n.clone(), span))
            .collect()
    }

    /// Loads the entry of a CSAR (zipped or unpacked) and words a missing one after where the
    /// name came from.
    fn finish_entry(
        &mut self,
        place: Place,
        meta: CsarMeta,
        entry: &str,
        shown: &str,
        diags: &mut Diagnostics,
    ) -> Option<Input> {
        let from_flag = self.options.entry.is_some();
        let span = meta
            .spans
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("Entry-Definitions"))
            .map(|(_, s)| *s);
        match self.load(place, false, Trust::Confined) {
            Ok((id, _)) => Some(Input {
                entry: id,
                csar: Some(meta),
            }),
            Err(Fail::Outside(root, why)) => {
                let what = match from_flag {
                    true => format!("--entry `{entry}`"),
                    false => format!("`Entry-Definitions: {entry}`"),
                };
                let mut d = self.roots[root].refusal(&what, &why);
                if let (false, Some(span)) = (from_flag, span) {
                    d = d.at(span);
                }
                diags.push(d);
                None
            }
            Err(Fail::NotFound) => {
                let mut d = if from_flag {
                    Diagnostic::error(
                        codes::INPUT_NOT_FOUND,
                        format!("--entry names `{entry}`, which is not in `{shown}`"),
                    )
                    .hint("--entry is relative to the root of the CSAR")
                } else {
                    Diagnostic::error(
                        codes::CSAR_META,
                        format!("`Entry-Definitions` names `{entry}`, which is not in `{shown}`"),
                    )
                    .hint("correct the path in TOSCA.meta; it is relative to the CSAR root")
                };
                if let (false, Some(span)) = (from_flag, span) {
                    d = d.at(span);
                }
                diags.push(d);
                None
            }
            Err(Fail::Other(d)) => {
                diags.push(d);
                None
            }
        }
    }
}

/// Whether a file name has a YAML extension (any case).
fn is_yaml_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".yaml") || lower.ends_with(".yml")
}

/// Whether `line` starts, at column 0, with `key` (optionally quoted) followed by `:`.
fn key_at_col0(line: &str, key: &str) -> bool {
    let (quote, rest) = match line.chars().next() {
        Some(q @ ('"' | '\'')) => (Some(q), &line[1..]),
        _ => (None, line),
    };
    let Some(mut rest) = rest.strip_prefix(key) else {
        return false;
    };
    if let Some(q) = quote {
        let Some(after) = rest.strip_prefix(q) else {
            return false;
        };
        rest = after;
    }
    rest.trim_start_matches([' ', '\t']).starts_with(':')
}

/// The cheap textual test for "this file is a service template": a top-level
/// `tosca_definitions_version` and a top-level `topology_template` or `service_template`.
pub(crate) fn looks_like_service_template(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut version = false;
    let mut template = false;
    for line in text.lines() {
        version |= key_at_col0(line, "tosca_definitions_version");
        template |= key_at_col0(line, "topology_template") || key_at_col0(line, "service_template");
    }
    version && template
}

fn two_metas(shown: &str) -> Diagnostic {
    Diagnostic::error(
        codes::CSAR_META,
        format!("`{shown}` has both `TOSCA-Metadata/TOSCA.meta` and a root `TOSCA.meta`"),
    )
    .hint("a CSAR has exactly one TOSCA.meta; remove one of them")
}

fn ambiguous(shown: &str, candidates: &[String]) -> Diagnostic {
    let list = candidates
        .iter()
        .map(|c| format!("`{c}`"))
        .collect::<Vec<_>>()
        .join(", ");
    Diagnostic::error(
        codes::INPUT_AMBIGUOUS_ENTRY,
        format!(
            "`{shown}` has {} candidate entry files: {list}",
            candidates.len()
        ),
    )
    .hint(format!(
        "choose one with --entry, e.g. --entry {}",
        candidates[0]
    ))
}

fn entry_escapes(entry: &str, shown: &str) -> Diagnostic {
    Diagnostic::error(
        codes::INPUT_NOT_FOUND,
        format!("--entry `{entry}` leaves `{shown}`"),
    )
    .hint("--entry is a path inside the CSAR, relative to its root")
}

fn missing_other_definition(name: &str, shown: &str, span: Option<Span>) -> Diagnostic {
    let d = Diagnostic::warning(
        codes::CSAR_META,
        format!("`Other-Definitions` names `{name}`, which is not in `{shown}`"),
    )
    .hint("correct the name or remove it from Other-Definitions");
    match span {
        Some(s) => d.at(s),
        None => d,
    }
}
