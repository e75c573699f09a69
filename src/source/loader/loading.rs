//! Reading a file once, and imports: where an import reference leads, confined to its root.

use std::path::Path;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::source::confine::{Escape, Root, RootKind, Slash, folder, join_inside};
use crate::source::csar::EntryError;
use crate::source::imports::{
    ImportRef, Target, classify, join_repository, join_web, map_web, normalize_path, suggested_map,
};
use crate::source::text::{ReadError, decode};
use crate::source::{FileId, Origin, Span};

use super::{Fail, Key, Loader, Place, Trust};

impl Loader {
    /// Reads the file at `place` unless it was read before. Returns its id and whether this is
    /// the first time it is handed out. `is_import` counts it against `max_imports`; a
    /// `Confined` file on disk is read only if no link takes it outside its root.
    pub(super) fn load(
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
            Place::Builtin(_) | Place::Meta => crate::source::confine::refusal(
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
pub(super) fn not_found(tried: &str) -> Diagnostic {
    Diagnostic::error(
        codes::IMPORT_NOT_FOUND,
        format!("imported file not found: tried `{tried}`"),
    )
    .hint("relative imports are resolved against the directory of the importing file")
}
