//! checkov's Terraform checks over Terraform configurations, against a committed baseline of
//! accepted findings (`checkov-terraform-baseline.tsv`: check, resource type, why it is
//! accepted). checkov runs once over every folder given, offline (`--skip-download`), and every
//! finding must be accepted by a line of the baseline; a baseline line that accepts nothing is
//! reported too, so the baseline shrinks when the output improves.

use std::path::Path;
use std::process::Command;

/// One failed check: its id, the resource (`aws_instance.web`) and the file.
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
    /// A resource type, or a prefix ending in `*` (`kubernetes_*`).
    resource_type: String,
}

impl Accepted {
    fn accepts(&self, finding: &Finding) -> bool {
        let resource_type = finding.resource.split('.').next().unwrap_or("");
        self.check_id == finding.check_id
            && match self.resource_type.strip_suffix('*') {
                Some(prefix) => resource_type.starts_with(prefix),
                None => resource_type == self.resource_type,
            }
    }
}

fn baseline() -> Vec<Accepted> {
    include_str!("checkov-terraform-baseline.tsv")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut fields = l.split('\t');
            let (Some(check_id), Some(resource_type), Some(why)) =
                (fields.next(), fields.next(), fields.next())
            else {
                panic!(
                    "checkov-terraform-baseline.tsv: `{l}` is not check<TAB>resource type<TAB>why"
                );
            };
            assert!(
                !why.trim().is_empty(),
                "checkov-terraform-baseline.tsv: `{l}` says not why"
            );
            Accepted {
                check_id: check_id.to_string(),
                resource_type: resource_type.to_string(),
            }
        })
        .collect()
}

/// Runs checkov's Terraform checks once over every configuration under `dir`: every failed
/// check, or why checkov could not judge (it is missing, a file did not parse, its report is not
/// JSON). (One folder, not one `--directory` per configuration: checkov 3.3 repeats findings
/// across the reports of several.)
pub fn terraform_findings(dir: &Path) -> Result<Vec<Finding>, String> {
    let mut command = Command::new("checkov");
    command.args([
        "--framework",
        "terraform",
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

/// The findings no baseline line accepts, and the baseline lines that accepted nothing.
pub fn against_baseline(findings: &[Finding]) -> Vec<String> {
    let baseline = baseline();
    let mut used = vec![false; baseline.len()];
    let mut problems = Vec::new();
    for finding in findings {
        match baseline.iter().position(|a| a.accepts(finding)) {
            Some(i) => used[i] = true,
            None => problems.push(format!(
                "{}: {} {} ({}): fix the output, or accept it in tests/checkers/checkov-terraform-baseline.tsv with the reason",
                finding.file, finding.resource, finding.check_id, finding.check_name
            )),
        }
    }
    for (accepted, used) in baseline.iter().zip(used) {
        if !used {
            problems.push(format!(
                "checkov-terraform-baseline.tsv accepts {} on {}, which no output has any more: remove the line",
                accepted.check_id, accepted.resource_type
            ));
        }
    }
    problems
}
