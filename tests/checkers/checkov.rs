//! checkov's checks of toscana's outputs, against a committed baseline of accepted findings:
//! its Terraform checks over Terraform configurations (`checkov-terraform-baseline.tsv`: check,
//! resource type, why it is accepted), its Kubernetes checks over folders of manifests
//! (`checkov-kubernetes-baseline.tsv`: check, object, why). checkov runs once over the folder
//! given, offline (`--skip-download`), and every finding must be accepted by a line of the
//! baseline; a baseline line that accepts nothing is reported too, so the baseline shrinks when
//! the output improves.

use std::path::Path;
use std::process::Command;

/// One failed check: its id, the resource (`aws_instance.web`, `Deployment.default.web`) and the
/// file.
#[derive(Debug)]
pub struct Finding {
    pub check_id: String,
    pub check_name: String,
    pub resource: String,
    pub file: String,
}

/// One accepted finding of the baseline.
struct Accepted {
    check_id: String,
    /// What it accepts the finding on: a resource's type or kind (`aws_instance`,
    /// `Deployment`), a whole resource (`Service.default.web`), or a prefix ending in `*`
    /// (`kubernetes_*`; `*` alone is every resource).
    resource: String,
}

impl Accepted {
    fn accepts(&self, finding: &Finding) -> bool {
        let resource_type = finding.resource.split('.').next().unwrap_or("");
        self.check_id == finding.check_id
            && match self.resource.strip_suffix('*') {
                Some(prefix) => finding.resource.starts_with(prefix),
                None => resource_type == self.resource || finding.resource == self.resource,
            }
    }
}

/// A baseline: its file name (under tests/checkers/) and its text.
pub struct Baseline {
    pub name: &'static str,
    pub text: &'static str,
}

/// Terraform's baseline: check, resource type, why.
pub const TERRAFORM: Baseline = Baseline {
    name: "checkov-terraform-baseline.tsv",
    text: include_str!("checkov-terraform-baseline.tsv"),
};

/// Kubernetes' baseline: check, object (kind), why.
pub const KUBERNETES: Baseline = Baseline {
    name: "checkov-kubernetes-baseline.tsv",
    text: include_str!("checkov-kubernetes-baseline.tsv"),
};

impl Baseline {
    fn lines(&self) -> Vec<Accepted> {
        self.text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .map(|l| {
                let mut fields = l.split('\t');
                let (Some(check_id), Some(resource), Some(why)) =
                    (fields.next(), fields.next(), fields.next())
                else {
                    panic!("{}: `{l}` is not check<TAB>resource<TAB>why", self.name);
                };
                assert!(!why.trim().is_empty(), "{}: `{l}` says not why", self.name);
                Accepted {
                    check_id: check_id.to_string(),
                    resource: resource.to_string(),
                }
            })
            .collect()
    }
}

/// Runs checkov's checks of `framework` (`terraform`, `kubernetes`) once over everything under
/// `dir`: every failed check, or why checkov could not judge (it is missing, a file did not
/// parse, its report is not JSON). (One folder, not one `--directory` per configuration:
/// checkov 3.3 repeats findings across the reports of several.)
pub fn findings(framework: &str, dir: &Path) -> Result<Vec<Finding>, String> {
    let mut command = Command::new("checkov");
    command.args([
        "--framework",
        framework,
        "--skip-download",
        "--compact",
        "--quiet",
        "--output",
        "json",
        "--directory",
    ]);
    command.arg(dir);
    let out = command
        .output()
        .map_err(|e| format!("cannot run checkov: {e}"))?;
    // One JSON document, an object (one framework) or a list of them.
    let mut reports = Vec::new();
    for document in serde_json::Deserializer::from_slice(&out.stdout).into_iter() {
        match document {
            Ok(serde_json::Value::Array(list)) => reports.extend(list),
            Ok(report) => reports.push(report),
            Err(e) => {
                return Err(format!(
                    "checkov's report is not JSON ({e}; {}):\n{}",
                    out.status,
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
        }
    }
    if reports.is_empty() {
        return Err(format!(
            "checkov reported nothing ({}):\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    if reports
        .iter()
        .all(|r| r["summary"]["resource_count"].as_u64() == Some(0))
    {
        return Err(format!(
            "checkov read no resource under {} (it skips hidden folders)",
            dir.display()
        ));
    }
    let mut findings = Vec::new();
    for report in &reports {
        let parsing_errors = report["summary"]["parsing_errors"].as_u64().unwrap_or(0);
        if parsing_errors > 0 {
            return Err(format!(
                "checkov could not parse {parsing_errors} files: {}",
                report["results"]["parsing_errors"]
            ));
        }
        for failed in report["results"]["failed_checks"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let text = |key: &str| failed[key].as_str().unwrap_or_default().to_string();
            findings.push(Finding {
                check_id: text("check_id"),
                check_name: text("check_name"),
                resource: text("resource"),
                file: text("file_abs_path"),
            });
        }
    }
    Ok(findings)
}

/// The findings no line of `baseline` accepts, and the lines that accepted nothing.
pub fn against_baseline(findings: &[Finding], baseline_file: &Baseline) -> Vec<String> {
    judge(findings, baseline_file, true)
}

/// The findings no line of `baseline` accepts, for a run over part of the outputs the baseline
/// covers (a line may accept findings that only the rest has, so no line is stale here).
pub fn unaccepted(findings: &[Finding], baseline_file: &Baseline) -> Vec<String> {
    judge(findings, baseline_file, false)
}

fn judge(findings: &[Finding], baseline_file: &Baseline, stale_lines_fail: bool) -> Vec<String> {
    let baseline = baseline_file.lines();
    let mut used = vec![false; baseline.len()];
    let mut problems = Vec::new();
    for finding in findings {
        match baseline.iter().position(|a| a.accepts(finding)) {
            Some(i) => used[i] = true,
            None => problems.push(format!(
                "{}: {} {} ({}): fix the output, or accept it in tests/checkers/{} with the reason",
                finding.file,
                finding.resource,
                finding.check_id,
                finding.check_name,
                baseline_file.name
            )),
        }
    }
    for (accepted, used) in baseline.iter().zip(used) {
        if stale_lines_fail && !used {
            problems.push(format!(
                "{} accepts {} on {}, which no output has any more: remove the line",
                baseline_file.name, accepted.check_id, accepted.resource
            ));
        }
    }
    problems
}
