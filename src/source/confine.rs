//! Where a template may read from: inside its root, and nowhere else.
//!
//! toscana runs on templates from others (a vendor's CSAR in a CI pipeline), so a template must
//! not be able to make it read the host's files: an import of `file:///etc/passwd` would print
//! the file's lines in the diagnostic that says it is not TOSCA, and an artifact `../../x.sh`
//! would be copied into the Terraform `artifacts/` folder or a Kubernetes ConfigMap. The rule
//! (`docs/security.md`, "What toscana reads"):
//!
//! - A template reads only inside its **root**: the CSAR (zipped or unpacked), the directory
//!   given on the command line, or the folder of the file given (the current directory for
//!   standard input).
//! - Besides, it reads the embedded profiles and the folders the user named: `--profile-path`
//!   (each a root of the profiles found in it) and `--map-url` (each a root of the files mapped
//!   to it).
//! - A path that climbs out with `..`, an absolute path that is not inside the root (a `file:`
//!   URL, a Windows drive), a name with a NUL byte, and a symbolic link whose target is outside
//!   the root are refused before anything is read, with a diagnostic at the import or artifact
//!   that names the path as written and never the content of what it points to.
//!
//! TOSCA 2.0 (§6.8.2.2 Importing a TOSCA File) lets a path with a leading `/` start "at the root
//! of the repository" that holds the importing file; the root is that repository, so `/` means
//! the root for imports in every dialect (a Simple Profile file has no rule of its own, and the
//! host's `/` is out of bounds anyway). An artifact path is a file of the template, so there an
//! absolute path is simply outside.
//!
//! Every reader of template files goes through [`join_inside`] (the lexical rule) and
//! [`Root::admits`] (the symbolic-link rule): the loader for imports, TOSCA.meta entries and
//! entry files of a directory, [`super::ArtifactFiles`] for the files backends ship, and the
//! profile finder for `--profile-path`. The file given on the command line is the user's own
//! choice and is read as named, even through a link.
//!
//! The link check resolves the path once (`canonicalize`) and reads what it resolved to. That
//! guards against links that are there when toscana starts, which is what an unpacked archive
//! or a checked-out repository holds; it does not guard against another local user swapping a
//! folder for a link while toscana runs, which needs `openat2(RESOLVE_BENEATH)` and is not a
//! threat to a template's reader.

use std::cell::OnceCell;
use std::fmt;
use std::path::{Path, PathBuf};

use super::imports::normalize_path;
use crate::diag::{Diagnostic, codes};

/// What a leading `/` means in a path being joined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slash {
    /// The root (TOSCA 2.0 imports, CSAR entry names).
    Root,
    /// An absolute path, outside the root (artifact files).
    Outside,
}

/// Why a path is refused: it would leave the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Escape {
    /// It holds a NUL byte, which no file name can (the OS would cut the name short).
    Nul,
    /// `C:/…` or `C:\…`: an absolute Windows path.
    Drive,
    /// An absolute path where only relative ones stay inside.
    Absolute,
    /// `..` climbs above the root.
    Climbs,
    /// A `file:` URL naming a file outside the root.
    HostFile(String),
    /// A symbolic link on the way resolves outside the root.
    Link,
}

impl fmt::Display for Escape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Escape::Nul => write!(f, "contains a NUL character"),
            Escape::Drive => write!(f, "is an absolute Windows path"),
            Escape::Absolute => write!(f, "is an absolute path"),
            Escape::Climbs => write!(f, "climbs out with `..`"),
            Escape::HostFile(path) => write!(f, "names the file `{path}`"),
            Escape::Link => write!(f, "goes through a symbolic link that points outside"),
        }
    }
}

/// What kind of folder a [`Root`] is, for the words of a refusal and its hint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RootKind {
    /// The folder of the file given, or the directory given.
    Folder,
    /// The current directory, for a template read from standard input.
    CurrentDir,
    /// An unpacked CSAR directory.
    CsarDir,
    /// A zipped or tarred CSAR.
    Archive,
    /// A `--profile-path` folder.
    ProfilePath,
    /// A `--map-url` folder.
    MapUrl,
}

/// A folder that a set of files may read inside of.
#[derive(Debug, Clone)]
pub(crate) struct Root {
    /// Absolute and lexically normalized (no `.` or `..`), links not resolved.
    pub(crate) abs: PathBuf,
    /// As the user wrote it (relative stays relative), for messages and file names.
    pub(crate) shown: PathBuf,
    pub(crate) kind: RootKind,
    /// `abs` with every link resolved, found when first needed (`None`: it cannot be resolved,
    /// so nothing under it can be read either).
    real: OnceCell<Option<PathBuf>>,
}

