//! Crafted bad inputs, one per failure kind (`tests/bad_input/<case>/`): each must end with its
//! documented exit code and diagnostic (code, severity, `file:line:col`, message), within a
//! time bound, and must leave every file as it was: nothing created, nothing changed, no
//! half-written output.
//!
//! A case is a folder holding its input files and a `case` file of `key: value` lines:
//!
//! ```text
//! about: a mapping key written twice          what the input gets wrong
//! args: ir input.yaml                         the command line (run in a copy of the folder)
//! exit: 1                                     the exit code
//! code: yaml::duplicate-key                   the diagnostic code (`-` for none: clap errors)
//! severity: error                             its severity: `error` or `warning`
//! at: input.yaml:6:5                          where the first diagnostic of that code and
//!                                             severity points:
//!                                             `file:line:col`; `file` alone only for a problem
//!                                             with a whole file, which has no line (an archive
//!                                             that is not one, a missing file); `-` for none
//! message: duplicate key `a`                  text that diagnostic's message contains
//! stderr: unexpected argument                 optional: text standard error must contain
//! ```
//!
//! A case that fails (exit not 0) is about its first error: its code must be an error, and the
//! first error reported. A case that succeeds (exit 0) is about a warning, and no error may be
//! reported. The judgement is [`judge`], a function of what toscana printed, so the tests at the
//! end can feed it doctored output and see it fail.
//!
//! `-o out` (a folder holding one file that must stay untouched) and `--message-format json` are
//! added unless `args` names its own `-o` (or is a `check`, which writes nothing).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Long enough for a debug build under load; a case that needs it has hung.
const TIME_BOUND: Duration = Duration::from_secs(60);

/// At least this many cases must exist, so a lost folder is noticed.
const MIN_CASES: usize = 293;

struct Case {
    name: String,
    dir: PathBuf,
    fields: BTreeMap<String, String>,
}

impl Case {
    fn field(&self, key: &str) -> &str {
        self.fields
            .get(key)
            .unwrap_or_else(|| panic!("{}: `case` has no `{key}:` line", self.name))
    }
}

fn cases() -> Vec<Case> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad_input");
    let mut cases: Vec<Case> = std::fs::read_dir(&root)
        .expect("tests/bad_input exists")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("case").is_file())
        .map(|dir| {
            let text = std::fs::read_to_string(dir.join("case")).unwrap();
            let mut fields = BTreeMap::new();
            for l in text
                .lines()
                .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            {
                let (k, v) = l
                    .split_once(':')
                    .unwrap_or_else(|| panic!("{}: bad line `{l}`", dir.display()));
                // A key written twice would let the later line silently win.
                let old = fields.insert(k.trim().to_string(), v.trim().to_string());
                assert!(
                    old.is_none(),
                    "{}/case: `{}:` is written twice",
                    dir.display(),
                    k.trim()
                );
            }
            Case {
                name: dir.file_name().unwrap().to_string_lossy().into_owned(),
                dir,
                fields,
            }
        })
        .collect();
    cases.sort_by(|a, b| a.name.cmp(&b.name));
    cases
}

/// Every file under `dir` with its bytes, by relative path.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap().filter_map(Result::ok) {
            let path = entry.path();
            if path.is_dir() {
                out.insert(format!("{}/", rel(dir, &path)), Vec::new());
                todo.push(path);
            } else {
                out.insert(rel(dir, &path), std::fs::read(&path).unwrap_or_default());
            }
        }
    }
    out
}

