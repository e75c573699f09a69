//! The [`Loader`]: turns command-line inputs and imports into files in a [`SourceMap`].

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::artifacts::ArtifactFiles;
use super::confine::{Escape, Root, RootKind, Slash, folder, join_inside};
use super::csar::{Archive, EntryError};
use super::imports::{
    ImportRef, Target, classify, join_repository, join_web, map_web, normalize_path, suggested_map,
};
use super::meta::{CsarMeta, parse_meta};
use super::overlay::Overlay;
use super::text::{ReadError, decode, os_reason, read_bounded, read_disk, read_magic};
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
    /// Texts that stand in for files on disk: an editor's unsaved buffers (`toscana lsp`).
    pub overlay: Overlay,
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

/// What [`Loader::resolve_profile`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProfileLookup {
    /// The profile's file, and whether this is the first time it is handed out.
    Found(FileId, bool),
    /// A `--profile-path` folder has it, but it could not be read (reported).
    Unreadable,
    /// No `--profile-path` folder has it.
    Unknown,
}

/// Where a loaded file lives, which decides how its relative imports resolve.
#[derive(Debug, Clone)]
enum Place {
    /// On disk. `shown` is the user-facing path (relative stays relative), `abs` the normalized
    /// absolute one. `root` (index into `Loader::roots`) is the folder its imports may not leave,
    /// and what a leading `/` means. `url` is set for files read through `--map-url`: their
    /// relative imports are URLs again.
    Disk {
        shown: PathBuf,
        abs: PathBuf,
        root: usize,
        url: Option<String>,
    },
    /// An entry of an open archive (index into `Loader::archives`).
    Entry { archive: usize, entry: String },
    /// Standard input: relative imports resolve against the current directory, its root
    /// (index into `Loader::roots`).
    Stdin { root: usize },
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

/// Why a load failed: "not found" and "outside the root" are worded by the caller (input or
/// import), everything else is already a diagnostic.
enum Fail {
    NotFound,
    /// The file is inside its root by name, but a symbolic link takes it outside.
    Outside(usize, Escape),
    Other(Diagnostic),
}

/// Whether a file on disk is read as named or only inside its root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Trust {
    /// Named on the command line (the template file, an `--inputs` file): the user's choice,
    /// read even through a link.
    Named,
    /// Named by a template or found in a folder: read only inside its root.
    Confined,
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
    /// The folders files on disk may read inside of, indexed by `Place::Disk::root`.
    roots: Vec<Root>,
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
    /// Reads the TOSCA 2.0 profile `name` from the first `--profile-path` folder that has it
    /// (see [`super::profile_path`]); its own imports stay inside that folder. An error is
    /// pushed at `at` only when a folder has it but it cannot be read.
    pub fn resolve_profile(
        &mut self,
        name: &str,
        at: Span,
        diags: &mut Diagnostics,
    ) -> ProfileLookup {
        let cwd = self.cwd.clone();
        let folders: Vec<Root> = self
            .options
            .profile_paths
            .iter()
            .map(|p| Root::new(&cwd, p, RootKind::ProfilePath))
            .collect();
        let Some((folder, name_in)) = super::profile_path::find(&folders, name) else {
            return ProfileLookup::Unknown;
        };
        let root = self.add_root(folders[folder].clone());
        let shown = self.roots[root].show(&name_in);
        let tried = shown.display().to_string();
        let place = self.disk_place(shown, root, None);
        match self.load(place, true, Trust::Confined) {
            Ok((id, first_time)) => ProfileLookup::Found(id, first_time),
            Err(fail) => {
                diags.push(
                    self.failed(fail, &format!("profile `{name}`"), &tried)
                        .at(at),
                );
                ProfileLookup::Unreadable
            }
        }
    }

    /// Registers a root, or finds the same folder registered before.
    fn add_root(&mut self, root: Root) -> usize {
        if let Some(i) = self
            .roots
            .iter()
            .position(|r| r.abs == root.abs && r.kind == root.kind)
        {
            return i;
        }
        self.roots.push(root);
        self.roots.len() - 1
    }

    /// The diagnostic for a failed load of `what`: `tried` names where a missing file was
    /// looked for.
    fn failed(&self, fail: Fail, what: &str, tried: &str) -> Diagnostic {
        match fail {
            Fail::NotFound => not_found(tried),
            Fail::Outside(root, why) => self.roots[root].refusal(what, &why),
            Fail::Other(d) => d,
        }
    }