impl Root {
    /// The root at `shown` (relative to `cwd` unless absolute).
    pub(crate) fn new(cwd: &Path, shown: &Path, kind: RootKind) -> Root {
        Root {
            abs: normalize_path(&cwd.join(shown)),
            shown: normalize_path(shown),
            kind,
            real: OnceCell::new(),
        }
    }

    /// Where the root-relative `name` (from [`join_inside`]) is on disk, absolute.
    pub(crate) fn locate(&self, name: &str) -> PathBuf {
        name.split('/')
            .filter(|c| !c.is_empty())
            .fold(self.abs.clone(), |p, c| p.join(c))
    }

    /// `name` as the user sees it: under the root as the user wrote it.
    pub(crate) fn show(&self, name: &str) -> PathBuf {
        name.split('/')
            .filter(|c| !c.is_empty())
            .fold(self.shown.clone(), |p, c| p.join(c))
    }

    /// The root-relative, `/`-separated folder of the file at `abs` (lexically inside the
    /// root); `""` for a file at the root, or one that is not under it.
    pub(crate) fn folder_of(&self, abs: &Path) -> String {
        abs.parent()
            .and_then(|p| p.strip_prefix(&self.abs).ok())
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .unwrap_or_default()
    }

    /// The root-relative name of the absolute host path `path`, when it is lexically inside the
    /// root (a `file:` URL pointing into the template's own folder).
    pub(crate) fn name_of(&self, path: &Path) -> Option<String> {
        normalize_path(path)
            .strip_prefix(&self.abs)
            .ok()
            .map(|p| p.to_string_lossy().replace('\\', "/"))
    }

    /// Whether the file at `path` (under the root) really is inside it once symbolic links are
    /// resolved. For a path that does not exist, the deepest folder of it that does is judged:
    /// reading the path then says it is missing, which tells nothing about the world outside.
    pub(crate) fn admits(&self, path: &Path) -> Result<(), Escape> {
        let Some(real) = path.ancestors().find_map(|p| std::fs::canonicalize(p).ok()) else {
            return Ok(());
        };
        match self
            .real
            .get_or_init(|| std::fs::canonicalize(&self.abs).ok())
        {
            Some(root) if real.starts_with(root) => Ok(()),
            _ => Err(Escape::Link),
        }
    }

    /// "the template's folder `app`": what the refusals say the file left.
    pub(crate) fn describe(&self) -> String {
        let shown = match self.shown.as_os_str().is_empty() {
            true => ".".to_string(),
            false => self.shown.display().to_string(),
        };
        match self.kind {
            RootKind::Folder => format!("the template's folder `{shown}`"),
            RootKind::CurrentDir => format!(
                "the current directory `{shown}` (the folder of a template read from standard input)"
            ),
            RootKind::CsarDir => format!("the CSAR directory `{shown}`"),
            RootKind::Archive => format!("the CSAR `{shown}`"),
            RootKind::ProfilePath => format!("the --profile-path folder `{shown}`"),
            RootKind::MapUrl => format!("the --map-url folder `{shown}`"),
        }
    }

    /// What the user can do about a refusal.
    pub(crate) fn hint(&self) -> &'static str {
        match self.kind {
            RootKind::Folder | RootKind::CurrentDir => {
                "a template reads only inside its folder; to read a wider tree, pass the folder that holds every file of the template and name the service template with --entry (`toscana check DIR --entry PATH`)"
            }
            RootKind::CsarDir | RootKind::Archive => {
                "a CSAR reads only its own entries; add the file to the CSAR"
            }
            RootKind::ProfilePath => {
                "a profile reads only inside its --profile-path folder; put the files it needs there"
            }
            RootKind::MapUrl => {
                "a file read through --map-url reads only inside the mapped folder; map a wider folder"
            }
        }
    }

    /// The diagnostic for `what` (e.g. "import `../x.yaml`") refused for `why`.
    pub(crate) fn refusal(&self, what: &str, why: &Escape) -> Diagnostic {
        refusal(what, why, &self.describe(), self.hint())
    }
}

/// The one wording of a refusal: `what` `why`, which leaves `root`.
pub(crate) fn refusal(what: &str, why: &Escape, root: &str, hint: &str) -> Diagnostic {
    Diagnostic::error(
        codes::INPUT_OUTSIDE_ROOT,
        format!("{what} {why}, outside {root}; toscana does not read it"),
    )
    .hint(hint)
}

