//! Files the editor can open that are no file of the workspace: the embedded normative profiles
//! (where "go to definition" on `tosca.nodes.Compute` leads) and the `toscana explain` pages
//! (where a diagnostic's code links).
//!
//! They are written once per toscana version under the user's cache folder
//! (`$XDG_CACHE_HOME/toscana-lsp/<version>/`, else `~/.cache/...`, else the temporary folder)
//! without write permission, so the editor shows them read-only. A file already there is
//! reused: its content is fixed by the version in its path.

use std::path::{Component, Path, PathBuf};

/// The folder of this version's read-only files.
fn folder() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("toscana-lsp").join(env!("CARGO_PKG_VERSION"))
}

/// The path of `name` (a relative, `/`-separated name such as `tosca-2.0/profile.yaml`) among
/// the read-only files, written with `text` unless it is there already. `None` when the name
/// is not a plain relative path or the file cannot be written.
pub fn materialize(name: &str, text: &str) -> Option<PathBuf> {
    let relative = Path::new(name);
    if !relative
        .components()
        .all(|c| matches!(c, Component::Normal(_)))
    {
        return None;
    }
    let path = folder().join(relative);
    if path.is_file() {
        return Some(path);
    }
    std::fs::create_dir_all(path.parent()?).ok()?;
    // Written beside and renamed, so a reader never sees half a file.
    let mut temp = tempfile::NamedTempFile::new_in(path.parent()?).ok()?;
    std::io::Write::write_all(&mut temp, text.as_bytes()).ok()?;
    let mut permissions = temp.as_file().metadata().ok()?.permissions();
    permissions.set_readonly(true);
    temp.as_file().set_permissions(permissions).ok()?;
    temp.persist(&path).ok()?;
    Some(path)
}

/// The page `toscana explain CODE` prints, as a read-only file.
pub fn explain_page(code: &str) -> Option<PathBuf> {
    let page = crate::explain::page(code)?;
    let name = format!("explain/{}.md", code.replace("::", "-"));
    materialize(&name, &crate::explain::text(page))
}
