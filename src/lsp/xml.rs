//! TOSCA 1.0 XML in the editor: which elements and attributes may be written where, what each
//! means, for completion and hover.
//!
//! The table follows the TOSCA 1.0 schema (the specification's Appendix "Complete TOSCA
//! Grammar" and its XSD): each element with the attributes and child elements the schema
//! gives it where it is written, and its chapter (§5 Service Templates, §6 Node Types, ...).
//! Names the schema uses in two places with different content (`Requirement` of a node
//! template and of the boundary definitions) have one entry per place.
//!
//! Where the cursor is comes from the text before it, scanned as XML (comments, CDATA,
//! processing instructions and quoted attribute values skipped): the open elements, and
//! whether the cursor is in a tag's name, among its attributes, or in content. A document
//! being typed is rarely well-formed, so this never parses the whole file. Namespace
//! prefixes (`tosca:NodeType`) are ignored: the table is of local names.

use lsp_types::{CompletionItem, CompletionItemKind, Position};

use super::lines::Lines;

/// One element of the TOSCA 1.0 schema where it may be written.
struct Element {
    name: &'static str,
    /// The ancestors it has this content under (the nearest last, `/` between them, as many as
    /// tell it apart); `""`: wherever the table allows it.
    parent: &'static str,
    attributes: &'static [&'static str],
    children: &'static [&'static str],
    meaning: &'static str,
    /// The chapter of TOSCA 1.0 that defines it.
    section: &'static str,
}

const TYPE_ATTRIBUTES: &[&str] = &["name", "targetNamespace", "abstract", "final"];
const TYPE_CHILDREN: &[&str] = &[
    "documentation",
    "Tags",
    "DerivedFrom",
    "PropertiesDefinition",
];
const TEMPLATE_ATTRIBUTES: &[&str] = &["id", "name", "type"];
const TEMPLATE_CHILDREN: &[&str] = &["documentation", "Properties", "PropertyConstraints"];

const fn e(
    name: &'static str,
    parent: &'static str,
    attributes: &'static [&'static str],
    children: &'static [&'static str],
    meaning: &'static str,
    section: &'static str,
) -> Element {
    Element {
        name,
        parent,
        attributes,
        children,
        meaning,
        section,
    }
}

const DEFS: &str = "§4 The TOSCA Definitions Document";
const SERVICE: &str = "§5 Service Templates";
const NODE_TYPES: &str = "§6 Node Types";
const NODE_IMPLS: &str = "§7 Node Type Implementations";
const REL_TYPES: &str = "§8 Relationship Types";
const REL_IMPLS: &str = "§9 Relationship Type Implementations";
const REQ_TYPES: &str = "§10 Requirement Types";
const CAP_TYPES: &str = "§11 Capability Types";
const ARTIFACT_TYPES: &str = "§12 Artifact Types";
const ARTIFACT_TEMPLATES: &str = "§13 Artifact Templates";
const POLICY_TYPES: &str = "§14 Policy Types";
const POLICY_TEMPLATES: &str = "§15 Policy Templates";

