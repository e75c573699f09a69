//! The provider schema check of a Terraform configuration (issue 27, scope 7), since
//! `terraform validate` cannot download providers where the tests run.
//!
//! The schemas are those of the provider versions toscana's `required_providers` constraints
//! select (hashicorp/aws 6.69.1, hashicorp/kubernetes 2.38.0, terraform-provider-openstack 3.0.0,
//! hashicorp/cloudinit 2.4.1), extracted from the CDK for Terraform bindings on PyPI by
//! `terraform_schema/extract.py`, which says how to regenerate them. Over the parsed HCL
//! (hcl-edit) the check asserts that:
//!
//! - every `resource`, `data` and `provider` block names a type the provider has;
//! - every argument and nested block inside it (`dynamic` blocks included) is one the schema
//!   knows, and every required argument and required block is present;
//! - every reference `<type>.<name>.<attribute>` (and `data.<type>.<name>.<attribute>`) names a
//!   resource the configuration declares and an attribute that type exports.
//!
//! Each problem names `file:line:column`, the block, and what the schema allows instead.
//!
//! One strictness beyond Terraform's: the jsii assemblies do not tell the few legacy
//! "attributes as blocks" (`aws_route_table`'s `route`, `aws_security_group`'s `ingress`) from
//! object-typed arguments, so block syntax for them is reported; toscana writes the resources
//! of their own instead (`aws_route`, `aws_vpc_security_group_ingress_rule`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::OnceLock;

use hcl_edit::Span as _;
use hcl_edit::expr::{Expression, Traversal, TraversalOperator};
use hcl_edit::structure::{Block, Body, Structure};
use hcl_edit::visit::{self, Visit};
use serde::Deserialize;

/// One provider's schema, as `extract.py` writes it.
#[derive(Deserialize)]
struct ProviderSchema {
    provider_version: String,
    resources: BTreeMap<String, BlockSchema>,
    data_sources: BTreeMap<String, BlockSchema>,
    provider_config: BlockSchema,
}

/// A resource, data source, provider or nested block: its arguments, which of them are
/// required, its nested blocks, and (for resources and data sources) the attributes it exports
/// beyond its arguments.
#[derive(Deserialize, Default)]
#[serde(default)]
struct BlockSchema {
    required: Vec<String>,
    optional: Vec<String>,
    blocks: BTreeMap<String, BlockSchema>,
    exported: Vec<String>,
    /// Present (1) when the block must appear at least once.
    min: Option<u32>,
}

impl BlockSchema {
    fn has_argument(&self, name: &str) -> bool {
        self.required
            .iter()
            .chain(&self.optional)
            .any(|a| a == name)
    }

    /// Whether `<type>.<name>.<attribute>` may be read: arguments, blocks and exports alike
    /// (every argument is also an attribute), and `id`, which every resource has.
    fn exports(&self, attribute: &str) -> bool {
        attribute == "id"
            || self.has_argument(attribute)
            || self.blocks.contains_key(attribute)
            || self.exported.iter().any(|a| a == attribute)
    }
}

/// The providers toscana writes for, by the prefix of their type names (`aws_instance`).
fn schemas() -> &'static BTreeMap<&'static str, ProviderSchema> {
    static SCHEMAS: OnceLock<BTreeMap<&'static str, ProviderSchema>> = OnceLock::new();
    SCHEMAS.get_or_init(|| {
        let parse = |name: &str, json: &str| -> ProviderSchema {
            serde_json::from_str(json)
                .unwrap_or_else(|e| panic!("tests/checkers/terraform_schema/{name}.json: {e}"))
        };
        BTreeMap::from([
            (
                "aws",
                parse("aws", include_str!("terraform_schema/aws.json")),
            ),
            (
                "kubernetes",
                parse(
                    "kubernetes",
                    include_str!("terraform_schema/kubernetes.json"),
                ),
            ),
            (
                "openstack",
                parse("openstack", include_str!("terraform_schema/openstack.json")),
            ),
            (
                "cloudinit",
                parse("cloudinit", include_str!("terraform_schema/cloudinit.json")),
            ),
        ])
    })
}

/// The provider a resource or data source type belongs to (`aws_instance` → aws).
fn provider_of(type_name: &str) -> Option<(&'static str, &'static ProviderSchema)> {
    let prefix = type_name.split('_').next()?;
    schemas().get_key_value(prefix).map(|(k, v)| (*k, v))
}

/// Meta-arguments Terraform accepts in every `resource` and `data` block.
const META_ARGUMENTS: &[&str] = &["count", "for_each", "depends_on", "provider"];
/// Meta-blocks Terraform accepts in every `resource` block (and `lifecycle` in `data`).
const META_BLOCKS: &[&str] = &["lifecycle", "provisioner", "connection"];

