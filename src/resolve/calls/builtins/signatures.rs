//! How each built-in function is called (§10.2 TOSCA Built-In Functions): its arguments, when it
//! can be evaluated, where the spec defines it.

/// When a built-in can be evaluated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// Reads the representation graph through a TOSCA path (`$get_property`, ...).
    Query,
    /// `$get_input`: bound where values are read.
    Input,
    /// Means something only in a node or relationship context (`$node_index`, ...).
    Context,
    /// `$value`: only inside a validation clause.
    Validation,
    /// Computed from the arguments alone.
    Pure,
}

/// One built-in function.
#[derive(Debug)]
pub struct BuiltIn {
    pub name: &'static str,
    pub min: usize,
    pub max: Option<usize>,
    pub group: Group,
    /// The arguments as the spec writes them, for messages.
    pub grammar: &'static str,
    /// The section of the specification that defines it, for messages.
    pub section: &'static str,
    /// The TOSCA type of every result, where it is always the same.
    pub result: Option<&'static str>,
}

const fn f(
    name: &'static str,
    min: usize,
    max: Option<usize>,
    group: Group,
    grammar: &'static str,
    section: &'static str,
    result: Option<&'static str>,
) -> BuiltIn {
    BuiltIn {
        name,
        min,
        max,
        group,
        grammar,
        section,
        result,
    }
}

use Group::*;

const BOOL: Option<&str> = Some("boolean");
const ANY: Option<usize> = None;

/// Every built-in function of §10.2, in the spec's order.
pub const BUILT_INS: &[BuiltIn] = &[
    f(
        "get_input",
        1,
        ANY,
        Input,
        "<input name> or [ <input name>, <key or index>, ... ]",
        "§10.2.1.1 $get_input",
        None,
    ),
    f(
        "get_property",
        2,
        ANY,
        Query,
        "[ <tosca_path>, <property name>, <key or index>, ... ]",
        "§10.2.1.1 $get_input",
        None,
    ),
    f(
        "get_attribute",
        2,
        ANY,
        Query,
        "[ <tosca_path>, <attribute name>, <key or index>, ... ]",
        "§10.2.1.2 $get_property",
        None,
    ),
    f(
        "get_artifact",
        2,
        ANY,
        Query,
        "[ <tosca_path>, <artifact name> ]",
        "§10.2.1.4 `$get_artifact`",
        Some("string"),
    ),
    f(
        "value",
        0,
        ANY,
        Validation,
        "$value or [ <key or index>, ... ]",
        "§10.2.1.5 $value",
        None,
    ),
    f(
        "node_index",
        0,
        Some(0),
        Context,
        "$node_index (no arguments)",
        "§10.2.1.6 $node_index",
        Some("integer"),
    ),
    f(
        "relationship_index",
        0,
        Some(0),
        Context,
        "$relationship_index (no arguments)",
        "§10.2.1.7 $relationship_index",
        Some("integer"),
    ),
    f(
        "available_allocation",
        2,
        ANY,
        Query,
        "[ <tosca_path to a capability>, <property name> ]",
        "§10.2.1.8 $available_allocation",
        None,
    ),
    f(
        "and",
        2,
        ANY,
        Pure,
        "[ <boolean>, <boolean>, ... ]",
        "§10.2.2.1.1 $and",
        BOOL,
    ),
    f(
        "or",
        2,
        ANY,
        Pure,
        "[ <boolean>, <boolean>, ... ]",
        "§10.2.2.1.2 $or",
        BOOL,
    ),
    f(
        "not",
        1,
        Some(1),
        Pure,
        "[ <boolean> ]",
        "§10.2.2.1.3 `$not`",
        BOOL,
    ),
    f(
        "xor",
        2,
        Some(2),
        Pure,
        "[ <boolean>, <boolean> ]",
        "§10.2.2.1.4 `$xor`",
        BOOL,
    ),
    f(
        "equal",
        2,
        Some(2),
        Pure,
        "[ <value>, <value of the same type> ]",
        "§10.2.2.2.1 `$equal`",
        BOOL,
    ),
    f(
        "greater_than",
        2,
        Some(2),
        Pure,
        "[ <comparable>, <comparable> ]",
        "§10.2.2.2.2 `$greater_than`",
        BOOL,
    ),
    f(
        "greater_or_equal",
        2,
        Some(2),
        Pure,
        "[ <comparable>, <comparable> ]",
        "§10.2.2.2.3 `$greater_or_equal`",
        BOOL,
    ),
    f(
        "less_than",
        2,
        Some(2),
        Pure,
        "[ <comparable>, <comparable> ]",
        "§10.2.2.2.4 `$less_than`",
        BOOL,
    ),
    f(
        "less_or_equal",
        2,
        Some(2),
        Pure,
        "[ <comparable>, <comparable> ]",
        "§10.2.2.2.5 `$less_or_equal`",
        BOOL,
    ),
    f(
        "valid_values",
        2,
        Some(2),
        Pure,
        "[ <value>, [ <value>, ... ] ]",
        "§10.2.2.2.6 `$valid_values`",
        BOOL,
    ),
    f(
        "matches",
        2,
        Some(2),
        Pure,
        "[ <string>, <regular expression> ]",
        "§10.2.2.2.7 `$matches`",
        BOOL,
    ),
    f(
        "has_suffix",
        2,
        Some(2),
        Pure,
        "[ <string or list>, <string or list> ]",
        "§10.2.2.3.1 `$has_suffix`",
        BOOL,
    ),
    f(
        "has_prefix",
        2,
        Some(2),
        Pure,
        "[ <string or list>, <string or list> ]",
        "§10.2.2.3.2 `$has_prefix`",
        BOOL,
    ),
    f(
        "contains",
        2,
        Some(2),
        Pure,
        "[ <string or list>, <string or list> ]",
        "§10.2.2.3.3 `$contains`",
        BOOL,
    ),
    f(
        "has_entry",
        2,
        Some(2),
        Pure,
        "[ <list or map>, <value> ]",
        "§10.2.2.3.4 `$has_entry`",
        BOOL,
    ),
    f(
        "has_key",
        2,
        Some(2),
        Pure,
        "[ <map>, <key> ]",
        "§10.2.2.3.5 `$has_key`",
        BOOL,
    ),
    f(
        "has_all_entries",
        2,
        Some(2),
        Pure,
        "[ <list or map>, <list> ]",
        "§10.2.2.3.6 `$has_all_entries`",
        BOOL,
    ),
    f(
        "has_all_keys",
        2,
        Some(2),
        Pure,
        "[ <map>, <list> ]",
        "§10.2.2.3.7 `$has_all_keys`",
        BOOL,
    ),
    f(
        "has_any_entry",
        2,
        Some(2),
        Pure,
        "[ <list or map>, <list> ]",
        "§10.2.2.3.8 `$has_any_entry`",
        BOOL,
    ),
    f(
        "has_any_key",
        2,
        Some(2),
        Pure,
        "[ <map>, <list> ]",
        "§10.2.2.3.9 `$has_any_key`",
        BOOL,
    ),
    f(
        "length",
        1,
        Some(1),
        Pure,
        "[ <string, list or map> ]",
        "§10.2.3.1 $length",
        Some("integer"),
    ),
    f(
        "concat",
        1,
        ANY,
        Pure,
        "[ <string or list>, ... ]",
        "§10.2.3.2 $concat",
        None,
    ),
    f(
        "join",
        1,
        Some(2),
        Pure,
        "[ [ <string>, ... ] ] or [ [ <string>, ... ], <delimiter> ]",
        "§10.2.3.3 $join",
        Some("string"),
    ),
    f(
        "token",
        3,
        Some(3),
        Pure,
        "[ <string>, <separator characters>, <index> ]",
        "§10.2.3.4 $token",
        Some("string"),
    ),
    f(
        "union",
        1,
        ANY,
        Pure,
        "[ <list>, ... ]",
        "§10.2.4.1 $union",
        Some("list"),
    ),
    f(
        "intersection",
        1,
        ANY,
        Pure,
        "[ <list>, ... ]",
        "§10.2.4.2 $intersection",
        Some("list"),
    ),
    f(
        "sum",
        1,
        ANY,
        Pure,
        "[ <integer, float or scalar>, ... ]",
        "§10.2.5.1 $sum",
        None,
    ),
    f(
        "difference",
        2,
        Some(2),
        Pure,
        "[ <integer, float or scalar>, <the same kind> ]",
        "§10.2.5.2 $difference",
        None,
    ),
    f(
        "product",
        2,
        ANY,
        Pure,
        "[ <scalar>, <integer or float> ] or [ <integer or float>, ... ]",
        "§10.2.5.3 $product",
        None,
    ),
    f(
        "quotient",
        2,
        Some(2),
        Pure,
        "[ <integer, float or scalar>, <integer or float> ]",
        "§10.2.5.4 $quotient",
        None,
    ),
    f(
        "remainder",
        2,
        Some(2),
        Pure,
        "[ <integer or scalar>, <integer> ]",
        "§10.2.5.5 $remainder",
        None,
    ),
    f(
        "round",
        1,
        Some(1),
        Pure,
        "[ <float> ]",
        "§10.2.5.6 $round",
        Some("integer"),
    ),
    f(
        "floor",
        1,
        Some(1),
        Pure,
        "[ <float> ]",
        "§10.2.5.7 $floor",
        Some("integer"),
    ),
    f(
        "ceil",
        1,
        Some(1),
        Pure,
        "[ <float> ]",
        "§10.2.5.8 $ceil",
        Some("integer"),
    ),
];