/// The elements, the document's root first.
const ELEMENTS: &[Element] = &[
    e(
        "Definitions",
        "",
        &["id", "name", "targetNamespace"],
        &[
            "documentation",
            "Extensions",
            "Import",
            "Types",
            "ServiceTemplate",
            "NodeType",
            "NodeTypeImplementation",
            "RelationshipType",
            "RelationshipTypeImplementation",
            "RequirementType",
            "CapabilityType",
            "ArtifactType",
            "ArtifactTemplate",
            "PolicyType",
            "PolicyTemplate",
        ],
        "the root of a TOSCA document: the types, templates and service templates of one target namespace",
        DEFS,
    ),
    e(
        "documentation",
        "",
        &["source"],
        &[],
        "a description for people",
        DEFS,
    ),
    e(
        "Extensions",
        "Definitions",
        &[],
        &["Extension"],
        "the extensions of the TOSCA language the document uses",
        DEFS,
    ),
    e(
        "Extension",
        "Extensions",
        &["namespace", "mustUnderstand"],
        &[],
        "one extension: its namespace, and whether a processor must understand it",
        DEFS,
    ),
    e(
        "Import",
        "Definitions",
        &["namespace", "location", "importType"],
        &["documentation"],
        "a document whose definitions this one uses (TOSCA, XML Schema or WSDL)",
        DEFS,
    ),
    e(
        "Types",
        "Definitions",
        &[],
        &[],
        "XML Schema definitions of the property types (`<xs:schema>`)",
        DEFS,
    ),
    e(
        "ServiceTemplate",
        "Definitions",
        &["id", "name", "targetNamespace", "substitutableNodeType"],
        &[
            "documentation",
            "Tags",
            "BoundaryDefinitions",
            "TopologyTemplate",
            "Plans",
        ],
        "a service: its topology of node and relationship templates, its boundary and its plans",
        SERVICE,
    ),
    e(
        "Tags",
        "",
        &[],
        &["Tag"],
        "name-value tags, for tools",
        SERVICE,
    ),
    e("Tag", "Tags", &["name", "value"], &[], "one tag", SERVICE),
    e(
        "BoundaryDefinitions",
        "ServiceTemplate",
        &[],
        &[
            "Properties",
            "PropertyConstraints",
            "Requirements",
            "Capabilities",
            "Policies",
            "Interfaces",
        ],
        "what the service template exposes when it substitutes for a node",
        SERVICE,
    ),
    e(
        "Properties",
        "BoundaryDefinitions",
        &[],
        &["PropertyMappings"],
        "the service template's properties, and how they map to its templates' properties",
        SERVICE,
    ),
    e(
        "PropertyMappings",
        "Properties",
        &[],
        &["PropertyMapping"],
        "how the service template's properties map to its templates' properties",
        SERVICE,
    ),
    e(
        "PropertyMapping",
        "PropertyMappings",
        &[
            "serviceTemplatePropertyRef",
            "targetObjectRef",
            "targetPropertyRef",
        ],
        &[],
        "one property of the service template, mapped to one of a template's",
        SERVICE,
    ),
    e(
        "Requirements",
        "BoundaryDefinitions",
        &[],
        &["Requirement"],
        "the requirements of its templates the service template exposes",
        SERVICE,
    ),
    e(
        "Requirement",
        "BoundaryDefinitions/Requirements",
        &["name", "ref"],
        &[],
        "a requirement of a template, exposed under a name",
        SERVICE,
    ),
    e(
        "Capabilities",
        "BoundaryDefinitions",
        &[],
        &["Capability"],
        "the capabilities of its templates the service template exposes",
        SERVICE,
    ),
    e(
        "Capability",
        "BoundaryDefinitions/Capabilities",
        &["name", "ref"],
        &[],
        "a capability of a template, exposed under a name",
        SERVICE,
    ),
    e(
        "Interfaces",
        "BoundaryDefinitions",
        &[],
        &["Interface"],
        "the operations the service template exposes, each carried out by a template's operation or a plan",
        SERVICE,
    ),
    e(
        "Interface",
        "BoundaryDefinitions/Interfaces",
        &["name"],
        &["Operation"],
        "an interface the service template exposes",
        SERVICE,
    ),
    e(
        "Operation",
        "BoundaryDefinitions/Interfaces/Interface",
        &["name"],
        &["NodeOperation", "RelationshipOperation", "Plan"],
        "an exposed operation, carried out by a node's or relationship's operation or a plan",
        SERVICE,
    ),
    e(
        "NodeOperation",
        "Operation",
        &["nodeRef", "interfaceName", "operationName"],
        &[],
        "the node template's operation that carries out the exposed one",
        SERVICE,
    ),
    e(
        "RelationshipOperation",
        "Operation",
        &["relationshipRef", "interfaceName", "operationName"],
        &[],
        "the relationship template's operation that carries out the exposed one",
        SERVICE,
    ),
    e(
        "Plan",
        "Operation",
        &["planRef"],
        &[],
        "the plan that carries out the exposed operation",
        SERVICE,
    ),
    e(
        "TopologyTemplate",
        "ServiceTemplate",
        &[],
        &["documentation", "NodeTemplate", "RelationshipTemplate"],
        "the service's topology: node templates and the relationship templates between them",
        SERVICE,
    ),
    e(
        "NodeTemplate",
        "TopologyTemplate",
        &["id", "name", "type", "minInstances", "maxInstances"],
        &[
            "documentation",
            "Properties",
            "PropertyConstraints",
            "Requirements",
            "Capabilities",
            "Policies",
            "DeploymentArtifacts",
        ],
        "a component of the service, an instance of a node type",
        SERVICE,
    ),
    e(
        "Requirements",
        "NodeTemplate",
        &[],
        &["Requirement"],
        "the node template's requirements, as its type defines them",
        SERVICE,
    ),
    e(
        "Requirement",
        "Requirements",
        &["id", "name", "type"],
        &["documentation", "Properties", "PropertyConstraints"],
        "one requirement of the node template, of a requirement type",
        SERVICE,
    ),
    e(
        "Capabilities",
        "NodeTemplate",
        &[],
        &["Capability"],
        "the node template's capabilities, as its type defines them",
        SERVICE,
    ),
    e(
        "Capability",
        "Capabilities",
        &["id", "name", "type"],
        &["documentation", "Properties", "PropertyConstraints"],
        "one capability of the node template, of a capability type",
        SERVICE,
    ),
    e(
        "Policies",
        "",
        &[],
        &["Policy"],
        "the policies that apply",
        SERVICE,
    ),
    e(
        "Policy",
        "Policies",
        &["name", "policyType", "policyRef"],
        &["documentation"],
        "a policy of a policy type, or a policy template by reference",
        SERVICE,
    ),
    e(
        "RelationshipTemplate",
        "TopologyTemplate",
        &["id", "name", "type"],
        &[
            "documentation",
            "Properties",
            "PropertyConstraints",
            "SourceElement",
            "TargetElement",
            "RelationshipConstraints",
        ],
        "a relationship between two elements of the topology, an instance of a relationship type",
        SERVICE,
    ),
    e(
        "SourceElement",
        "RelationshipTemplate",
        &["ref"],
        &[],
        "the node template (or requirement) the relationship starts from",
        SERVICE,
    ),
    e(
        "TargetElement",
        "RelationshipTemplate",
        &["ref"],
        &[],
        "the node template (or capability) the relationship leads to",
        SERVICE,
    ),
    e(
        "RelationshipConstraints",
        "RelationshipTemplate",
        &[],
        &["RelationshipConstraint"],
        "constraints on the relationship",
        SERVICE,
    ),
    e(
        "RelationshipConstraint",
        "RelationshipConstraints",
        &["constraintType"],
        &[],
        "one constraint, in the language its type names",
        SERVICE,
    ),
    e(
        "Properties",
        "",
        &[],
        &[],
        "the property values, as an element of the type's properties definition",
        SERVICE,
    ),
    e(
        "PropertyConstraints",
        "",
        &[],
        &["PropertyConstraint"],
        "constraints on property values",
        SERVICE,
    ),
    e(
        "PropertyConstraint",
        "PropertyConstraints",
        &["property", "constraintType"],
        &[],
        "a constraint on one property, in the language its type names",
        SERVICE,
    ),
    e(
        "DeploymentArtifacts",
        "",
        &[],
        &["DeploymentArtifact"],
        "the artifacts deployed with the node (images, packages)",
        SERVICE,
    ),
    e(
        "DeploymentArtifact",
        "DeploymentArtifacts",
        &["name", "artifactType", "artifactRef"],
        &["documentation"],
        "one artifact to deploy, of an artifact type, with its artifact template",
        SERVICE,
    ),
    e(
        "Plans",
        "ServiceTemplate",
        &["targetNamespace"],
        &["Plan"],
        "the management plans of the service (build, terminate, ...)",
        SERVICE,
    ),
    e(
        "Plan",
        "Plans",
        &["id", "name", "planType", "planLanguage"],
        &[
            "documentation",
            "Precondition",
            "InputParameters",
            "OutputParameters",
            "PlanModel",
            "PlanModelReference",
        ],
        "a management plan, a process model in BPMN, BPEL or another language",
        SERVICE,
    ),
    e(
        "Precondition",
        "Plan",
        &["expressionLanguage"],
        &[],
        "the condition under which the plan may run",
        SERVICE,
    ),
    e(
        "PlanModel",
        "Plan",
        &[],
        &[],
        "the plan's process model, inline",
        SERVICE,
    ),
    e(
        "PlanModelReference",
        "Plan",
        &["reference"],
        &[],
        "the plan's process model, by reference",
        SERVICE,
    ),
    e(
        "InputParameters",
        "",
        &[],
        &["InputParameter"],
        "the parameters given",
        SERVICE,
    ),
    e(
        "InputParameter",
        "InputParameters",
        &["name", "type", "required"],
        &[],
        "one parameter given",
        SERVICE,
    ),
    e(
        "OutputParameters",
        "",
        &[],
        &["OutputParameter"],
        "the parameters returned",
        SERVICE,
    ),
    e(
        "OutputParameter",
        "OutputParameters",
        &["name", "type", "required"],
        &[],
        "one parameter returned",
        SERVICE,
    ),
    e(
        "NodeType",
        "Definitions",
        TYPE_ATTRIBUTES,
        &[
            "documentation",
            "Tags",
            "DerivedFrom",
            "PropertiesDefinition",
            "RequirementDefinitions",
            "CapabilityDefinitions",
            "InstanceStates",
            "Interfaces",
        ],
        "a reusable kind of component: its properties, requirements, capabilities and operations",
        NODE_TYPES,
    ),
    e(
        "DerivedFrom",
        "",
        &["typeRef"],
        &[],
        "the type (or implementation) this one derives from and inherits",
        NODE_TYPES,
    ),
    e(
        "PropertiesDefinition",
        "",
        &["element", "type"],
        &[],
        "the XML Schema element or type of the properties",
        NODE_TYPES,
    ),
    e(
        "RequirementDefinitions",
        "NodeType",
        &[],
        &["RequirementDefinition"],
        "the requirements the node type's templates have",
        NODE_TYPES,
    ),
    e(
        "RequirementDefinition",
        "RequirementDefinitions",
        &["name", "requirementType", "lowerBound", "upperBound"],
        &["documentation", "Constraints"],
        "a requirement of the node type: its requirement type and how many times it occurs",
        NODE_TYPES,
    ),
    e(
        "CapabilityDefinitions",
        "NodeType",
        &[],
        &["CapabilityDefinition"],
        "the capabilities the node type's templates offer",
        NODE_TYPES,
    ),
    e(
        "CapabilityDefinition",
        "CapabilityDefinitions",
        &["name", "capabilityType", "lowerBound", "upperBound"],
        &["documentation", "Constraints"],
        "a capability of the node type: its capability type and how many times it occurs",
        NODE_TYPES,
    ),
    e(
        "Constraints",
        "",
        &[],
        &["Constraint"],
        "constraints, each in the language its type names",
        NODE_TYPES,
    ),
    e(
        "Constraint",
        "Constraints",
        &["constraintType"],
        &[],
        "one constraint",
        NODE_TYPES,
    ),
    e(
        "InstanceStates",
        "",
        &[],
        &["InstanceState"],
        "the states an instance may be in",
        NODE_TYPES,
    ),
    e(
        "InstanceState",
        "InstanceStates",
        &["state"],
        &[],
        "one state, a URI",
        NODE_TYPES,
    ),
    e(
        "Interfaces",
        "NodeType",
        &[],
        &["Interface"],
        "the operations that manage the node type's instances",
        NODE_TYPES,
    ),
    e(
        "Interface",
        "",
        &["name"],
        &["Operation"],
        "an interface: a named set of operations",
        NODE_TYPES,
    ),
    e(
        "Operation",
        "",
        &["name"],
        &["documentation", "InputParameters", "OutputParameters"],
        "an operation, with its parameters",
        NODE_TYPES,
    ),
    e(
        "NodeTypeImplementation",
        "Definitions",
        &["name", "targetNamespace", "nodeType", "abstract", "final"],
        &[
            "documentation",
            "Tags",
            "DerivedFrom",
            "RequiredContainerFeatures",
            "ImplementationArtifacts",
            "DeploymentArtifacts",
        ],
        "the artifacts that implement a node type's operations and deploy its instances",
        NODE_IMPLS,
    ),
    e(
        "RequiredContainerFeatures",
        "",
        &[],
        &["RequiredContainerFeature"],
        "what the TOSCA container must support to use the implementation",
        NODE_IMPLS,
    ),
    e(
        "RequiredContainerFeature",
        "RequiredContainerFeatures",
        &["feature"],
        &[],
        "one feature, a URI",
        NODE_IMPLS,
    ),
    e(
        "ImplementationArtifacts",
        "",
        &[],
        &["ImplementationArtifact"],
        "the artifacts that implement operations",
        NODE_IMPLS,
    ),
    e(
        "ImplementationArtifact",
        "ImplementationArtifacts",
        &[
            "interfaceName",
            "operationName",
            "artifactType",
            "artifactRef",
        ],
        &["documentation"],
        "the artifact that implements an interface's operation (or all of them)",
        NODE_IMPLS,
    ),
    e(
        "RelationshipType",
        "Definitions",
        TYPE_ATTRIBUTES,
        &[
            "documentation",
            "Tags",
            "DerivedFrom",
            "PropertiesDefinition",
            "InstanceStates",
            "SourceInterfaces",
            "TargetInterfaces",
            "ValidSource",
            "ValidTarget",
        ],
        "a reusable kind of relationship between components",
        REL_TYPES,
    ),
    e(
        "SourceInterfaces",
        "RelationshipType",
        &[],
        &["Interface"],
        "operations run on the relationship's source",
        REL_TYPES,
    ),
    e(
        "TargetInterfaces",
        "RelationshipType",
        &[],
        &["Interface"],
        "operations run on the relationship's target",
        REL_TYPES,
    ),
    e(
        "ValidSource",
        "RelationshipType",
        &["typeRef"],
        &[],
        "the node or requirement type the relationship may start from",
        REL_TYPES,
    ),
    e(
        "ValidTarget",
        "RelationshipType",
        &["typeRef"],
        &[],
        "the node or capability type the relationship may lead to",
        REL_TYPES,
    ),
    e(
        "RelationshipTypeImplementation",
        "Definitions",
        &[
            "name",
            "targetNamespace",
            "relationshipType",
            "abstract",
            "final",
        ],
        &[
            "documentation",
            "Tags",
            "DerivedFrom",
            "RequiredContainerFeatures",
            "ImplementationArtifacts",
        ],
        "the artifacts that implement a relationship type's operations",
        REL_IMPLS,
    ),
    e(
        "RequirementType",
        "Definitions",
        &[
            "name",
            "targetNamespace",
            "abstract",
            "final",
            "requiredCapabilityType",
        ],
        TYPE_CHILDREN,
        "a reusable kind of requirement, with the capability type that fulfils it",
        REQ_TYPES,
    ),
    e(
        "CapabilityType",
        "Definitions",
        TYPE_ATTRIBUTES,
        TYPE_CHILDREN,
        "a reusable kind of capability that nodes offer",
        CAP_TYPES,
    ),
    e(
        "ArtifactType",
        "Definitions",
        TYPE_ATTRIBUTES,
        TYPE_CHILDREN,
        "a kind of artifact (a script, an image, an archive)",
        ARTIFACT_TYPES,
    ),
    e(
        "ArtifactTemplate",
        "Definitions",
        TEMPLATE_ATTRIBUTES,
        &[
            "documentation",
            "Properties",
            "PropertyConstraints",
            "ArtifactReferences",
        ],
        "an artifact of an artifact type, with the files that make it up",
        ARTIFACT_TEMPLATES,
    ),
    e(
        "ArtifactReferences",
        "ArtifactTemplate",
        &[],
        &["ArtifactReference"],
        "the files of the artifact",
        ARTIFACT_TEMPLATES,
    ),
    e(
        "ArtifactReference",
        "ArtifactReferences",
        &["reference"],
        &["Include", "Exclude"],
        "a file or folder of the artifact, by URI",
        ARTIFACT_TEMPLATES,
    ),
    e(
        "Include",
        "ArtifactReference",
        &["pattern"],
        &[],
        "the files of the folder to include",
        ARTIFACT_TEMPLATES,
    ),
    e(
        "Exclude",
        "ArtifactReference",
        &["pattern"],
        &[],
        "the files of the folder to leave out",
        ARTIFACT_TEMPLATES,
    ),
    e(
        "PolicyType",
        "Definitions",
        &[
            "name",
            "targetNamespace",
            "abstract",
            "final",
            "policyLanguage",
        ],
        &[
            "documentation",
            "Tags",
            "DerivedFrom",
            "PropertiesDefinition",
            "AppliesTo",
        ],
        "a kind of non-functional rule (security, placement, quality of service)",
        POLICY_TYPES,
    ),
    e(
        "AppliesTo",
        "PolicyType",
        &[],
        &["NodeTypeReference"],
        "the node types the policy type applies to",
        POLICY_TYPES,
    ),
    e(
        "NodeTypeReference",
        "AppliesTo",
        &["typeRef"],
        &[],
        "one node type",
        POLICY_TYPES,
    ),
    e(
        "PolicyTemplate",
        "Definitions",
        TEMPLATE_ATTRIBUTES,
        TEMPLATE_CHILDREN,
        "a policy of a policy type with its property values, for node templates to refer to",
        POLICY_TEMPLATES,
    ),
];