/// Whether a resource or data source is declared: (`data` or `resource`, type, name).
type Declared = BTreeSet<(bool, String, String)>;

/// Checks every `.tf` file directly in `dir` (one root module) against the provider schemas.
pub fn check_dir(dir: &Path) -> Result<(), String> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "tf"))
        .collect();
    files.sort();
    let mut parsed = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let body: Body = text
            .parse()
            .map_err(|e| format!("{}: does not parse: {e}", path.display()))?;
        parsed.push((path.display().to_string(), text, body));
    }
    let mut declared = Declared::new();
    for (_, _, body) in &parsed {
        for block in body.blocks() {
            if let ([kind_type, name], kind) = (&block.labels[..], block.ident.as_str())
                && (kind == "resource" || kind == "data")
            {
                declared.insert((
                    kind == "data",
                    kind_type.as_str().to_string(),
                    name.as_str().to_string(),
                ));
            }
        }
    }
    let mut problems = Vec::new();
    for (file, text, body) in &parsed {
        let mut at = Locator {
            file,
            text,
            problems: &mut problems,
        };
        for block in body.blocks() {
            check_top_block(block, &mut at);
        }
        let mut refs = References {
            declared: &declared,
            at,
        };
        refs.visit_body(body);
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} problems against the provider schemas:\n{}",
            problems.len(),
            problems.join("\n")
        ))
    }
}

/// Where problems go, with the file and text that turn byte offsets into line:column.
struct Locator<'a> {
    file: &'a str,
    text: &'a str,
    problems: &'a mut Vec<String>,
}

impl Locator<'_> {
    fn report(&mut self, span: Option<std::ops::Range<usize>>, message: String) {
        let offset = span.map_or(0, |s| s.start).min(self.text.len());
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        self.problems
            .push(format!("{}:{line}:{column}: {message}", self.file));
    }
}

/// A `resource`, `data` or `provider` block against its type's schema.
fn check_top_block(block: &Block, at: &mut Locator) {
    let kind = block.ident.as_str();
    let labels: Vec<&str> = block.labels.iter().map(|l| l.as_str()).collect();
    let (schema, what, version) = match (kind, &labels[..]) {
        ("resource" | "data", [type_name, name]) => {
            let Some((_, provider)) = provider_of(type_name) else {
                at.report(
                    block.span(),
                    format!(
                        "{kind} `{type_name}`: no provider toscana writes for ({}) has this type",
                        schemas().keys().copied().collect::<Vec<_>>().join(", ")
                    ),
                );
                return;
            };
            let table = if kind == "data" {
                &provider.data_sources
            } else {
                &provider.resources
            };
            let Some(schema) = table.get(*type_name) else {
                at.report(
                    block.span(),
                    format!(
                        "{kind} `{type_name}`: {} has no {} of this type",
                        provider.provider_version,
                        if kind == "data" {
                            "data source"
                        } else {
                            "resource"
                        }
                    ),
                );
                return;
            };
            let prefix = if kind == "data" { "data." } else { "" };
            (
                schema,
                format!("{prefix}{type_name}.{name}"),
                &provider.provider_version,
            )
        }
        ("provider", [name]) => {
            let Some((_, provider)) = schemas().get_key_value(*name) else {
                at.report(
                    block.span(),
                    format!("provider `{name}`: not a provider toscana writes for"),
                );
                return;
            };
            (
                &provider.provider_config,
                format!("provider {name}"),
                &provider.provider_version,
            )
        }
        _ => return,
    };
    let meta = kind != "provider";
    check_body(&block.body, block.span(), schema, &what, version, meta, at);
}