fn rel(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap()
        .to_string_lossy()
        .replace('\\', "/")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().filter_map(Result::ok) {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// One diagnostic as `--message-format json` prints it.
struct Printed {
    code: String,
    severity: String,
    /// `file:line:col`, `file` when it has no line, `-` when it has no place.
    at: String,
    message: String,
}

fn printed(stderr: &str) -> Vec<Printed> {
    stderr
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|d| d["code"].is_string())
        .map(|d| {
            let mut at = d["file"].as_str().unwrap_or("-").to_string();
            for key in ["line", "column"] {
                if let Some(n) = d[key].as_u64() {
                    at.push_str(&format!(":{n}"));
                }
            }
            Printed {
                code: d["code"].as_str().unwrap_or_default().to_string(),
                severity: d["severity"].as_str().unwrap_or_default().to_string(),
                at,
                message: d["message"].as_str().unwrap_or_default().to_string(),
            }
        })
        .collect()
}

/// What is wrong with a run of a case whose `case` file says `fields`, given its exit code and
/// standard error; empty when the run is as the case says. (Files written are checked apart.)
fn judge(fields: &BTreeMap<String, String>, exit: Option<i32>, stderr: &str) -> Vec<String> {
    let field = |key: &str| fields.get(key).map_or("", String::as_str);
    let mut problems = Vec::new();
    for key in ["about", "args", "exit", "code", "severity", "at"] {
        if !fields.contains_key(key) {
            problems.push(format!("`case` has no `{key}:` line"));
        }
    }
    let want_exit: Option<i32> = field("exit").parse().ok();
    if exit != want_exit {
        problems.push(format!("exit code {exit:?}, expected {}", field("exit")));
    }
    let diagnostics = printed(stderr);
    let code = field("code");
    if code == "-" {
        if field("severity") != "error" || field("at") != "-" {
            problems.push(
                "a command-line error without a code has `severity: error` and `at: -`".to_string(),
            );
        }
    } else {
        if !fields.contains_key("message") {
            problems.push("`case` has no `message:` line".to_string());
        }
        match field("severity") {
            "error" | "warning" => {}
            other => problems.push(format!("severity `{other}` is neither error nor warning")),
        }
        // The diagnostic the case is about is the first of its code and severity: one fact may
        // be reported twice, as a warning by one stage and an error by a later one (a count past
        // the limit is a warning while reading and an error under `ir --expand`).
        let judged = diagnostics
            .iter()
            .find(|d| d.code == code && d.severity == field("severity"))
            .or_else(|| diagnostics.iter().find(|d| d.code == code));
        match judged {
            None => problems.push(format!("no diagnostic with code {code}")),
            Some(d) => {
                if d.severity != field("severity") {
                    problems.push(format!(
                        "{code} is a{} {}, expected a{} {}",
                        if d.severity == "error" { "n" } else { "" },
                        d.severity,
                        if field("severity") == "error" {
                            "n"
                        } else {
                            ""
                        },
                        field("severity")
                    ));
                }
                if d.at != field("at") {
                    problems.push(format!("{code} at {}, expected {}", d.at, field("at")));
                }
                if !has_line(field("at")) && !WITHOUT_A_LINE.iter().any(|p| code.starts_with(p)) {
                    problems.push(format!(
                        "{code} is about a place in a template, so the case pins `file:line:col`, not `{}`",
                        field("at")
                    ));
                }
                let want = field("message");
                if !d.message.contains(want) {
                    problems.push(format!("{code} says `{}`, not `{want}`", d.message));
                }
            }
        }
        let first_error = diagnostics.iter().find(|d| d.severity == "error");
        match (want_exit, first_error) {
            (Some(0), Some(e)) => problems.push(format!(
                "a case that succeeds reports no error, and {} `{}` is one",
                e.code, e.message
            )),
            (Some(0), None) => {}
            (_, Some(e)) if e.code != code => problems.push(format!(
                "the first error is {} at {} (`{}`), not the case's {code}: a failing case is about its first error",
                e.code, e.at, e.message
            )),
            _ => {}
        }
    }
    if let Some(text) = fields.get("stderr")
        && !stderr.contains(text.as_str())
    {
        problems.push(format!("standard error does not contain `{text}`"));
    }
    problems
}

/// The diagnostic families whose problems have no line to point at: a whole archive or file (one
/// that is not an archive, is missing, empty or too large), a place to write, a command-line
/// value. Every other case pins `file:line:col`.
const WITHOUT_A_LINE: &[&str] = &["csar::", "input::", "output::write", "cli::"];

/// True when a case's `at:` names a line (`file:line:col`).
fn has_line(at: &str) -> bool {
    let mut parts = at.rsplitn(3, ':');
    let (col, line) = (parts.next(), parts.next());
    parts.next().is_some()
        && [col, line]
            .iter()
            .all(|p| p.is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())))
}

/// Runs the case; `Err` says what was wrong.
fn run(case: &Case) -> Result<(), String> {
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("work");
    copy_dir(&case.dir, &work);
    std::fs::remove_file(work.join("case")).unwrap();
    let mut args: Vec<String> = case
        .field("args")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    // `check` writes nothing, so it takes no `-o`.
    let writes = args.first().is_some_and(|command| command != "check");
    if writes && !args.iter().any(|a| a == "-o") {
        std::fs::create_dir(work.join("out")).unwrap();
        std::fs::write(work.join("out/keep.txt"), "left alone\n").unwrap();
        args.extend(["-o".to_string(), "out".to_string()]);
    }
    args.extend(["--message-format".to_string(), "json".to_string()]);
    let before = snapshot(&work);

    let mut child = Command::new(env!("CARGO_BIN_EXE_toscana"))
        .args(&args)
        .current_dir(&work)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start toscana: {e}"))?;
    let started = Instant::now();
    // Drain stderr on a thread so a chatty child cannot block on a full pipe.
    let mut stderr_pipe = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stderr_pipe, &mut text).ok();
        text
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > TIME_BOUND {
            child.kill().ok();
            return Err(format!("still running after {TIME_BOUND:?}: it hangs"));
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let stderr = reader.join().unwrap();

    let mut problems = judge(&case.fields, status.code(), &stderr);
    let after = snapshot(&work);
    if before != after {
        let changed: Vec<&String> = before
            .keys()
            .chain(after.keys())
            .filter(|k| before.get(*k) != after.get(*k))
            .collect();
        problems.push(format!("files were created or changed: {changed:?}"));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{}\n--- stderr ---\n{stderr}", problems.join("; ")))
    }
}

