//! Loader behaviour on real files, directories and zip archives built in temporary folders.

use std::io::Write;
use std::path::{Path, PathBuf};

use zip::write::SimpleFileOptions;

use super::*;
use crate::diag::{Diagnostics, codes};

const ST: &str =
    "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates: {}\n";
const TYPES: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types: {}\n";

fn write(dir: &Path, rel: &str, text: &str) -> PathBuf {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}

fn zip_at(path: &Path, entries: &[(&str, &[u8])]) {
    let file = std::fs::File::create(path).unwrap();
    let mut zip = zip::ZipWriter::new(file);
    for (name, data) in entries {
        zip.start_file(*name, SimpleFileOptions::default()).unwrap();
        zip.write_all(data).unwrap();
    }
    zip.finish().unwrap();
}

fn loader() -> Loader {
    Loader::new(SourceOptions::default())
}

fn loader_with(f: impl FnOnce(&mut SourceOptions)) -> Loader {
    let mut options = SourceOptions::default();
    f(&mut options);
    Loader::new(options)
}

fn codes_of(diags: &Diagnostics) -> Vec<&'static str> {
    diags.iter().map(|d| d.code).collect()
}

fn messages(diags: &Diagnostics) -> String {
    diags
        .iter()
        .map(|d| {
            format!(
                "{} {} | {}",
                d.code,
                d.message,
                d.hint.clone().unwrap_or_default()
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn open(loader: &mut Loader, path: &Path) -> (Option<Input>, Diagnostics) {
    let mut diags = Diagnostics::new();
    let input = loader.open_input(&InputArg::Path(path.to_path_buf()), &mut diags);
    (input, diags)
}

fn import(
    loader: &mut Loader,
    importer: FileId,
    url: &str,
) -> (Option<(FileId, bool)>, Diagnostics) {
    let mut diags = Diagnostics::new();
    let at = loader.sources().get(importer).span(importer, 0, 1);
    let r = loader.resolve_import(importer, &ImportRef::new(url), at, &mut diags);
    (r, diags)
}

mod archives;
mod files;
mod imports;