/// The one-line meaning of an attribute, by name.
fn attribute_meaning(name: &str) -> Option<&'static str> {
    Some(match name {
        "id" => "the identifier, unique in the document, by which other elements refer to this one",
        "name" => "the name, for people (a type's name is its identity in its namespace)",
        "targetNamespace" => "the namespace the definitions belong to",
        "type" => "the QName of the type this is an instance of",
        "typeRef" => "the QName of the type referred to",
        "abstract" => "`yes`: only derived types (or implementations) may be instantiated",
        "final" => "`yes`: no type (or implementation) may derive from this one",
        "namespace" => "a namespace URI",
        "location" => "where the imported document is, relative to this one",
        "importType" => "the kind of document imported, by URI (TOSCA, XML Schema, WSDL)",
        "mustUnderstand" => {
            "`yes`: a processor that does not know the extension must reject the document"
        }
        "substitutableNodeType" => "the node type the service template can stand in for",
        "minInstances" => "the least number of instances of the node",
        "maxInstances" => "the most instances of the node (`unbounded` for no limit)",
        "ref" => "the id of the element referred to",
        "requirementType" => "the QName of the requirement's type",
        "capabilityType" => "the QName of the capability's type",
        "requiredCapabilityType" => "the capability type that fulfils requirements of this type",
        "lowerBound" => "the least number of occurrences",
        "upperBound" => "the most occurrences (`unbounded` for no limit)",
        "nodeType" => "the node type this implements",
        "relationshipType" => "the relationship type this implements",
        "artifactType" => "the QName of the artifact's type",
        "artifactRef" => "the QName of the artifact template",
        "interfaceName" => "the interface, by name",
        "operationName" => "the operation, by name",
        "planType" => "the kind of plan (build, termination, ...), by URI",
        "planLanguage" => "the language of the plan's process model, by URI",
        "planRef" => "the id of the plan",
        "nodeRef" => "the id of the node template",
        "relationshipRef" => "the id of the relationship template",
        "policyType" => "the QName of the policy's type",
        "policyRef" => "the QName of the policy template",
        "policyLanguage" => "the language the policies of this type are written in, by URI",
        "element" => "the XML Schema element of the properties",
        "constraintType" => "the language of the constraint, by URI",
        "property" => "the property constrained",
        "reference" => "a URI",
        "pattern" => "a file name pattern",
        "state" => "the state, a URI",
        "feature" => "the feature, a URI",
        "required" => "`yes`: the parameter must be given",
        "value" => "the tag's value",
        "source" => "where the documentation comes from, a URI",
        "expressionLanguage" => "the language of the condition, by URI",
        "serviceTemplatePropertyRef" => "the service template's property, as an XPath",
        "targetObjectRef" => "the id of the template whose property it maps to",
        "targetPropertyRef" => "the template's property, as an XPath",
        _ => return None,
    })
}

