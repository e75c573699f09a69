//! What an IR [`Call`](super::Call) calls: the TOSCA built-in functions the resolver can leave
//! in the IR, and TOSCA 2.0 custom functions by the name they are called with.
//!
//! The name is read once, where the resolver builds the call ([`Function::parse`]), so that a
//! backend matches a variant and never a spelling. In the IR's JSON a function is its name, as
//! before the enum (`"get_input"`, `"core:to_string"`): `toscana ir` and
//! `docs/ir.schema.json` do not show the difference.
//!
//! Which names are built-ins depends on the dialect: the nine functions of the Simple Profile
//! (Simple Profile 1.3 §4 TOSCA functions) for 1.x, the functions of §10.2 TOSCA Built-In
//! Functions (and `in_range`, which `--quirk in-range` reads as one) for TOSCA 2.0. A 2.0 call of
//! `$get_operation_output`, which §10.2 does not define, is a [`Function::Custom`]: an
//! orchestrator may supply it, and no backend should take it for the 1.x function.

use serde::{Serialize, Serializer};

use super::Dialect;

/// A function an IR call calls.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Function {
    // Simple Profile 1.3 §4 TOSCA functions, most also built-ins of TOSCA 2.0 (§10.2).
    GetInput,
    GetProperty,
    GetAttribute,
    GetOperationOutput,
    GetNodesOfType,
    GetArtifact,
    Concat,
    Join,
    Token,
    // §10.2.1 Representation Graph Query Functions (beyond 1.x's).
    Value,
    NodeIndex,
    RelationshipIndex,
    AvailableAllocation,
    // §10.2.2 Boolean Functions.
    And,
    Or,
    Not,
    Xor,
    Equal,
    GreaterThan,
    GreaterOrEqual,
    LessThan,
    LessOrEqual,
    ValidValues,
    Matches,
    /// `in_range`: a built-in only under `--quirk in-range` (csd07's examples call it).
    InRange,
    // §10.2.3 String, List, and Map Functions.
    HasSuffix,
    HasPrefix,
    Contains,
    HasEntry,
    HasKey,
    HasAllEntries,
    HasAllKeys,
    HasAnyEntry,
    HasAnyKey,
    Length,
    Union,
    Intersection,
    // §10.2.4 Set Functions and §10.2.5 Arithmetic Functions.
    Sum,
    Difference,
    Product,
    Quotient,
    Remainder,
    Round,
    Floor,
    Ceil,
    /// A TOSCA 2.0 custom function (§10.4 Function Definitions), by the name it is called with
    /// (`to_string`, `core:to_string` for one imported under the namespace `core`).
    Custom(String),
}

use Function::*;

/// Every built-in with its name, in the order of the specifications.
const BUILT_INS: &[(Function, &str)] = &[
    (GetInput, "get_input"),
    (GetProperty, "get_property"),
    (GetAttribute, "get_attribute"),
    (GetOperationOutput, "get_operation_output"),
    (GetNodesOfType, "get_nodes_of_type"),
    (GetArtifact, "get_artifact"),
    (Concat, "concat"),
    (Join, "join"),
    (Token, "token"),
    (Value, "value"),
    (NodeIndex, "node_index"),
    (RelationshipIndex, "relationship_index"),
    (AvailableAllocation, "available_allocation"),
    (And, "and"),
    (Or, "or"),
    (Not, "not"),
    (Xor, "xor"),
    (Equal, "equal"),
    (GreaterThan, "greater_than"),
    (GreaterOrEqual, "greater_or_equal"),
    (LessThan, "less_than"),
    (LessOrEqual, "less_or_equal"),
    (ValidValues, "valid_values"),
    (Matches, "matches"),
    (InRange, "in_range"),
    (HasSuffix, "has_suffix"),
    (HasPrefix, "has_prefix"),
    (Contains, "contains"),
    (HasEntry, "has_entry"),
    (HasKey, "has_key"),
    (HasAllEntries, "has_all_entries"),
    (HasAllKeys, "has_all_keys"),
    (HasAnyEntry, "has_any_entry"),
    (HasAnyKey, "has_any_key"),
    (Length, "length"),
    (Union, "union"),
    (Intersection, "intersection"),
    (Sum, "sum"),
    (Difference, "difference"),
    (Product, "product"),
    (Quotient, "quotient"),
    (Remainder, "remainder"),
    (Round, "round"),
    (Floor, "floor"),
    (Ceil, "ceil"),
];

impl Function {
    /// The function `name` (without TOSCA 2.0's `$`) names in `dialect`: a built-in of that
    /// dialect, or a custom function.
    pub fn parse(name: &str, dialect: Dialect) -> Function {
        BUILT_INS
            .iter()
            .find(|(f, n)| *n == name && f.is_built_in(dialect))
            .map_or_else(|| Custom(name.to_string()), |(f, _)| f.clone())
    }