/// Joins the relative path `written` to the root-relative folder `dir` and normalizes it (`.`
/// dropped, `a/..` folded, `\` taken as the separator it is on Windows). The result is
/// root-relative and `/`-separated; an `Escape` when it would leave the root.
pub(crate) fn join_inside(dir: &str, written: &str, slash: Slash) -> Result<String, Escape> {
    if written.contains('\0') {
        return Err(Escape::Nul);
    }
    let written = written.replace('\\', "/");
    let b = written.as_bytes();
    if b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':' {
        return Err(Escape::Drive);
    }
    let mut parts: Vec<&str> = if written.starts_with('/') {
        if slash == Slash::Outside {
            return Err(Escape::Absolute);
        }
        Vec::new()
    } else {
        dir.split('/').filter(|c| !c.is_empty()).collect()
    };
    for c in written.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop().ok_or(Escape::Climbs)?;
            }
            c => parts.push(c),
        }
    }
    Ok(parts.join("/"))
}

/// The folder part of a root-relative name (`a/b/c.yaml` → `a/b`).
pub(crate) fn folder(name: &str) -> &str {
    name.rfind('/').map_or("", |i| &name[..i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_stay_inside_the_root() {
        let join = |dir, path| join_inside(dir, path, Slash::Root);
        assert_eq!(
            join("Definitions", "types.yaml").unwrap(),
            "Definitions/types.yaml"
        );
        assert_eq!(join("Definitions", "../x/./y.yaml").unwrap(), "x/y.yaml");
        assert_eq!(join("Definitions", "/root.yaml").unwrap(), "root.yaml");
        assert_eq!(join("a", "..\\b\\c.yaml").unwrap(), "b/c.yaml");
        assert_eq!(join("Definitions", "../../x.yaml"), Err(Escape::Climbs));
        assert_eq!(join("", "a/../../x"), Err(Escape::Climbs));
        assert_eq!(join("a", "..\\..\\x"), Err(Escape::Climbs));
        assert_eq!(join("", "/../x"), Err(Escape::Climbs));
        assert_eq!(join("", "C:/Windows/win.ini"), Err(Escape::Drive));
        assert_eq!(join("", "c:\\x"), Err(Escape::Drive));
        assert_eq!(join("", "a\0/../../b"), Err(Escape::Nul));
        assert_eq!(
            join_inside("a", "/etc/passwd", Slash::Outside),
            Err(Escape::Absolute)
        );
        assert_eq!(join_inside("a", "b/c", Slash::Outside).unwrap(), "a/b/c");
        assert_eq!(folder("a/b/c.yaml"), "a/b");
        assert_eq!(folder("c.yaml"), "");
    }

    #[test]
    fn host_paths_are_named_inside_the_root_or_not_at_all() {
        let root = Root::new(Path::new("/w"), Path::new("app"), RootKind::Folder);
        assert_eq!(root.abs, PathBuf::from("/w/app"));
        assert_eq!(
            root.name_of(Path::new("/w/app/t/x.yaml")).unwrap(),
            "t/x.yaml"
        );
        assert_eq!(
            root.name_of(Path::new("/w/app/../app/x.yaml")).unwrap(),
            "x.yaml"
        );
        assert_eq!(root.name_of(Path::new("/w/app/../secret")), None);
        assert_eq!(root.name_of(Path::new("/w/apple")), None);
        assert_eq!(root.folder_of(Path::new("/w/app/t/x.yaml")), "t");
        assert_eq!(root.locate("t/x.yaml"), PathBuf::from("/w/app/t/x.yaml"));
        assert_eq!(root.show("t/x.yaml"), PathBuf::from("app/t/x.yaml"));
    }

    #[cfg(unix)]
    #[test]
    fn a_link_that_points_outside_is_not_admitted() {
        let tmp = tempfile::tempdir().unwrap();
        let inside = tmp.path().join("root");
        std::fs::create_dir_all(inside.join("sub")).unwrap();
        std::fs::write(tmp.path().join("secret"), "s").unwrap();
        std::fs::write(inside.join("sub/ok.yaml"), "o").unwrap();
        std::os::unix::fs::symlink(tmp.path().join("secret"), inside.join("out")).unwrap();
        std::os::unix::fs::symlink("sub/ok.yaml", inside.join("in")).unwrap();
        std::os::unix::fs::symlink(tmp.path(), inside.join("up")).unwrap();
        let root = Root::new(tmp.path(), Path::new("root"), RootKind::Folder);
        assert_eq!(root.admits(&inside.join("out")), Err(Escape::Link));
        assert_eq!(root.admits(&inside.join("up/secret")), Err(Escape::Link));
        assert_eq!(root.admits(&inside.join("in")), Ok(()));
        assert_eq!(root.admits(&inside.join("sub/ok.yaml")), Ok(()));
        assert_eq!(root.admits(&inside.join("missing")), Ok(()));
    }
}