/// The element `name` written under the open elements `ancestors` (outermost first): the entry
/// whose place is the longest that ends the ancestors.
fn element(name: &str, ancestors: &[String]) -> Option<&'static Element> {
    let fits = |place: &str| {
        let steps: Vec<&str> = place.split('/').filter(|s| !s.is_empty()).collect();
        steps.len() <= ancestors.len()
            && steps
                .iter()
                .rev()
                .zip(ancestors.iter().rev())
                .all(|(s, a)| s == a)
    };
    // Reversed, so that among places as long the table's first wins.
    ELEMENTS
        .iter()
        .rev()
        .filter(|e| e.name == name && fits(e.parent))
        .max_by_key(|e| e.parent.split('/').filter(|s| !s.is_empty()).count())
        .or_else(|| ELEMENTS.iter().find(|e| e.name == name))
}

/// Where the cursor is.
#[derive(Debug, PartialEq, Eq)]
enum Place {
    /// In a tag's name (`<Node|`), possibly an end tag's; what is typed of it.
    TagName { typed: String, end: bool },
    /// In a start tag, among its attributes; the element, the attributes written, and the
    /// attribute name under the cursor (possibly partly typed).
    Attributes {
        element: String,
        written: Vec<String>,
        typed: String,
    },
    /// In an attribute's value, or in content.
    Other,
}

