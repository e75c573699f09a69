//! The [`Loader`]: turns command-line inputs and imports into files in a [`SourceMap`].

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::artifacts::ArtifactFiles;
use super::csar::{Archive, EntryError, entry_dir, join_entry};
use super::imports::{
    ImportRef, Target, classify, join_repository, join_web, map_web, normalize_path, suggested_map,
};
use super::meta::{CsarMeta, parse_meta};
use super::text::{ReadError, decode, os_reason, read_bounded, read_disk};
use super::{FileId, Origin, SourceMap, Span};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::limits::Limits;

/// What the command line says about where to read from, gathered in one value so the loader
/// does not depend on the CLI types.
#[derive(Debug, Clone, Default)]
pub struct SourceOptions {
    /// `--entry PATH`: which file of a directory or CSAR is the service template, when the
    /// automatic choice is impossible or wrong. Relative to the directory or archive root.
    pub entry: Option<PathBuf>,
    /// `--map-url PREFIX=DIR`: local folders standing in for URL prefixes, because toscana never
    /// uses the network. The longest matching prefix wins.
    pub map_url: Vec<(String, PathBuf)>,
    /// Size bounds for files and archives.
    pub limits: Limits,
    /// `--profile-path DIR`: folders holding TOSCA 2.0 profiles laid out by profile name.
    pub profile_paths: Vec<PathBuf>,
}

/// One input named on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputArg {
    /// A file, a directory or a CSAR archive.
    Path(PathBuf),
    /// Standard input (`-` on the command line), so templates can be piped in.
    Stdin,
}

impl InputArg {
    /// The command-line convention: `-` is standard input, anything else a path.
    pub fn from_arg(arg: &OsStr) -> Self {
        if arg == "-" {
            InputArg::Stdin
        } else {
            InputArg::Path(PathBuf::from(arg))
        }
    }
}

/// An opened input: the file to parse first and, for a CSAR, what its metadata said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// The service template to parse; its imports go through [`Loader::resolve_import`].
    pub entry: FileId,
    /// `Some` when the input was a CSAR (zipped or unpacked), so the front end can check
    /// `CSAR-Version` and find `Other-Definitions`.
    pub csar: Option<CsarMeta>,
}

/// Where a loaded file lives, which decides how its relative imports resolve.
#[derive(Debug, Clone)]
enum Place {
    /// On disk. `shown` is the user-facing path (relative stays relative), `abs` the normalized
    /// absolute one. `root` is set for files of an unpacked CSAR directory: their imports may not
    /// leave it, and `/` means it. `url` is set for files read through `--map-url`: their
    /// relative imports are URLs again.
    Disk {
        shown: PathBuf,
        abs: PathBuf,
        root: Option<(PathBuf, PathBuf)>,
        url: Option<String>,
    },
    /// An entry of an open archive (index into `Loader::archives`).
    Entry { archive: usize, entry: String },
    /// Standard input: relative imports resolve against the current directory.
    Stdin,
    /// An embedded profile file: relative imports resolve among the other embedded files.
    Builtin(String),
    /// A TOSCA.meta file: never imports anything.
    Meta,
}

/// The identity of a location, so each is read once however it is spelled.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Disk(PathBuf),
    Entry(usize, String),
    Builtin(String),
}

/// Why a load failed: "not found" is worded by the caller (input or import), everything else
/// is already a diagnostic.
enum Fail {
    NotFound,
    Other(Diagnostic),
}

/// Reads every file of a run, once each, into one [`SourceMap`].
///
/// The front end asks it for the entry file and then for each import; the loader owns every
/// decision about paths, archives and URLs, so no other stage touches the file system for
/// templates.
#[derive(Debug)]
pub struct Loader {
    sources: SourceMap,
    options: SourceOptions,
    archives: Vec<Archive>,
    /// Per file, indexed by `FileId`.
    places: Vec<Place>,
    /// Per file: has it been handed to the caller yet (decides `first_time`)?
    handed_out: Vec<bool>,
    cache: BTreeMap<Key, FileId>,
    /// Files read through imports, against `max_imports`.
    imports: usize,
    pub(super) cwd: PathBuf,
}

