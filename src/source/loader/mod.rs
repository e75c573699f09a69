//! The [`Loader`]: turns command-line inputs and imports into files in a [`SourceMap`].

mod inputs;
mod loading;

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, Diagnostics};
use crate::limits::Limits;
use crate::source::artifacts::ArtifactFiles;
use crate::source::confine::{Escape, Root, RootKind};
use crate::source::csar::Archive;
use crate::source::imports::normalize_path;
use crate::source::meta::CsarMeta;
use crate::source::overlay::Overlay;
use crate::source::text::ReadError;
use crate::source::{FileId, Origin, SourceMap, Span};

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
            Fail::NotFound => loading::not_found(tried),
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
    /// inside the root of the entry (see [`crate::source::confine`]).
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
}
