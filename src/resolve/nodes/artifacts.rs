//! A node's artifacts: the ones its types and template define, refined along the type chain,
//! and the files they name, found under the template's root.

use std::borrow::Cow;

use indexmap::IndexMap;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Artifact, TypeNames};
use crate::model::{TypeDef, TypeKind};
use crate::resolve::artifact_types::Inferred;
use crate::resolve::{map_values, paths};
use crate::source::{FileId, Span};
use crate::yaml::{Kind, Map, Node as Yaml};

use super::NodeBuilder;

impl<'a> NodeBuilder<'a> {
    /// An implementation artifact: a file name, or an inline artifact definition.
    pub(super) fn artifact_ref(
        &mut self,
        node: &Yaml,
        diags: &mut Diagnostics,
    ) -> Option<Artifact> {
        match node.as_str() {
            Some(file) => Some(self.file_artifact(file, file, node, diags)),
            None => node.as_map().map(|_| self.artifact("", node, diags)),
        }
    }

    /// The path of artifact file `file`, named in `defined_in`, relative to the topology root;
    /// for a file of a profile read from outside the template (`--profile-path`), its own
    /// location: it belongs to the profile, not to the template or its CSAR.
    pub(super) fn artifact_path(&self, defined_in: FileId, file: &str) -> Option<String> {
        let key = (defined_in, file.to_string());
        if let Some(known) = self.artifact_paths.borrow().get(&key) {
            return known.clone();
        }
        let path = self.find_artifact_path(defined_in, file);
        self.artifact_paths.borrow_mut().insert(key, path.clone());
        path
    }

    pub(super) fn find_artifact_path(&self, defined_in: FileId, file: &str) -> Option<String> {
        let path = paths::artifact_path(self.ctx.sources, self.root.as_deref(), defined_in, file)?;
        if self.of_outside_profile(defined_in, &path) {
            return paths::artifact_path(self.ctx.sources, Some(""), defined_in, file);
        }
        Some(path)
    }

    /// Whether an artifact at `path` (relative to the topology root), named in `defined_in`,
    /// is a file of a TOSCA 2.0 profile that lives outside the template's folder.
    pub(super) fn of_outside_profile(&self, defined_in: FileId, path: &str) -> bool {
        let outside = path.starts_with('/') || path.split('/').any(|p| p == "..");
        outside
            && self
                .model
                .namespaces
                .qualifier(defined_in)
                .profile
                .is_some()
    }

    /// Reports an artifact whose file is not where its path says: an error inside a CSAR,
    /// which must carry what it names; a warning next to a plain file, whose artifacts may be
    /// put in place before deployment, or in a profile outside the template. URLs, repository
    /// artifacts and images are not looked up: an image artifact's `file` names an image that a
    /// registry or cloud holds (`redis:7`), which no translator reads as a file.
    pub(super) fn check_file(&self, artifact: &Artifact, at: Span, diags: &mut Diagnostics) {
        let Some(path) = artifact.path.as_deref() else {
            return;
        };
        if artifact.repository.is_some() || artifact.file.contains("://") || is_image(artifact) {
            return;
        }
        let missing = if self.of_outside_profile(at.file, path) {
            (!std::path::Path::new(path).is_file()).then(|| crate::source::Missing {
                reason: format!("`{path}` does not exist"),
                in_csar: false,
                outside: false,
            })
        } else {
            self.ctx.artifact_files.missing(path)
        };
        let Some(missing) = missing else {
            return;
        };
        if !self.missing_files_reported.borrow_mut().insert(at) {
            return;
        }
        // An inline definition under `primary` or `dependencies` has no name of its own.
        let reason = &missing.reason;
        let message = if artifact.name.is_empty() || artifact.name == artifact.file {
            format!("implementation file `{}`: {reason}", artifact.file)
        } else {
            format!("artifact `{}`: {reason}", artifact.name)
        };
        if missing.outside {
            let hint = "an artifact is a file of the template: put it inside the template's folder (or its CSAR) and name it by a relative path";
            diags.push(
                match missing.in_csar {
                    true => Diagnostic::error(codes::INPUT_OUTSIDE_ROOT, message),
                    false => Diagnostic::warning(codes::INPUT_OUTSIDE_ROOT, message),
                }
                .at(at)
                .hint(hint),
            );
            return;
        }
        diags.push(if missing.in_csar {
            Diagnostic::error(codes::TOSCA_MISSING_FILE, message)
                .at(at)
                .hint("add the file to the CSAR, or correct the path (it is relative to the file that names it)")
        } else {
            Diagnostic::warning(codes::TOSCA_MISSING_FILE, message)
                .at(at)
                .hint("the path is relative to the file that names it; a translator that ships the file will fail")
        });
    }