/// A block's body against its schema: every argument and block known, every required one there.
fn check_body(
    body: &Body,
    span: Option<std::ops::Range<usize>>,
    schema: &BlockSchema,
    what: &str,
    version: &str,
    meta: bool,
    at: &mut Locator,
) {
    let mut present: BTreeSet<&str> = BTreeSet::new();
    for structure in body.iter() {
        match structure {
            Structure::Attribute(attr) => {
                let name = attr.key.as_str();
                present.insert(name);
                if schema.has_argument(name) || (meta && META_ARGUMENTS.contains(&name)) {
                    continue;
                }
                let problem = if schema.blocks.contains_key(name) {
                    format!(
                        "{what}: `{name}` is a nested block in {version}, not an argument: write `{name} {{ ... }}`"
                    )
                } else {
                    format!(
                        "{what}: {version} knows no argument `{name}` here; it takes {}",
                        listing(schema)
                    )
                };
                at.report(attr.span(), problem);
            }
            Structure::Block(inner) => {
                let name = inner.ident.as_str();
                if meta && META_BLOCKS.contains(&name) {
                    continue;
                }
                // `dynamic "x" { for_each = ... content { ... } }` writes blocks named x.
                let (name, content) = if name == "dynamic" {
                    let label = inner.labels.first().map_or("", |l| l.as_str());
                    let content = inner.body.get_blocks("content").next().map(|b| &b.body);
                    (label, content)
                } else {
                    (name, Some(&inner.body))
                };
                present.insert(name);
                let Some(nested) = schema.blocks.get(name) else {
                    let problem = if schema.has_argument(name) {
                        format!(
                            "{what}: `{name}` is an argument in {version}, not a block: write `{name} = ...`"
                        )
                    } else {
                        format!(
                            "{what}: {version} knows no block `{name}` here; it takes {}",
                            listing(schema)
                        )
                    };
                    at.report(inner.span(), problem);
                    continue;
                };
                if let Some(content) = content {
                    check_body(
                        content,
                        inner.span(),
                        nested,
                        &format!("{what}.{name}"),
                        version,
                        false,
                        at,
                    );
                }
            }
        }
    }
    let missing: Vec<&str> = schema
        .required
        .iter()
        .map(String::as_str)
        .chain(
            schema
                .blocks
                .iter()
                .filter(|(_, b)| b.min.is_some())
                .map(|(n, _)| n.as_str()),
        )
        .filter(|name| !present.contains(name))
        .collect();
    if !missing.is_empty() {
        at.report(
            span,
            format!(
                "{what}: {version} requires {} here, which is missing",
                missing
                    .iter()
                    .map(|m| format!("`{m}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }
}

/// What a block takes, for a message: its arguments and its blocks.
fn listing(schema: &BlockSchema) -> String {
    let arguments: Vec<&str> = schema
        .required
        .iter()
        .chain(&schema.optional)
        .map(String::as_str)
        .collect();
    let blocks: Vec<&str> = schema.blocks.keys().map(String::as_str).collect();
    format!(
        "the arguments [{}] and the blocks [{}]",
        arguments.join(", "),
        blocks.join(", ")
    )
}

/// Every reference to a resource or data source in a body, checked against what is declared
/// and what the type exports.
struct References<'a> {
    declared: &'a Declared,
    at: Locator<'a>,
}

impl Visit for References<'_> {
    fn visit_traversal(&mut self, node: &Traversal) {
        self.check(node);
        visit::visit_traversal(self, node);
    }
}

impl References<'_> {
    fn check(&mut self, node: &Traversal) {
        let Expression::Variable(root) = &node.expr else {
            return;
        };
        // The attribute names after the root, up to the first index or splat, and the first
        // attribute name after the resource's name (past any `[0]` or `[*]`).
        let mut names = node.operators.iter().map(|op| match op.value() {
            TraversalOperator::GetAttr(ident) => Some(ident.as_str()),
            _ => None,
        });
        let data = root.as_str() == "data";
        let type_name = if data {
            match names.next().flatten() {
                Some(t) => t,
                None => return,
            }
        } else {
            root.as_str()
        };
        let Some((_, provider)) = provider_of(type_name) else {
            return;
        };
        let Some(name) = names.next().flatten() else {
            return;
        };
        let attribute = names.flatten().next();
        let table = if data {
            &provider.data_sources
        } else {
            &provider.resources
        };
        let prefix = if data { "data." } else { "" };
        let span = node.span();
        let Some(schema) = table.get(type_name) else {
            self.at.report(
                span,
                format!(
                    "reference to {prefix}{type_name}.{name}: {} has no such type",
                    provider.provider_version
                ),
            );
            return;
        };
        if !self
            .declared
            .contains(&(data, type_name.to_string(), name.to_string()))
        {
            self.at.report(
                span,
                format!("reference to {prefix}{type_name}.{name}, which the configuration does not declare"),
            );
            return;
        }
        if let Some(attribute) = attribute
            && !schema.exports(attribute)
        {
            let mut exported: Vec<&str> = schema
                .required
                .iter()
                .chain(&schema.optional)
                .chain(&schema.exported)
                .chain(schema.blocks.keys())
                .map(String::as_str)
                .chain(["id"])
                .collect();
            exported.sort_unstable();
            exported.dedup();
            self.at.report(
                span,
                format!(
                    "reference to {prefix}{type_name}.{name}.{attribute}: {} exports no attribute `{attribute}` of {type_name}; it exports {}",
                    provider.provider_version,
                    exported.join(", ")
                ),
            );
        }
    }
}