/// The place of byte `at` of `text`, and the open elements around it (innermost last).
fn place(text: &str, at: usize) -> (Place, Vec<String>) {
    let bytes = text.as_bytes();
    let at = at.min(text.len());
    let mut open: Vec<String> = Vec::new();
    let mut i = 0;
    while let Some(lt) = memchr::memchr(b'<', &bytes[i..at]).map(|p| i + p) {
        let rest = &text[lt..];
        let skip = |end: &str| rest.find(end).map(|p| lt + p + end.len());
        let after = if rest.starts_with("<!--") {
            skip("-->")
        } else if rest.starts_with("<![CDATA[") {
            skip("]]>")
        } else if rest.starts_with("<?") {
            skip("?>")
        } else if rest.starts_with("<!") {
            skip(">")
        } else {
            None
        };
        if rest.starts_with("<!") || rest.starts_with("<?") {
            match after {
                Some(end) if end <= at => {
                    i = end;
                    continue;
                }
                _ => return (Place::Other, open),
            }
        }
        let end_tag = rest.starts_with("</");
        let name_start = lt + 1 + usize::from(end_tag);
        let name_end = text[name_start..]
            .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
            .map_or(text.len(), |p| name_start + p);
        let name = local(&text[name_start..name_end]);
        if at <= name_end {
            let typed = local(&text[name_start..at]).to_string();
            return (
                Place::TagName {
                    typed,
                    end: end_tag,
                },
                open,
            );
        }
        // The tag's end, outside quoted values.
        let mut quote = None;
        let mut close = None;
        for (p, c) in text[name_end..at].char_indices() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'') => quote = Some(c),
                (None, '>') => {
                    close = Some(name_end + p);
                    break;
                }
                _ => {}
            }
        }
        let Some(close) = close else {
            if end_tag || quote.is_some() {
                return (Place::Other, open);
            }
            let inside = &text[name_end..at];
            let written = attribute_names(inside);
            let typed_start = inside
                .rfind(|c: char| c.is_whitespace())
                .map_or(0, |p| p + 1);
            let typed = &inside[typed_start..];
            if typed.contains('=') {
                return (Place::Other, open);
            }
            return (
                Place::Attributes {
                    element: name.to_string(),
                    written,
                    typed: typed.to_string(),
                },
                open,
            );
        };
        if end_tag {
            if let Some(p) = open.iter().rposition(|o| o == name) {
                open.truncate(p);
            }
        } else if !text[..close].ends_with('/') {
            open.push(name.to_string());
        }
        i = close + 1;
    }
    (Place::Other, open)
}