impl Loader {
    /// The file of the TOSCA 2.0 profile `name` in the `--profile-path` folders, if any.
    pub fn profile_file(&self, name: &str) -> Option<PathBuf> {
        super::profile_path::find(&self.options.profile_paths, name)
    }

    /// A loader with nothing read yet. The current directory is captured once, so relative
    /// paths mean the same thing for the whole run.
    pub fn new(options: SourceOptions) -> Self {
        Loader {
            sources: SourceMap::new(),
            options,
            archives: Vec::new(),
            places: Vec::new(),
            handed_out: Vec::new(),
            cache: BTreeMap::new(),
            imports: 0,
            cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
        }
    }

    /// Every file read so far, for parsing and for rendering diagnostics.
    pub fn sources(&self) -> &SourceMap {
        &self.sources
    }

    /// Gives up the loader and keeps its files, for the stages after loading.
    pub fn into_sources(self) -> SourceMap {
        self.sources
    }

    /// Gives up the loader for the stages after loading: its files, and the reader of the
    /// artifact files of the template whose entry is `entry`. `root` is the topology root the
    /// resolver resolves artifact paths against (relative to the current directory for files on
    /// disk; ignored for a zip CSAR, whose root is the archive's).
    pub fn into_parts(mut self, entry: FileId, root: Option<&str>) -> (SourceMap, ArtifactFiles) {
        let files = match self.places.get(entry.0 as usize) {
            Some(&Place::Entry { archive, .. }) => {
                ArtifactFiles::archive(self.archives.swap_remove(archive))
            }
            Some(Place::Disk { root: csar, .. }) => match root {
                Some(root) => ArtifactFiles::disk(self.cwd.join(root), csar.is_some()),
                None => ArtifactFiles::nowhere(),
            },
            Some(Place::Stdin) => ArtifactFiles::disk(self.cwd.clone(), false),
            _ => ArtifactFiles::nowhere(),
        };
        (self.sources, files)
    }

    /// Registers an embedded profile file under `name` (e.g. `tosca-2.0/profile.yaml`), so a
    /// profile import can return it like any other file and its relative imports resolve among
    /// the other embedded files. Registering the same name twice returns the first id.
    pub fn add_builtin(&mut self, name: &str, text: &'static str) -> FileId {
        let key = Key::Builtin(name.to_string());
        if let Some(&id) = self.cache.get(&key) {
            return id;
        }
        let id = self.add(
            format!("<builtin>/{name}"),
            Origin::Builtin(name.to_string()),
            text.to_string(),
            Place::Builtin(name.to_string()),
        );
        self.cache.insert(key, id);
        id
    }

    /// Reads one file from disk: a template given as a file, or an `--inputs` file, so its
    /// problems can be shown with line and column like any other.
    pub fn read_file(&mut self, path: &Path, diags: &mut Diagnostics) -> Option<FileId> {
        let shown = path.display().to_string();
        let place = self.disk_place(path.to_path_buf(), None, None);
        match self.load(place, false) {
            Ok((id, _)) => Some(id),
            Err(Fail::NotFound) => {
                diags.push(ReadError::NotFound.into_input_diagnostic(&shown));
                None
            }
            Err(Fail::Other(d)) => {
                diags.push(d);
                None
            }
        }
    }

    /// Keeps a piece of text that did not come from a file (a `--set` value), so diagnostics
    /// about it can quote it.
    pub fn add_text(&mut self, name: &str, origin: Origin, text: String) -> FileId {
        self.add(
            name.to_string(),
            origin,
            text,
            Place::Builtin(name.to_string()),
        )
    }

