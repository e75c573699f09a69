//! Crafted bad inputs, one per failure kind (`tests/bad_input/<case>/`): each must end with its
//! documented exit code and diagnostic code at its `file:line:col`, within a time bound, and
//! must leave every file as it was: nothing created, nothing changed, no half-written output.
//!
//! A case is a folder holding its input files and a `case` file of `key: value` lines:
//!
//! ```text
//! about: a mapping key written twice          what the input gets wrong
//! args: ir input.yaml                         the command line (run in a copy of the folder)
//! exit: 1                                     the exit code
//! code: yaml::duplicate-key                   the diagnostic code (`-` for none: clap errors)
//! at: input.yaml:6:5                          where the first diagnostic of that code points
//!                                             (`file`, `file:line:col`, or `-` for nowhere)
//! message: duplicate key `a`                  optional: text that diagnostic's message contains
//! stderr: unexpected argument                 optional: text standard error must contain
//! ```
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
const MIN_CASES: usize = 60;

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
            let fields = text
                .lines()
                .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
                .map(|l| {
                    let (k, v) = l
                        .split_once(':')
                        .unwrap_or_else(|| panic!("{}: bad line `{l}`", dir.display()));
                    (k.trim().to_string(), v.trim().to_string())
                })
                .collect();
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

    let mut problems = Vec::new();
    let exit: i32 = case.field("exit").parse().expect("exit is a number");
    if status.code() != Some(exit) {
        problems.push(format!("exit code {:?}, expected {exit}", status.code()));
    }
    let code = case.field("code");
    if code != "-" {
        let found = stderr
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .find(|d| d["code"] == code);
        match found {
            None => problems.push(format!("no diagnostic with code {code}")),
            Some(d) => {
                let mut at = d["file"].as_str().unwrap_or("-").to_string();
                for key in ["line", "column"] {
                    if let Some(n) = d[key].as_u64() {
                        at.push_str(&format!(":{n}"));
                    }
                }
                if at != case.field("at") {
                    problems.push(format!("{code} at {at}, expected {}", case.field("at")));
                }
                let message = d["message"].as_str().unwrap_or_default();
                if let Some(want) = case.fields.get("message")
                    && !message.contains(want.as_str())
                {
                    problems.push(format!("{code} says `{message}`, not `{want}`"));
                }
            }
        }
    }
    if let Some(text) = case.fields.get("stderr")
        && !stderr.contains(text.as_str())
    {
        problems.push(format!("standard error does not contain `{text}`"));
    }
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
