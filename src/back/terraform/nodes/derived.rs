//! Names of the resources a node's template adds beside the node's own (a load balancer's
//! security group `<lb>_lb`, a volume's attachment `<volume>_<machine>`, a target's attachment
//! `<lb>_<target>`, a load-balanced network's subnets...).
//!
//! Terraform names a resource by type and name, and a derived resource often shares its type
//! with a node's own (a load balancer's group and a machine's group are both
//! `aws_security_group`). So a derived name is never any name the configuration already uses:
//! the set starts with every node's and policy's name, and each derived name joins it. A clash
//! takes `_2`, `_3`... as [`super::super::unique_names`] does.

use std::collections::HashSet;

/// The names the configuration uses so far.
pub struct DerivedNames {
    taken: HashSet<String>,
}

impl DerivedNames {
    /// Seeded with the names the nodes' and policies' own resources use.
    pub fn seeded<'a>(names: impl IntoIterator<Item = &'a String>) -> Self {
        DerivedNames {
            taken: names.into_iter().cloned().collect(),
        }
    }

    /// `base`, or `base_2`, `base_3`... : the first no resource uses yet, now taken.
    pub fn derive(&mut self, base: String) -> String {
        let mut name = base.clone();
        let mut n = 2;
        while !self.taken.insert(name.clone()) {
            name = format!("{base}_{n}");
            n += 1;
        }
        name
    }
}

#[cfg(test)]
mod tests {
    use super::DerivedNames;

    /// A machine named `front_lb` owns `aws_security_group.front_lb`; load balancer `front`'s
    /// group, `front_lb` by its rule, must take another name.
    #[test]
    fn a_derived_name_never_equals_a_node_name() {
        let nodes = ["front".to_string(), "front_lb".to_string()];
        let mut names = DerivedNames::seeded(&nodes);
        assert_eq!(names.derive("front_lb".to_string()), "front_lb_2");
        assert_eq!(names.derive("front_lb".to_string()), "front_lb_3");
        assert_eq!(names.derive("vol_vm".to_string()), "vol_vm");
        assert_eq!(names.derive("vol_vm".to_string()), "vol_vm_2");
    }

    /// A derived name that takes `_2` never meets a node named so either.
    #[test]
    fn a_numbered_derived_name_skips_node_names_too() {
        let nodes = ["a_b".to_string(), "a_b_2".to_string()];
        let mut names = DerivedNames::seeded(&nodes);
        assert_eq!(names.derive("a_b".to_string()), "a_b_3");
    }
}