    /// An artifact named by a string: the node's artifact of that name, else a file, whose type
    /// its extension tells ([`FileTypes`](crate::resolve::artifact_types::FileTypes)).
    pub(super) fn file_artifact(
        &mut self,
        name: &str,
        file: &str,
        node: &Yaml,
        diags: &mut Diagnostics,
    ) -> Artifact {
        self.files_named.set(self.files_named.get() + 1);
        if let Some(artifact) = self.artifacts.get(file) {
            return artifact.clone();
        }
        let (type_name, types) = self.inferred_type(name, file, node.span, diags);
        let artifact = Artifact {
            name: name.to_string(),
            type_name,
            types,
            file: file.to_string(),
            path: self.artifact_path(node.span.file, file),
            repository: None,
            repository_url: None,
            deploy_path: None,
            description: None,
            properties: IndexMap::new(),
            checksum: None,
            checksum_algorithm: None,
            location: self.locator.at(node.span),
        };
        self.check_file(&artifact, node.span, diags);
        artifact
    }

    /// The type of an artifact written as the file `file` alone (at `at`): the one its extension
    /// tells, with its ancestry; none when no type, or several unrelated ones, claim the
    /// extension. The latter is warned about once per place: the type the author meant is not
    /// known, so a translator that picks a runner by type will not know how to run the file.
    fn inferred_type(
        &mut self,
        name: &str,
        file: &str,
        at: Span,
        diags: &mut Diagnostics,
    ) -> (Option<String>, TypeNames) {
        match self.file_types.infer(file) {
            Inferred::Type(id) => {
                let types = self.ancestry.chain(self.model, TypeKind::Artifact, id);
                (Some(id.to_string()), types)
            }
            Inferred::Ambiguous { extension, types } => {
                if self.ambiguous_files_reported.borrow_mut().insert(at) {
                    diags.push(ambiguous(name, file, extension, types).at(at));
                }
                (None, TypeNames::default())
            }
            Inferred::Unknown => (None, TypeNames::default()),
        }
    }

    pub fn artifacts(
        &mut self,
        defs: &[&TypeDef],
        assigned: Option<&Yaml>,
        diags: &mut Diagnostics,
    ) -> IndexMap<String, Artifact> {
        let mut out = IndexMap::new();
        // Each artifact's definition as inherited down the type chain and refined by the template.
        // Borrowed from the files until a refinement makes a new definition.
        let mut merged: IndexMap<String, Cow<Yaml>> = IndexMap::new();
        let sources = defs
            .iter()
            .rev()
            .filter_map(|d| d.def.as_map().and_then(|m| m.get("artifacts")))
            .chain(assigned);
        for section in sources {
            // 1.0 drafts also wrote artifacts as a list of single-entry maps.
            let entries: Vec<&crate::yaml::Entry> = match (section.as_map(), section.as_seq()) {
                (Some(m), _) => m.entries().iter().collect(),
                (None, Some(items)) => items
                    .iter()
                    .filter_map(Yaml::as_map)
                    .flat_map(|m| m.entries())
                    .collect(),
                _ => {
                    diags.push(crate::model::shape::wrong_shape(
                        section,
                        "`artifacts`",
                        "a map",
                    ));
                    continue;
                }
            };
            for entry in entries {
                let Some(name) = entry.key.scalar_text() else {
                    continue;
                };
                let definition = match merged.get(name) {
                    Some(inherited) => {
                        // `name: file` over a full definition changes just the file.
                        let stated = match (inherited.as_map(), entry.value.as_str()) {
                            (Some(_), Some(_)) => {
                                let mut map = Map::new();
                                let _ = map.insert(
                                    Yaml::string("file", entry.value.span),
                                    entry.value.clone(),
                                );
                                Cow::Owned(Yaml {
                                    span: entry.value.span,
                                    tag: None,
                                    style: crate::yaml::Style::Plain,
                                    kind: Kind::Map(map),
                                })
                            }
                            _ => Cow::Borrowed(&entry.value),
                        };
                        self.check_artifact_refinement(name, inherited, &stated, diags);
                        Cow::Owned(crate::yaml::overlay(inherited, &stated))
                    }
                    None => Cow::Borrowed(&entry.value),
                };
                merged.insert(name.to_string(), definition);
            }
        }
        for (name, definition) in &merged {
            let artifact = self.artifact(name, definition, diags);
            out.insert(name.clone(), artifact);
        }
        out
    }

