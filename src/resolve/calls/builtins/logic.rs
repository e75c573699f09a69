//! §10.2.2.1 Boolean Logic Functions: `$and` and `$or`, which short-circuit over arguments known
//! only at deployment.

use super::{Outcome, describe, known, wrong};
use crate::ir::Value;

pub(super) fn logic(all: bool, args: &[Value]) -> Outcome {
    let name = if all { "$and" } else { "$or" };
    let mut later = false;
    let mut decided = false;
    for (i, arg) in args.iter().enumerate() {
        match known(args, i) {
            Some(Value::Boolean(b)) => decided |= *b != all,
            Some(other) => {
                return wrong(
                    i,
                    format!("`{name}` takes booleans, not {}", describe(other)),
                );
            }
            None => later |= arg.has_call(),
        }
    }
    if decided {
        // A false argument decides `$and`, a true one `$or` (§10.2.2.1.1 $and, §10.2.2.1.2 $or).
        Outcome::Value(Value::Boolean(!all))
    } else if later {
        Outcome::Later
    } else {
        Outcome::Value(Value::Boolean(all))
    }
}