    /// Forgets which files were handed out, so the next read of a template (a substituting
    /// template read after the entry) walks its imports as if it came first.
    pub fn start_over(&mut self) {
        self.handed_out.iter_mut().for_each(|f| *f = false);
    }

    /// Marks a built-in file as handed out, returning whether this is the first time: for a
    /// profile import that the front end resolves by name rather than by path.
    pub fn take_builtin(&mut self, id: FileId) -> bool {
        self.hand_out(id)
    }

    fn add(&mut self, name: String, origin: Origin, text: String, place: Place) -> FileId {
        let id = self.sources.add(name, origin, text);
        self.places.push(place);
        self.handed_out.push(false);
        id
    }

    /// Whether this is the first time `id` is handed out (and marks it so).
    fn hand_out(&mut self, id: FileId) -> bool {
        match self.handed_out.get_mut(id.0 as usize) {
            Some(flag) => !std::mem::replace(flag, true),
            None => false,
        }
    }

    // ----- inputs -----------------------------------------------------------------------

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
        let id = self.add(shown.to_string(), Origin::Stdin, text, Place::Stdin);
        self.hand_out(id);
        Some(Input {
            entry: id,
            csar: None,
        })
    }

    fn open_path(&mut self, path: &Path, diags: &mut Diagnostics) -> Option<Input> {
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

    fn disk_place(
        &self,
        shown: PathBuf,
        root: Option<(PathBuf, PathBuf)>,
        url: Option<String>,
    ) -> Place {
        let abs = normalize_path(&self.cwd.join(&shown));
        Place::Disk {
            shown: normalize_path(&shown),
            abs,
            root,
            url,
        }
    }

    /// A directory: an unpacked CSAR when it has a TOSCA.meta, otherwise `--entry` or its one
    /// service template.
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
        let abs_dir = normalize_path(&self.cwd.join(dir));
        let root = Some((abs_dir, normalize_path(dir)));
        if let Some(meta_path) = metas.first() {
            let meta_shown = meta_path.display().to_string();
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
                Origin::Path(meta_path.clone()),
                text,
                Place::Meta,
            );
            let meta = self.parse_meta_file(meta_id, diags)?;
            let entry = self.meta_entry(&meta, meta_id, &shown_dir, diags)?;
            for (name, span) in self.other_definitions(&meta) {
                let exists = join_entry("", &name).is_some_and(|n| dir.join(&n).is_file());
                if !exists {
                    diags.push(missing_other_definition(&name, &shown_dir, span));
                }
            }
            let place = self.disk_place(dir.join(&entry), root, None);
            return self.finish_entry(place, meta, &entry, &shown_dir, diags);
        }
        if let Some(entry) = self.options.entry.clone() {
            let place = self.disk_place(dir.join(&entry), None, None);
            let shown = dir.join(&entry).display().to_string();
            return match self.load(place, false) {
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
                Err(Fail::Other(d)) => {
                    diags.push(d);
                    None
                }
            };
        }
        let candidates = self.service_templates_in(dir, diags)?;
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
                let place = self.disk_place(dir.join(one), None, None);
                match self.load(place, false) {
                    Ok((id, _)) => Some(Input {
                        entry: id,
                        csar: None,
                    }),
                    Err(Fail::NotFound) => {
                        diags.push(
                            ReadError::NotFound
                                .into_input_diagnostic(&dir.join(one).display().to_string()),
                        );
                        None
                    }
                    Err(Fail::Other(d)) => {
                        diags.push(d);
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

    /// Top-level YAML files of a directory that look like service templates, sorted by name.
    fn service_templates_in(&self, dir: &Path, diags: &mut Diagnostics) -> Option<Vec<String>> {
        let read = match std::fs::read_dir(dir) {
            Ok(r) => r,
            Err(e) => {
                diags.push(
                    Diagnostic::error(
                        codes::INPUT_UNREADABLE,
                        format!("cannot list `{}`: {}", dir.display(), os_reason(&e)),
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
                    read_disk(&dir.join(n), limit)
                        .is_ok_and(|b| looks_like_service_template(&String::from_utf8_lossy(&b)))
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
            let entry = self.meta_entry(&meta, meta_id, &shown, diags)?;
            for (name, span) in self.other_definitions(&meta) {
                let exists =
                    join_entry("", &name).is_some_and(|n| self.archives[index].has_file(&n));
                if !exists {
                    diags.push(missing_other_definition(&name, &shown, span));
                }
            }
            (meta, entry)
        } else if let Some(entry) = self.options.entry.clone() {
            let Some(entry) = join_entry("", &entry.to_string_lossy()) else {
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
            let Some(norm) = join_entry("", &text) else {
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
        let Some(norm) = join_entry("", value) else {
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
        match self.load(place, false) {
            Ok((id, _)) => Some(Input {
                entry: id,
                csar: Some(meta),
            }),
            Err(Fail::NotFound) => {
                let from_flag = self.options.entry.is_some();
                let span = meta
                    .spans
                    .iter()
                    .find(|(k, _)| k.eq_ignore_ascii_case("Entry-Definitions"))
                    .map(|(_, s)| *s);
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

    // ----- loading ----------------------------------------------------------------------

    /// Reads the file at `place` unless it was read before. Returns its id and whether this is
    /// the first time it is handed out. `is_import` counts it against `max_imports`.
    fn load(&mut self, place: Place, is_import: bool) -> Result<(FileId, bool), Fail> {
        let key = match &place {
            Place::Disk { abs, .. } => {
                Key::Disk(std::fs::canonicalize(abs).unwrap_or_else(|_| abs.clone()))
            }
            Place::Entry { archive, entry } => Key::Entry(*archive, entry.clone()),
            Place::Builtin(name) => Key::Builtin(name.clone()),
            Place::Stdin | Place::Meta => return Err(Fail::NotFound),
        };
        if let Some(&id) = self.cache.get(&key) {
            return Ok((id, self.hand_out(id)));
        }
        if matches!(place, Place::Builtin(_)) {
            return Err(Fail::NotFound);
        }
        let limits = self.options.limits.clone();
        if is_import && self.imports >= limits.max_imports {
            return Err(Fail::Other(
                Diagnostic::error(
                    codes::IMPORT_LIMIT,
                    format!(
                        "more files are imported than the limit of {}; not reading more",
                        limits.max_imports
                    ),
                )
                .hint("check for an import generator gone wrong"),
            ));
        }
        let (name, origin, bytes) = match &place {
            Place::Disk { shown, abs, .. } => {
                let name = shown.display().to_string();
                let bytes = match read_disk(abs, limits.max_file_bytes) {
                    Ok(b) => b,
                    Err(ReadError::NotFound) => return Err(Fail::NotFound),
                    Err(e) => return Err(Fail::Other(e.into_common_diagnostic(&name))),
                };
                (name, Origin::Path(shown.clone()), bytes)
            }
            Place::Entry { archive, entry } => {
                let a = &mut self.archives[*archive];
                let name = format!("{}!/{entry}", a.shown);
                let origin = Origin::Archive {
                    archive: a.path.clone(),
                    entry: entry.clone(),
                };
                let bytes = match a.read(entry, &limits) {
                    Ok(b) => b,
                    Err(EntryError::Read(ReadError::NotFound)) => return Err(Fail::NotFound),
                    Err(e) => return Err(Fail::Other(e.into_diagnostic(&name))),
                };
                (name, origin, bytes)
            }
            Place::Stdin | Place::Meta | Place::Builtin(_) => return Err(Fail::NotFound),
        };
        let text = decode(bytes, &name).map_err(Fail::Other)?;
        let id = self.add(name, origin, text, place);
        self.cache.insert(key, id);
        if is_import {
            self.imports += 1;
        }
        Ok((id, self.hand_out(id)))
    }

    // ----- imports ----------------------------------------------------------------------

    /// Resolves an import of `importer`; returns the file (read once: a second import of the
    /// same location returns the same FileId and `first_time = false`).
    ///
    /// Errors are pushed at `at` (the import's span). Cycles and depth are the caller's
    /// business: it walks the import graph and knows the chain.
    pub fn resolve_import(
        &mut self,
        importer: FileId,
        import: &ImportRef,
        at: Span,
        diags: &mut Diagnostics,
    ) -> Option<(FileId, bool)> {
        match self.resolve(importer, import, at) {
            Ok(found) => Some(found),
            Err(d) => {
                let d = if d.span.is_none() { d.at(at) } else { d };
                diags.push(d);
                None
            }
        }
    }

    fn resolve(
        &mut self,
        importer: FileId,
        import: &ImportRef,
        _at: Span,
    ) -> Result<(FileId, bool), Diagnostic> {
        let written = import.url.trim();
        if written.is_empty() {
            return Err(
                Diagnostic::error(codes::IMPORT_INVALID, "the import URL is empty")
                    .hint("write the path of the file to import"),
            );
        }
        let target = match import.repository_url {
            Some(repo) => {
                if !matches!(classify(written), Target::Path(_)) {
                    return Err(Diagnostic::error(
                        codes::IMPORT_INVALID,
                        format!("import `{written}` has a scheme and also a repository"),
                    )
                    .hint("with `repository`, `url` is a path inside the repository; drop one of them"));
                }
                join_repository(repo, written)
            }
            None => written.to_string(),
        };
        let place = self
            .places
            .get(importer.0 as usize)
            .cloned()
            .unwrap_or(Place::Stdin);
        match classify(&target) {
            Target::Web(url) => self.load_web(&url),
            Target::OtherScheme(scheme) => Err(Diagnostic::error(
                codes::IMPORT_INVALID,
                format!("cannot import `{target}`: the `{scheme}` scheme is not supported"),
            )
            .hint("toscana reads local paths, `file:` URLs and http(s) URLs mapped to folders with --map-url")),
            Target::File(path) if path.starts_with('/') => {
                let place = self.disk_place(PathBuf::from(&path), None, None);
                self.load_import(place, &target)
            }
            Target::File(path) | Target::Path(path) => self.resolve_path(&place, &path, &target),
        }
    }

    /// A scheme-less path, resolved the way its importer's location says.
    fn resolve_path(
        &mut self,
        importer: &Place,
        path: &str,
        written: &str,
    ) -> Result<(FileId, bool), Diagnostic> {
        match importer {
            Place::Entry { archive, entry } => {
                let shown = self.archives[*archive].shown.clone();
                // T2-IMPORT-07: a leading `/` is the root of the CSAR (its "repository").
                let Some(name) = join_entry(entry_dir(entry), path) else {
                    return Err(Diagnostic::error(
                        codes::IMPORT_NOT_FOUND,
                        format!("import `{written}` leaves the archive `{shown}`"),
                    )
                    .hint("imports inside a CSAR are paths inside it; `..` may not climb above its root"));
                };
                let place = Place::Entry {
                    archive: *archive,
                    entry: name.clone(),
                };
                self.load_import(place, &format!("{shown}!/{name}"))
            }
            Place::Disk {
                shown,
                abs,
                root,
                url,
            } => {
                if let Some(base) = url {
                    let Some(joined) = join_web(base, path) else {
                        return Err(Diagnostic::error(
                            codes::IMPORT_NOT_FOUND,
                            format!("import `{written}` of `{base}` climbs above the server root"),
                        ));
                    };
                    return self.load_web(&joined);
                }
                if let Some((root_abs, root_shown)) = root {
                    // An unpacked CSAR: same rules as inside an archive.
                    let rel_dir = abs
                        .parent()
                        .and_then(|p| p.strip_prefix(root_abs).ok())
                        .map(|p| p.to_string_lossy().replace('\\', "/"))
                        .unwrap_or_default();
                    let Some(name) = join_entry(&rel_dir, path) else {
                        return Err(Diagnostic::error(
                            codes::IMPORT_NOT_FOUND,
                            format!(
                                "import `{written}` leaves the CSAR directory `{}`",
                                root_shown.display()
                            ),
                        )
                        .hint("imports inside a CSAR are paths inside it; `..` may not climb above its root"));
                    };
                    let place = self.disk_place(
                        root_shown.join(&name),
                        Some((root_abs.clone(), root_shown.clone())),
                        None,
                    );
                    let tried = root_shown.join(&name).display().to_string();
                    return self.load_import(place, &tried);
                }
                let target = if Path::new(path).is_absolute() {
                    PathBuf::from(path)
                } else {
                    shown.parent().unwrap_or(Path::new("")).join(path)
                };
                let place = self.disk_place(target.clone(), None, None);
                self.load_import(place, &normalize_path(&target).display().to_string())
            }
            Place::Stdin => {
                let place = self.disk_place(PathBuf::from(path), None, None);
                self.load_import(
                    place,
                    &normalize_path(Path::new(path)).display().to_string(),
                )
            }
            Place::Builtin(name) => {
                let Some(joined) = join_entry(entry_dir(name), path) else {
                    return Err(Diagnostic::error(
                        codes::IMPORT_NOT_FOUND,
                        format!(
                            "built-in file `{name}` imports `{written}`, which leaves the built-in profiles"
                        ),
                    ));
                };
                self.load_import(
                    Place::Builtin(joined.clone()),
                    &format!("<builtin>/{joined}"),
                )
            }
            Place::Meta => Err(Diagnostic::error(
                codes::IMPORT_INVALID,
                "a TOSCA.meta file cannot import anything",
            )),
        }
    }

    /// An `http(s)` URL: only through `--map-url`.
    fn load_web(&mut self, url: &str) -> Result<(FileId, bool), Diagnostic> {
        match map_web(url, &self.options.map_url) {
            None => Err(Diagnostic::error(
                codes::IMPORT_UNMAPPED_URL,
                format!("cannot import `{url}`: toscana never uses the network, and no --map-url covers this URL"),
            )
            .hint(format!(
                "download it and add `{}` (DIR is the local folder holding the files under that prefix)",
                suggested_map(url)
            ))),
            Some(Err(())) => Err(Diagnostic::error(
                codes::IMPORT_NOT_FOUND,
                format!("import `{url}` climbs out of its --map-url folder with `..`"),
            )),
            Some(Ok((prefix, path))) => {
                let place = self.disk_place(path.clone(), None, Some(url.to_string()));
                let tried = format!(
                    "{} (`{url}` through --map-url {prefix}={})",
                    path.display(),
                    self.options
                        .map_url
                        .iter()
                        .find(|(p, _)| *p == prefix)
                        .map(|(_, d)| d.display().to_string())
                        .unwrap_or_default()
                );
                self.load_import(place, &tried)
            }
        }
    }

    fn load_import(&mut self, place: Place, tried: &str) -> Result<(FileId, bool), Diagnostic> {
        match self.load(place, true) {
            Ok(found) => Ok(found),
            Err(Fail::NotFound) => Err(Diagnostic::error(
                codes::IMPORT_NOT_FOUND,
                format!("imported file not found: tried `{tried}`"),
            )
            .hint("relative imports are resolved against the directory of the importing file")),
            Err(Fail::Other(d)) => Err(d),
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

/// The first bytes of a file, for format sniffing (empty if unreadable; the real read reports).
fn read_magic(path: &Path) -> Vec<u8> {
    let mut buf = Vec::new();
    if let Ok(f) = std::fs::File::open(path) {
        let _ = f.take(4).read_to_end(&mut buf);
    }
    buf
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