#[test]
fn every_bad_input_fails_cleanly_where_it_says() {
    let cases = cases();
    assert!(
        cases.len() >= MIN_CASES,
        "only {} cases under tests/bad_input; expected at least {MIN_CASES}",
        cases.len()
    );
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            run(c).err().map(|why| {
                format!(
                    "{} ({}): {why}",
                    c.name,
                    c.fields.get("about").map_or("", String::as_str)
                )
            })
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} bad inputs misbehaved:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

/// The `case` fields of a doctored case: a duplicate key, an error at input.yaml:6:5.
fn doctored_case() -> BTreeMap<String, String> {
    [
        ("about", "a mapping key written twice"),
        ("args", "ir input.yaml"),
        ("exit", "1"),
        ("code", "yaml::duplicate-key"),
        ("severity", "error"),
        ("at", "input.yaml:6:5"),
        ("message", "duplicate key `a`"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

fn diagnostic(code: &str, severity: &str, line: u32) -> String {
    format!(
        r#"{{"code":"{code}","severity":"{severity}","message":"duplicate key `a` in this mapping","file":"input.yaml","line":{line},"column":5,"labels":[]}}"#
    )
}

/// Asserts that one of the judge's `problems` says `text`.
fn assert_says(problems: &[String], text: &str) {
    assert!(
        problems.iter().any(|p| p.contains(text)),
        "no problem says `{text}`: {problems:?}"
    );
}

#[test]
fn the_judge_accepts_a_run_as_the_case_says() {
    let stderr = [
        diagnostic("tosca::unknown-keyname", "warning", 2),
        diagnostic("yaml::duplicate-key", "error", 6),
        diagnostic("tosca::wrong-shape", "error", 9),
    ]
    .join("\n");
    assert_eq!(
        judge(&doctored_case(), Some(1), &stderr),
        Vec::<String>::new()
    );
    // The same code as a warning elsewhere first: the error is the one judged.
    let stderr = [
        diagnostic("yaml::duplicate-key", "warning", 2),
        diagnostic("yaml::duplicate-key", "error", 6),
    ]
    .join("\n");
    assert_eq!(
        judge(&doctored_case(), Some(1), &stderr),
        Vec::<String>::new()
    );
}

#[test]
fn the_judge_rejects_a_wrong_severity_place_or_first_error() {
    // The code printed as a warning.
    let problems = judge(
        &doctored_case(),
        Some(1),
        &diagnostic("yaml::duplicate-key", "warning", 6),
    );
    assert_says(&problems, "is a warning, expected an error");
    // At another line.
    let problems = judge(
        &doctored_case(),
        Some(1),
        &diagnostic("yaml::duplicate-key", "error", 7),
    );
    assert_says(&problems, "at input.yaml:7:5, expected input.yaml:6:5");
    // Another error first: the case is not about what fails first.
    let stderr = [
        diagnostic("yaml::syntax", "error", 2),
        diagnostic("yaml::duplicate-key", "error", 6),
    ]
    .join("\n");
    let problems = judge(&doctored_case(), Some(1), &stderr);
    assert_says(&problems, "the first error is yaml::syntax");
    // Another exit code.
    let problems = judge(
        &doctored_case(),
        Some(0),
        &diagnostic("yaml::duplicate-key", "error", 6),
    );
    assert_says(&problems, "exit code Some(0)");
    // A template problem pinned to the file alone: the line and column go unchecked.
    let mut fields = doctored_case();
    fields.insert("at".into(), "input.yaml".into());
    let mut printed = diagnostic("yaml::duplicate-key", "error", 6);
    printed = printed.replacen(r#","line":6,"column":5"#, "", 1);
    let problems = judge(&fields, Some(1), &printed);
    assert_says(&problems, "pins `file:line:col`");
    assert!(has_line("input.yaml:6:5") && has_line("dir/a:b.yaml:1:2"));
    assert!(!has_line("input.yaml") && !has_line("-") && !has_line("a:b"));
}

#[test]
fn the_judge_requires_every_field() {
    for key in ["severity", "at", "message"] {
        let mut fields = doctored_case();
        fields.remove(key);
        let problems = judge(
            &fields,
            Some(1),
            &diagnostic("yaml::duplicate-key", "error", 6),
        );
        assert!(!problems.is_empty(), "a case without `{key}` passed");
    }
    // A warning case that succeeds must not print an error.
    let mut fields = doctored_case();
    fields.insert("exit".into(), "0".into());
    fields.insert("severity".into(), "warning".into());
    let stderr = [
        diagnostic("yaml::duplicate-key", "warning", 6),
        diagnostic("tosca::wrong-shape", "error", 9),
    ]
    .join("\n");
    let problems = judge(&fields, Some(0), &stderr);
    assert_says(&problems, "reports no error");
}