/// `$in_range`, read as a built-in only under `--quirk in-range`: csd07 does not define it, yet
/// its examples call it (§8.6 Node Filter Definition, §9.1.1.2 integer), as 1.x's `in_range`.
pub const IN_RANGE: BuiltIn = f(
    "in_range",
    2,
    Some(2),
    Pure,
    "[ <comparable>, [ <lower bound>, <upper bound> ] ]",
    "--quirk in-range; the examples at §8.6 Node Filter Definition and §9.1.1.2 integer call it",
    BOOL,
);

/// The built-in called `name`, if there is one.
pub fn built_in(name: &str) -> Option<&'static BuiltIn> {
    BUILT_INS.iter().find(|b| b.name == name)
}

impl BuiltIn {
    /// What is wrong when a call gives it `n` arguments: the message and a hint.
    pub fn arity(&self, n: usize) -> Result<(), (String, String)> {
        if n >= self.min && self.max.is_none_or(|max| n <= max) {
            return Ok(());
        }
        let plural = |k: usize| if k == 1 { "" } else { "s" };
        let takes = match self.max {
            Some(max) if max == self.min => format!("{max} argument{}", plural(max)),
            Some(max) => format!("{} to {max} arguments", self.min),
            None => format!("at least {} argument{}", self.min, plural(self.min)),
        };
        Err((
            format!("`${}` takes {takes}, and this call gives {n}", self.name),
            format!(
                "write `${}: {}` ({})",
                self.name, self.grammar, self.section
            ),
        ))
    }
}

/// The names of every built-in, for suggestions.
pub fn names() -> Vec<&'static str> {
    BUILT_INS.iter().map(|b| b.name).collect()
}