    /// A derived type or a template that restates an inherited artifact may change its `type`
    /// only to a type derived from the inherited one.
    pub(super) fn check_artifact_refinement(
        &mut self,
        name: &str,
        inherited: &Yaml,
        stated: &Yaml,
        diags: &mut Diagnostics,
    ) {
        let type_of = |n: &Yaml| {
            n.as_map()
                .and_then(|m| m.get("type"))
                .and_then(|t| t.scalar_text().map(|s| (s.to_string(), t.span)))
        };
        let (Some((before, before_at)), Some((after, at))) = (type_of(inherited), type_of(stated))
        else {
            return;
        };
        // Both type names are read, and an unknown or ambiguous one reported, where each
        // artifact is read; here only their ancestries are compared.
        let after_types =
            self.ancestry
                .of_reported_elsewhere(self.model, TypeKind::Artifact, &after, at);
        let before_types =
            self.ancestry
                .of_reported_elsewhere(self.model, TypeKind::Artifact, &before, before_at);
        let Some(before_name) = before_types.first() else {
            return;
        };
        if !after_types.is_empty() && !after_types.contains(before_name) {
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_TYPE_MISMATCH,
                    format!("artifact `{name}` is a `{before}` where it is inherited; `{after}` does not derive from it"),
                )
                .at_with(at, "not derived from the inherited artifact type")
                .hint(format!("use `{before}` or a type derived from it, or give the artifact another name")),
            );
        }
    }

    pub(super) fn artifact(
        &mut self,
        name: &str,
        node: &Yaml,
        diags: &mut Diagnostics,
    ) -> Artifact {
        // A type's artifact is read again for each template of the type: what is wrong in its
        // definition (an unknown type or repository, no `file`) is reported once, at the type.
        let mut found = Diagnostics::new();
        let artifact = self.read_artifact(name, node, &mut found);
        if found.reported() > 0 {
            diags.extend_unseen(found.iter().cloned());
        }
        artifact
    }

    fn read_artifact(&mut self, name: &str, node: &Yaml, diags: &mut Diagnostics) -> Artifact {
        if let Some(file) = node.as_str() {
            return self.file_artifact(name, file, node, diags);
        }
        let empty = Map::new();
        let map = node.as_map().unwrap_or(&empty);
        let text = |key: &str| {
            map.get(key)
                .and_then(|n| n.scalar_text())
                .map(str::to_string)
        };
        let file_node = map.get("file");
        let file = text("file").unwrap_or_default();
        if file_node.is_none() {
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_MISSING_KEY,
                    format!("artifact `{name}` has no `file`"),
                )
                .at(node.span)
                .hint("add `file: <path or URL of the artifact>`"),
            );
        }
        let repository = text("repository");
        let repository_url =
            repository
                .as_ref()
                .and_then(|r| match self.model.repository(r, node.span.file) {
                    Some(repo) => Some(repo.url.clone()),
                    None => {
                        diags.push(
                            Diagnostic::error(
                                codes::TOSCA_UNKNOWN_NAME,
                                format!("artifact `{name}` names unknown repository `{r}`"),
                            )
                            .at(map.get("repository").map_or(node.span, |n| n.span))
                            .hint("define it under `repositories`"),
                        );
                        None
                    }
                });
        let (type_name, types) = match map.get("type") {
            Some(t) => {
                let name = t.scalar_text().unwrap_or_default().to_string();
                let types = self
                    .ancestry
                    .of(self.model, TypeKind::Artifact, &name, t.span, diags);
                (Some(name), types)
            }
            None => (None, TypeNames::default()),
        };
        let path = match (&repository, file_node) {
            (None, Some(f)) => self.artifact_path(f.span.file, &file),
            _ => None,
        };
        let properties = self.artifact_properties(name, map, &types, node.span, diags);
        let artifact = Artifact {
            name: name.to_string(),
            type_name,
            types,
            file,
            path,
            repository,
            repository_url,
            deploy_path: text("deploy_path"),
            description: text("description"),
            properties,
            checksum: text("checksum"),
            checksum_algorithm: text("checksum_algorithm"),
            location: self.locator.at(node.span),
        };
        if let Some(f) = file_node {
            self.check_file(&artifact, f.span, diags);
        }
        artifact
    }
}

