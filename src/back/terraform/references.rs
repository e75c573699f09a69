//! Which variables a configuration uses, read from its parsed HCL (not from the text, where
//! `var.x` may sit inside a string or a heredoc that is no reference).
//!
//! A `variable` block's own `validation` refers to the variable; that is no use of it, so
//! `variable` blocks are not read.

use std::collections::BTreeSet;

use hcl_edit::expr::{Expression, Traversal, TraversalOperator};
use hcl_edit::structure::{Block, Body};
use hcl_edit::visit::{Visit, visit_block, visit_traversal};

/// The names `var.<name>` refers to anywhere in `text` outside `variable` blocks; `text` that
/// does not parse refers to nothing (it is reported where it is parsed before being written).
pub fn variables_used(text: &str) -> BTreeSet<String> {
    text.parse::<Body>()
        .map(|body| variables_in(&body))
        .unwrap_or_default()
}

/// The names `var.<name>` refers to anywhere in `body` outside `variable` blocks.
pub fn variables_in(body: &Body) -> BTreeSet<String> {
    let mut uses = Uses::default();
    uses.visit_body(body);
    uses.names
}

#[derive(Default)]
struct Uses {
    names: BTreeSet<String>,
}

impl Visit for Uses {
    fn visit_block(&mut self, block: &Block) {
        if block.ident.as_str() != "variable" {
            visit_block(self, block);
        }
    }

    fn visit_traversal(&mut self, traversal: &Traversal) {
        if let Expression::Variable(root) = &traversal.expr
            && root.as_str() == "var"
            && let Some(first) = traversal.operators.first()
            && let TraversalOperator::GetAttr(name) = first.value()
        {
            self.names.insert(name.as_str().to_string());
        }
        visit_traversal(self, traversal);
    }
}

#[cfg(test)]
mod tests {
    use super::variables_used;

    #[test]
    fn references_count_and_validations_do_not() {
        let text = r#"
variable "a" {
  validation {
    condition     = var.a > 0
    error_message = "no"
  }
}
variable "b" {}
variable "c" {}
resource "x" "y" {
  name = "${var.b}-web"
  tags = { t = upper(var.c[0]) }
  note = "var.d is text"
}
"#;
        let used: Vec<String> = variables_used(text).into_iter().collect();
        assert_eq!(used, ["b", "c"]);
    }
}