    /// Every built-in function, of either dialect ([`Function::is_built_in`] says which).
    pub fn built_ins() -> impl Iterator<Item = &'static Function> {
        BUILT_INS.iter().map(|(f, _)| f)
    }

    /// The name the function is called by, without TOSCA 2.0's `$`.
    pub fn name(&self) -> &str {
        match self {
            Custom(name) => name,
            built_in => BUILT_INS
                .iter()
                .find(|(f, _)| f == built_in)
                .map_or("", |(_, n)| n),
        }
    }

    /// Whether the function is a built-in of `dialect`: one of the Simple Profile's nine in
    /// 1.x, one of §10.2's (or `in_range`) in TOSCA 2.0.
    pub fn is_built_in(&self, dialect: Dialect) -> bool {
        match (self, dialect) {
            (Custom(_), _) => false,
            (GetInput | GetProperty | GetAttribute | GetArtifact, _)
            | (Concat | Join | Token, _) => true,
            (GetOperationOutput | GetNodesOfType, d) => d != Dialect::Tosca2,
            (_, d) => d == Dialect::Tosca2,
        }
    }

    /// Whether the function computes its result from its arguments alone, so that it has a
    /// value as soon as they do ([`super::eval::apply`] computes those of strings and lists
    /// for every backend; the resolver computes the others of TOSCA 2.0).
    pub fn is_pure(&self) -> bool {
        !matches!(
            self,
            GetInput
                | GetProperty
                | GetAttribute
                | GetOperationOutput
                | GetNodesOfType
                | GetArtifact
                | Value
                | NodeIndex
                | RelationshipIndex
                | AvailableAllocation
                | Custom(_)
        )
    }

    /// Whether the function reads the representation graph (a node's property, attribute or
    /// artifact, a capability's allocation): what only a topology, or a deployment, knows.
    pub fn is_query(&self) -> bool {
        matches!(
            self,
            GetProperty | GetAttribute | GetArtifact | AvailableAllocation
        )
    }

    /// The name of a custom function without the namespace it is imported under
    /// (`core:to_string` → `to_string`); `None` for a built-in.
    pub fn custom_local_name(&self) -> Option<&str> {
        match self {
            Custom(name) => Some(name.rsplit(':').next().unwrap_or(name)),
            _ => None,
        }
    }
}

impl std::fmt::Display for Function {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A function is written as its name, as before it was typed: the IR's JSON is unchanged (its
/// schema is a string's, see [`super::Call`]).
impl Serialize for Function {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_to_the_same_function() {
        for (f, name) in BUILT_INS {
            assert_eq!(f.name(), *name);
            let dialect = match f.is_built_in(Dialect::Tosca2) {
                true => Dialect::Tosca2,
                false => Dialect::SimpleProfile,
            };
            assert_eq!(&Function::parse(name, dialect), f);
        }
        assert_eq!(
            Function::parse("core:to_string", Dialect::Tosca2),
            Custom("core:to_string".into())
        );
        assert_eq!(Custom("core:to_string".into()).name(), "core:to_string");
    }

    #[test]
    fn built_ins_depend_on_the_dialect() {
        assert_eq!(
            Function::parse("get_operation_output", Dialect::SimpleProfile),
            GetOperationOutput
        );
        assert_eq!(
            Function::parse("get_operation_output", Dialect::Tosca2),
            Custom("get_operation_output".into())
        );
        assert_eq!(
            Function::parse("sum", Dialect::SimpleProfile),
            Custom("sum".into())
        );
        assert_eq!(Function::parse("sum", Dialect::Tosca2), Sum);
        assert_eq!(Function::parse("concat", Dialect::SimpleProfile), Concat);
    }

    #[test]
    fn the_simple_profiles_built_ins_are_the_functions_its_reader_knows() {
        let built_ins: Vec<&str> = Function::built_ins()
            .filter(|f| f.is_built_in(Dialect::SimpleProfile))
            .map(Function::name)
            .collect();
        assert_eq!(built_ins, crate::model::FUNCTIONS_1X);
    }

    #[test]
    fn serialises_as_its_name() {
        let json = serde_json::to_string(&[Concat, Custom("core:to_string".into())]).unwrap();
        assert_eq!(json, r#"["concat","core:to_string"]"#);
    }

    #[test]
    fn custom_names_lose_their_namespace() {
        assert_eq!(
            Custom("core:to_string".into()).custom_local_name(),
            Some("to_string")
        );
        assert_eq!(Concat.custom_local_name(), None);
    }
}