/// The warning for a file whose extension unrelated artifact types claim.
pub(crate) fn ambiguous(name: &str, file: &str, extension: &str, types: &[String]) -> Diagnostic {
    let listed = types
        .iter()
        .map(|t| format!("`{t}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let (what, fix) = match name.is_empty() || name == file {
        true => (
            format!("implementation file `{file}`"),
            format!(
                "define the artifact in the node's `artifacts` as `<name>: {{ type: <one of them>, file: {file} }}` and name it in the implementation"
            ),
        ),
        false => (
            format!("artifact `{name}` (`{file}`)"),
            format!("write the artifact as `{name}: {{ type: <one of them>, file: {file} }}`"),
        ),
    };
    Diagnostic::warning(
        codes::TOSCA_AMBIGUOUS,
        format!("the type of {what} cannot be inferred: artifact types {listed} all list the extension `{extension}`, and none derives from another"),
    )
    .hint(format!("name the type: {fix} (A.5.5.2.2 Extended notation; §12.2 Artifact Definition), or keep `{extension}` in one type's `file_ext` only"))
}

/// Whether an artifact is an image: its type is, or derives from, the Simple Profile's
/// `tosca.artifacts.Deployment.Image` (C.8.3.2: "an opaque packaging of a TOSCA Node's
/// deployment ... prepared to be run on a known target container") or the 2.0 simple profile's
/// `Deployment.Image`, under any namespace prefix.
pub(super) fn is_image(artifact: &Artifact) -> bool {
    artifact
        .types
        .iter()
        .chain(artifact.type_name.as_ref())
        .map(|t| t.rsplit_once(':').map_or(t.as_str(), |(_, local)| local))
        .any(|t| t == "tosca.artifacts.Deployment.Image" || t == "Deployment.Image")
}

impl NodeBuilder<'_> {
    /// An artifact definition's `properties`, "property assignments" (§12.2 Artifact Definition)
    /// of the property definitions of its artifact type (§12.1 Artifact Type): in TOSCA 2.0,
    /// typed against them, a required one without a default must be set, and a name the type
    /// does not define is an error when the type defines some (as for groups and policies,
    /// [`crate::resolve::assigned_names`]). A type's artifact is read again for each of its
    /// templates, so each problem is reported once.
    fn artifact_properties(
        &mut self,
        name: &str,
        map: &Map,
        types: &TypeNames,
        at: Span,
        diags: &mut Diagnostics,
    ) -> IndexMap<String, crate::ir::Value> {
        let assigned = map.get("properties");
        let defs = crate::resolve::types::definitions(self.model, TypeKind::Artifact, types);
        let typed = self.model.dialect == crate::ir::Dialect::Tosca2
            && !types.is_empty()
            && super::defs_complete(self.model, &defs);
        if !typed {
            return assigned
                .map(|p| map_values(self.reader, p, "`properties`", diags))
                .unwrap_or_default();
        }
        let mut found = Diagnostics::new();
        if let Some(assigned) = assigned {
            crate::model::shape::map(assigned, "`properties`", &mut found);
        }
        let definitions = self.definitions.of(&defs, "properties");
        let owner = match name {
            "" => "an inline implementation artifact".to_string(),
            name => format!("artifact `{name}`"),
        };
        let mut typing = self.typing();
        let mut values = typing.defaults(&definitions, "properties");
        let check_names = !definitions.is_empty();
        values.extend(typing.assigned(
            &owner,
            &definitions,
            "properties",
            assigned,
            check_names,
            &mut found,
        ));
        typing.check_required(&owner, &definitions, &values, at, &mut found);
        diags.extend_unseen(found.iter().cloned());
        values
    }
}