/// A name without its namespace prefix.
fn local(name: &str) -> &str {
    name.rsplit(':').next().unwrap_or(name)
}

/// The names of the attributes written in a tag's text (after its name).
fn attribute_names(inside: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut quote = None;
    let mut word = String::new();
    for c in inside.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '=') => {
                names.push(std::mem::take(&mut word));
            }
            (None, c) if c.is_whitespace() => word.clear(),
            (None, c) => word.push(c),
        }
    }
    names
}

/// The elements or attributes that may be written at `position`.
pub fn complete(text: &str, position: Position) -> Vec<CompletionItem> {
    let at = Lines::new(text).offset(position);
    let (place, open) = place(text, at);
    match place {
        Place::TagName { end: true, .. } => open
            .last()
            .map(|parent| vec![item(parent, CompletionItemKind::CLASS, None)])
            .unwrap_or_default(),
        Place::TagName { .. } => {
            let children: &[&str] = match open.split_last() {
                None => &["Definitions"],
                Some((parent, above)) => element(parent, above).map_or(&[], |e| e.children),
            };
            children
                .iter()
                .map(|child| {
                    let meaning = element(child, &open).map(|e| e.meaning);
                    item(child, CompletionItemKind::CLASS, meaning)
                })
                .collect()
        }
        Place::Attributes {
            element: name,
            written,
            ..
        } => element(&name, &open)
            .map(|e| e.attributes)
            .unwrap_or_default()
            .iter()
            .filter(|a| !written.iter().any(|w| w == *a))
            .map(|a| CompletionItem {
                insert_text: Some(format!("{a}=\"\"")),
                ..item(a, CompletionItemKind::PROPERTY, attribute_meaning(a))
            })
            .collect(),
        Place::Other => Vec::new(),
    }
}