    /// A loader with nothing read yet. The current directory is captured once, so relative
    /// paths mean the same thing for the whole run.
    pub fn new(options: SourceOptions) -> Self {
        Loader {
            sources: SourceMap::new(),
            options,
            archives: Vec::new(),
            roots: Vec::new(),
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
    /// disk; ignored for a zip CSAR, whose root is the archive's); the files are read only
    /// inside the root of the entry (see [`super::confine`]).
    pub fn into_parts(mut self, entry: FileId, root: Option<&str>) -> (SourceMap, ArtifactFiles) {
        let files = match self.places.get(entry.0 as usize) {
            Some(&Place::Entry { archive, .. }) => {
                ArtifactFiles::archive(self.archives.swap_remove(archive))
            }
            Some(&Place::Disk { root: of_entry, .. }) => match root {
                Some(base) => ArtifactFiles::disk(
                    normalize_path(&self.cwd.join(base)),
                    self.roots[of_entry].clone(),
                ),
                None => ArtifactFiles::nowhere(),
            },
            Some(&Place::Stdin { root }) => {
                ArtifactFiles::disk(self.cwd.clone(), self.roots[root].clone())
            }
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
    ///
    /// The file is the user's choice, so it is read as named; its root, for its imports, is its
    /// folder.
    pub fn read_file(&mut self, path: &Path, diags: &mut Diagnostics) -> Option<FileId> {
        let shown = path.display().to_string();
        let folder = path.parent().unwrap_or(Path::new(""));
        let root = self.add_root(Root::new(&self.cwd, folder, RootKind::Folder));
        let place = self.disk_place(path.to_path_buf(), root, None);
        match self.load(place, false, Trust::Named) {
            Ok((id, _)) => Some(id),
            Err(Fail::NotFound) => {
                diags.push(ReadError::NotFound.into_input_diagnostic(&shown));
                None
            }
            Err(fail) => {
                diags.push(self.failed(fail, &format!("`{shown}`"), &shown));
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

    fn disk_place(&self, shown: PathBuf, root: usize, url: Option<String>) -> Place {
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
                Origin::Path(meta_path.clone()),
                text,
                Place::Meta,
            );
            let meta = self.parse_meta_file(meta_id, diags)?;
            let entry = self.meta_entry(&meta, meta_id, &shown_dir, diags)?;
            for (name, span) in self.other_definitions(&meta) {
                let exists = join_inside("", &name, Slash::Root).is_ok_and(|n| {
                    let path = self.roots[root].locate(&n);
                    path.is_file() && self.roots[root].admits(&path).is_ok()
                });
                if !exists {
                    diags.push(missing_other_definition(&name, &shown_dir, span));
                }
            }
            let place = self.disk_place(self.roots[root].show(&entry), root, None);
            return self.finish_entry(place, meta, &entry, &shown_dir, diags);
        }
        if let Some(entry) = self.options.entry.clone() {
            let written = entry.to_string_lossy();
            let name = match join_inside("", &written, Slash::Root) {
                Ok(name) => name,
                Err(_) => {
                    diags.push(entry_escapes(&written, &shown_dir));
                    return None;
                }
            };
            let shown = self.roots[root].show(&name).display().to_string();
            let place = self.disk_place(self.roots[root].show(&name), root, None);
            return match self.load(place, false, Trust::Confined) {
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
            };
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
                let exists = join_inside("", &name, Slash::Root)
                    .ok()
                    .is_some_and(|n| self.archives[index].has_file(&n));
                if !exists {
                    diags.push(missing_other_definition(&name, &shown, span));
                }
            }
            (meta, entry)
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

    // ----- loading ----------------------------------------------------------------------

    /// Reads the file at `place` unless it was read before. Returns its id and whether this is
    /// the first time it is handed out. `is_import` counts it against `max_imports`; a
    /// `Confined` file on disk is read only if no link takes it outside its root.
    fn load(
        &mut self,
        place: Place,
        is_import: bool,
        trust: Trust,
    ) -> Result<(FileId, bool), Fail> {
        let key = match &place {
            Place::Disk { abs, root, .. } => {
                if trust == Trust::Confined {
                    self.roots[*root]
                        .admits(abs)
                        .map_err(|why| Fail::Outside(*root, why))?;
                }
                Key::Disk(std::fs::canonicalize(abs).unwrap_or_else(|_| abs.clone()))
            }
            Place::Entry { archive, entry } => Key::Entry(*archive, entry.clone()),
            Place::Builtin(name) => Key::Builtin(name.clone()),
            Place::Stdin { .. } | Place::Meta => return Err(Fail::NotFound),
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
                let bytes = match self.options.overlay.read(abs, limits.max_file_bytes) {
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
            Place::Stdin { .. } | Place::Meta | Place::Builtin(_) => return Err(Fail::NotFound),
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
        let (target, what) = match import.repository_url {
            Some(repo) => {
                if !matches!(classify(written), Target::Path(_)) {
                    return Err(Diagnostic::error(
                        codes::IMPORT_INVALID,
                        format!("import `{written}` has a scheme and also a repository"),
                    )
                    .hint("with `repository`, `url` is a path inside the repository; drop one of them"));
                }
                (
                    join_repository(repo, written),
                    format!("import `{written}` of the repository at `{}`", repo.trim()),
                )
            }
            None => (written.to_string(), format!("import `{written}`")),
        };
        let place = self
            .places
            .get(importer.0 as usize)
            .cloned()
            .unwrap_or(Place::Meta);
        match classify(&target) {
            Target::Web(url) => self.load_web(&url),
            Target::OtherScheme(scheme) if scheme.starts_with("file://") => Err(Diagnostic::error(
                codes::INPUT_OUTSIDE_ROOT,
                format!("{what} names a file on the host `{}`; toscana reads only local files", &scheme["file://".len()..]),
            )
            .hint("copy the file into the template's folder and import it by a relative path")),
            Target::OtherScheme(scheme) => Err(Diagnostic::error(
                codes::IMPORT_INVALID,
                format!("cannot import `{target}`: the `{scheme}` scheme is not supported"),
            )
            .hint("toscana reads local paths, `file:` URLs and http(s) URLs mapped to folders with --map-url")),
            Target::File(path) => self.load_file_url(&place, &path, &what),
            Target::Path(path) => self.resolve_path(&place, &path, &what),
        }
    }

    /// A `file:` URL: through `--map-url` when a prefix covers it, else only inside the
    /// importer's root (an absolute URL naming the template's own folder; a relative `file:x`
    /// is a relative path).
    fn load_file_url(
        &mut self,
        importer: &Place,
        path: &str,
        what: &str,
    ) -> Result<(FileId, bool), Diagnostic> {
        if !path.starts_with('/') {
            return self.resolve_path(importer, path, what);
        }
        if path.contains('\0') {
            return Err(self.refusal(importer, what, Escape::Nul));
        }
        let url = format!("file://{path}");
        if map_web(&url, &self.options.map_url).is_some() {
            return self.load_web(&url);
        }
        let root = match importer {
            Place::Disk { root, .. } | Place::Stdin { root } => *root,
            _ => return Err(self.refusal(importer, what, Escape::HostFile(path.to_string()))),
        };
        match self.roots[root].name_of(Path::new(path)) {
            Some(name) => self.load_inside(root, &name, what, false),
            None => Err(self.roots[root]
                .refusal(
                    what,
                    &Escape::HostFile(normalize_path(Path::new(path)).display().to_string()),
                )
                .hint(format!(
                    "{}; to read files of a folder you trust, map it: --map-url file://DIR/=DIR",
                    self.roots[root].hint()
                ))),
        }
    }

    /// The refusal of `what`, which `why` takes out of the root of `importer`.
    fn refusal(&self, importer: &Place, what: &str, why: Escape) -> Diagnostic {
        match importer {
            Place::Disk { root, .. } | Place::Stdin { root } => {
                self.roots[*root].refusal(what, &why)
            }
            Place::Entry { archive, .. } => Root::new(
                &self.cwd,
                Path::new(&self.archives[*archive].shown),
                RootKind::Archive,
            )
            .refusal(what, &why),
            Place::Builtin(_) | Place::Meta => super::confine::refusal(
                what,
                &why,
                "the built-in profiles",
                "a built-in profile imports only other built-in files",
            ),
        }
    }

    /// A scheme-less path, resolved the way its importer's location says: relative to the
    /// importer's folder, a leading `/` at the root, never out of the root.
    fn resolve_path(
        &mut self,
        importer: &Place,
        path: &str,
        what: &str,
    ) -> Result<(FileId, bool), Diagnostic> {
        match importer {
            Place::Entry { archive, entry } => {
                let shown = self.archives[*archive].shown.clone();
                // TOSCA 2.0 §6.8.2.2: a leading `/` is the root of the CSAR (its "repository").
                let name = join_inside(folder(entry), path, Slash::Root)
                    .map_err(|why| self.refusal(importer, what, why))?;
                let place = Place::Entry {
                    archive: *archive,
                    entry: name.clone(),
                };
                self.load_import(place, &format!("{shown}!/{name}"))
            }
            Place::Disk {
                url: Some(base), ..
            } => {
                let Some(joined) = join_web(base, path) else {
                    return Err(Diagnostic::error(
                        codes::INPUT_OUTSIDE_ROOT,
                        format!("{what} of `{base}` climbs above the server root"),
                    ));
                };
                self.load_web(&joined)
            }
            Place::Disk { abs, root, .. } => {
                let dir = self.roots[*root].folder_of(abs);
                let name = join_inside(&dir, path, Slash::Root)
                    .map_err(|why| self.refusal(importer, what, why))?;
                self.load_inside(*root, &name, what, path.starts_with('/'))
            }
            Place::Stdin { root } => {
                let name = join_inside("", path, Slash::Root)
                    .map_err(|why| self.refusal(importer, what, why))?;
                self.load_inside(*root, &name, what, path.starts_with('/'))
            }
            Place::Builtin(name) => {
                let Ok(joined) = join_inside(folder(name), path, Slash::Root) else {
                    return Err(Diagnostic::error(
                        codes::IMPORT_NOT_FOUND,
                        format!(
                            "built-in file `{name}` imports `{path}`, which leaves the built-in profiles"
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

    /// Reads the root-relative `name` under `root` for `what`. `from_slash`: it was written
    /// with a leading `/`, which a missing file's hint explains.
    fn load_inside(
        &mut self,
        root: usize,
        name: &str,
        what: &str,
        from_slash: bool,
    ) -> Result<(FileId, bool), Diagnostic> {
        let shown = self.roots[root].show(name);
        let tried = shown.display().to_string();
        let place = self.disk_place(shown, root, None);
        match self.load(place, true, Trust::Confined) {
            Ok(found) => Ok(found),
            Err(Fail::NotFound) if from_slash => Err(not_found(&tried).hint(format!(
                "a leading `/` starts at the root of the template, {}, not at the root of the file system",
                self.roots[root].describe()
            ))),
            Err(fail) => Err(self.failed(fail, what, &tried)),
        }
    }

    /// An `http(s)` URL (or a `file:` URL a prefix covers): only through `--map-url`, and only
    /// inside the folder it maps to. An unmapped URL is a warning (why: `import::unmapped-url`).
    fn load_web(&mut self, url: &str) -> Result<(FileId, bool), Diagnostic> {
        match map_web(url, &self.options.map_url) {
            None => Err(Diagnostic::warning(
                codes::IMPORT_UNMAPPED_URL,
                format!("`{url}` is not imported: toscana never uses the network, and no --map-url covers this URL; a name defined there is unknown here"),
            )
            .hint(format!(
                "download it and add `{}` (DIR is the local folder holding the files under that prefix)",
                suggested_map(url)
            ))),
            Some(Err(())) => Err(Diagnostic::error(
                codes::INPUT_OUTSIDE_ROOT,
                format!("import `{url}` climbs out of its --map-url folder with `..`"),
            )
            .hint("a file read through --map-url reads only inside the mapped folder; map a wider folder")),
            Some(Ok((prefix, path))) => {
                let dir = self
                    .options
                    .map_url
                    .iter()
                    .find(|(p, _)| *p == prefix)
                    .map(|(_, d)| d.clone())
                    .unwrap_or_default();
                let root = self.add_root(Root::new(&self.cwd, &dir, RootKind::MapUrl));
                let place = self.disk_place(path.clone(), root, Some(url.to_string()));
                let tried = format!(
                    "{} (`{url}` through --map-url {prefix}={})",
                    path.display(),
                    dir.display()
                );
                match self.load(place, true, Trust::Confined) {
                    Ok(found) => Ok(found),
                    Err(fail) => Err(self.failed(fail, &format!("import `{url}`"), &tried)),
                }
            }
        }
    }

    fn load_import(&mut self, place: Place, tried: &str) -> Result<(FileId, bool), Diagnostic> {
        match self.load(place, true, Trust::Confined) {
            Ok(found) => Ok(found),
            Err(Fail::NotFound) => Err(not_found(tried)),
            Err(fail) => Err(self.failed(fail, "import", tried)),
        }
    }
}

/// An import whose file is not there.
fn not_found(tried: &str) -> Diagnostic {
    Diagnostic::error(
        codes::IMPORT_NOT_FOUND,
        format!("imported file not found: tried `{tried}`"),
    )
    .hint("relative imports are resolved against the directory of the importing file")
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
