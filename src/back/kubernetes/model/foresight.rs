//! Wiring that does not depend on declaration order.
//!
//! A workload's environment names the Services of the nodes it reaches, so resolving it needs
//! every other workload decided: its name, its ports, whether it is stateful. Workloads are
//! planned in declaration order, so an application declared before its database would find no
//! workload for it. The backend therefore plans twice: a first pass decides every workload and
//! reports nothing (it is given no `Diagnostics`, so it builds no diagnostic); the second pass,
//! which is the real one, reports what planning finds, once, and resolves addresses against
//! what the first decided ([`Ctx::decided`]). Both passes plan in the same order from the same
//! state, so names and indexes agree.
//!
//! The first pass only decides ([`Ctx::foreseeing`]): what an address needs of a workload is
//! its name, its members, its ports and whether it is stateful, and none of them depends on
//! the environment or on the scripts a lifted stack ships. So that pass resolves no variable
//! and ships no script; those were about half of its cost (at 1,200 nodes 41 M of 75 M
//! instructions for both passes). Storage is still attached in it: an attachment makes its
//! workload stateful.

use crate::diag::Diagnostics;
use crate::limits::Limits;
use crate::source::ArtifactFiles;

use super::*;

/// What the first planning pass decided: each node's workload and the workloads themselves.
pub(super) struct Foresight {
    pub(super) workload_of: Vec<Option<usize>>,
    pub(super) plans: Vec<Plan>,
}

impl Ctx<'_> {
    /// Plans the workloads and attaches storage, with every address resolved against the
    /// workloads a first pass decided.
    pub(super) fn plan_in_foresight(
        &mut self,
        artifacts: &ArtifactFiles,
        limits: &Limits,
        diags: &mut Diagnostics,
    ) {
        let n = self.topology.nodes.len();
        let names_before = self.names.clone();
        self.foreseeing = true;
        // Reports nothing: the second pass, below, reports what planning finds.
        self.plan_workloads(artifacts, limits, None);
        self.attach_storage(None);
        self.foreseeing = false;
        self.foresight = Some(Foresight {
            workload_of: std::mem::replace(&mut self.workload_of, vec![None; n]),
            plans: std::mem::take(&mut self.plans),
        });
        self.names = names_before;
        self.templated = vec![false; n];
        self.plan_workloads(artifacts, limits, Some(&mut *diags));
        self.attach_storage(Some(diags));
    }

    /// The workload of each node and the workloads, as the first planning pass decided them
    /// when there was one, else as planned so far.
    pub(super) fn decided(&self) -> (&[Option<usize>], &[Plan]) {
        match &self.foresight {
            Some(f) => (&f.workload_of, &f.plans),
            None => (&self.workload_of, &self.plans),
        }
    }
}