fn item(label: &str, kind: CompletionItemKind, detail: Option<&str>) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail: detail.map(str::to_string),
        ..Default::default()
    }
}

/// The meaning of the element or attribute name at byte `at` of `text`, with the name's byte
/// range.
pub fn hover(text: &str, at: usize) -> Option<(String, usize, usize)> {
    let is_name = |c: char| c.is_alphanumeric() || "_-.:".contains(c);
    let at = at.min(text.len());
    let start = text[..at].rfind(|c: char| !is_name(c)).map_or(0, |p| p + 1);
    let end = text[start..]
        .find(|c: char| !is_name(c))
        .map_or(text.len(), |p| start + p);
    if start == end {
        return None;
    }
    let word = local(&text[start..end]);
    let (place, open) = place(text, end);
    let text = match place {
        Place::TagName { end: closing, .. } => {
            let ancestors = match closing {
                true => &open[..open.len().saturating_sub(1)],
                false => &open[..],
            };
            let e = element(word, ancestors)?;
            let mut out = format!(
                "**`<{}>`**: {} (TOSCA 1.0 {})",
                e.name, e.meaning, e.section
            );
            if !e.attributes.is_empty() {
                let names: Vec<String> = e.attributes.iter().map(|a| format!("`{a}`")).collect();
                out.push_str(&format!("\n\nattributes: {}", names.join(", ")));
            }
            if !e.children.is_empty() {
                let names: Vec<String> = e.children.iter().map(|c| format!("`<{c}>`")).collect();
                out.push_str(&format!("\n\nelements: {}", names.join(", ")));
            }
            out
        }
        Place::Attributes { element: name, .. } if text_after_is_equals(text, end) => {
            let e = element(&name, &open)?;
            e.attributes.iter().find(|a| **a == word)?;
            format!(
                "**`{word}`** of `<{}>`: {} (TOSCA 1.0 {})",
                e.name,
                attribute_meaning(word)?,
                e.section
            )
        }
        _ => return None,
    };
    Some((text, start, end))
}

