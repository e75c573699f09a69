//! `kubectl kustomize` over many output folders at once (issue 26 scope 8).
//!
//! `kubectl` takes about half a second to start, and the corpus has hundreds of outputs, so a
//! batch of folders is built in one run: a kustomization of its own lists each folder as a
//! resource, through a layer that gives the folder's objects a prefix of their own (`o7-`), so
//! that two outputs that both write a `web` Service do not collide (each folder's own build, with
//! its own kustomization, still refuses two objects of one kind and name). When the batch fails,
//! each folder is built alone to name the culprits; a failed batch with no culprit fails too
//! (`common::batches`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// Builds the folder `dir` with `kubectl kustomize`.
pub fn build(dir: &Path) -> Result<(), String> {
    let out = Command::new("kubectl")
        .arg("kustomize")
        .arg(dir)
        .output()
        .map_err(|e| format!("cannot run kubectl: {e}"))?;
    if out.status.success() {
        return Ok(());
    }
    Err(format!(
        "kubectl kustomize {} ({}): {}",
        dir.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr).trim()
    ))
}

/// A kustomization over `folders` (each with its own `kustomization.yaml`), written under
/// `scratch`, whose build builds them all: its folder, to give [`build`].
pub fn batch_of(scratch: &Path, folders: &[PathBuf]) -> std::io::Result<PathBuf> {
    let root = scratch.join(format!("batch-{}", batch_number(scratch)?));
    std::fs::create_dir_all(&root)?;
    let mut resources = String::new();
    for (n, folder) in folders.iter().enumerate() {
        // The layer: the folder's objects under a prefix of their own.
        let layer = root.join(format!("o{n}"));
        std::fs::create_dir_all(&layer)?;
        let folder = std::path::absolute(folder)?;
        std::fs::write(
            layer.join("kustomization.yaml"),
            format!(
                "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamePrefix: o{n}-\nresources:\n  - {}\n",
                relative(&layer, &folder)
            ),
        )?;
        resources.push_str(&format!("  - o{n}\n"));
    }
    std::fs::write(
        root.join("kustomization.yaml"),
        format!(
            "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n{resources}"
        ),
    )?;
    Ok(root)
}

/// The number of the next batch folder under `scratch`.
fn batch_number(scratch: &Path) -> std::io::Result<usize> {
    Ok(std::fs::read_dir(scratch)?
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("batch-"))
        .count())
}

/// `to` relative to `from` (kustomize refuses absolute paths to a base).
fn relative(from: &Path, to: &Path) -> String {
    let from = std::path::absolute(from).unwrap_or_else(|_| from.to_path_buf());
    let common = from
        .components()
        .zip(to.components())
        .take_while(|(a, b)| a == b)
        .count();
    let ups = from.components().count() - common;
    let mut path = PathBuf::new();
    for _ in 0..ups {
        path.push("..");
    }
    for c in to.components().skip(common) {
        path.push(c);
    }
    path.display().to_string()
}