/// Whether an `=` follows byte `end` (spaces aside): the word is an attribute's name.
fn text_after_is_equals(text: &str, end: usize) -> bool {
    text[end..].trim_start().starts_with('=')
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "<Definitions id=\"a\">\n  <!-- <NodeType> -->\n  <ServiceTemplate id=\"s\">\n    <TopologyTemplate>\n      <NodeTemplate id=\"n\" type=\"x\"/>\n      <\n";

    #[test]
    fn the_open_elements_are_read_past_comments_and_empty_elements() {
        let at = DOC.len() - 1;
        let (place, open) = place(DOC, at);
        assert_eq!(open, ["Definitions", "ServiceTemplate", "TopologyTemplate"]);
        assert_eq!(
            place,
            Place::TagName {
                typed: String::new(),
                end: false
            }
        );
    }

    #[test]
    fn attributes_written_are_not_offered_again() {
        let text = "<Definitions id=\"a\">\n<NodeType name=\"x\" ";
        let labels: Vec<String> = complete(text, Position::new(1, 19))
            .into_iter()
            .map(|i| i.label)
            .collect();
        assert_eq!(labels, ["targetNamespace", "abstract", "final"]);
    }

    #[test]
    fn a_name_under_two_parents_has_each_ones_content() {
        let path = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let boundary = element(
            "Requirement",
            &path(&["BoundaryDefinitions", "Requirements"]),
        );
        assert_eq!(boundary.unwrap().attributes, ["name", "ref"]);
        let node = element("Requirement", &path(&["NodeTemplate", "Requirements"]));
        assert_eq!(node.unwrap().attributes, ["id", "name", "type"]);
        let exposed = path(&["BoundaryDefinitions", "Interfaces", "Interface"]);
        let operation = element("Operation", &exposed).unwrap();
        assert_eq!(
            operation.children,
            ["NodeOperation", "RelationshipOperation", "Plan"]
        );
        let operation = element("Operation", &path(&["NodeType", "Interfaces", "Interface"]));
        assert_eq!(operation.unwrap().children[1], "InputParameters");
    }
}
