//! A folder write is all or nothing, across a kill and against a second writer
//! (docs/security.md, "What toscana writes").
//!
//! The writes are 5,000 files from a backend of one's own (`render --backend-dir`), which
//! renders them in a moment, so that the test spends its time in the writer, where the
//! kills are aimed: each trial waits until the run has begun staging its files (its staging
//! folder appears) or has committed them (its journal appears), then kills it with SIGKILL at a
//! random point of the time that phase takes. The next run that names the folder finishes or
//! drops what the killed one left; from then on the folder must be exactly the old output or
//! exactly the new one, with nothing of toscana's own left in it.

#![cfg(unix)]

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod common;

/// How many files each run writes: enough that staging and renaming take long enough to be
/// hit at many points (the protocol does not depend on the number).
const FILES: usize = 5_000;
/// How many runs are killed at a random point (half of them while staging, half while
/// renaming).
const TRIALS: usize = 16;
/// Long enough for a debug build on a loaded machine; a run that needs it has hung.
const HANG_GUARD: Duration = Duration::from_secs(300);

/// The template and two backends that write the same files with different content (`v1`,
/// `v2`).
struct World {
    tmp: tempfile::TempDir,
}

impl World {
    fn new() -> World {
        let tmp = tempfile::tempdir().unwrap();
        let mut yaml = String::from(
            "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n",
        );
        for i in 0..FILES {
            yaml.push_str(&format!("    n{i}:\n      type: tosca.nodes.Root\n"));
        }
        fs::write(tmp.path().join("many.yaml"), yaml).unwrap();
        for version in ["v1", "v2"] {
            let backend = tmp.path().join(version);
            fs::create_dir(&backend).unwrap();
            fs::write(
                backend.join("mapping.yaml"),
                "rules:\n  - match: { kind: node }\n    template: n.tera\n    output: \"{{ element.name }}.txt\"\n",
            )
            .unwrap();
            fs::write(
                backend.join("n.tera"),
                format!("{{{{ element.name }}}} {version}\n"),
            )
            .unwrap();
        }
        World { tmp }
    }

    fn out(&self) -> PathBuf {
        self.tmp.path().join("out")
    }

    /// `toscana render` of `version` into `out/`, started.
    fn start(&self, version: &str) -> Child {
        Command::new(env!("CARGO_BIN_EXE_toscana"))
            .args(["render", "many.yaml", "--backend-dir", version, "-q"])
            .args(["-o", "out", "--message-format", "json"])
            .current_dir(self.tmp.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    }

    /// Runs `version` to the end: its exit code and standard error.
    fn run(&self, version: &str) -> (Option<i32>, String) {
        let child = self.start(version);
        finish(child)
    }

    /// A run that names the folder but fails before it writes (its input does not exist): it
    /// still finishes what a killed run left there.
    fn recover(&self) {
        let out = Command::new(env!("CARGO_BIN_EXE_toscana"))
            .args(["render", "missing.yaml", "--backend-dir", "v1", "-o", "out"])
            .current_dir(self.tmp.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", common::stderr(&out));
    }

    /// Which version the folder holds: `Ok("v1")`, `Ok("v2")`, or what is wrong with it.
    fn state(&self) -> Result<&'static str, String> {
        let files = listing(&self.out());
        let own: Vec<&String> = files.keys().filter(|k| k.starts_with(".toscana")).collect();
        if !own.is_empty() {
            return Err(format!("toscana's own files are left: {own:?}"));
        }
        if files.len() != FILES {
            return Err(format!("{} files, not {FILES}", files.len()));
        }
        for version in ["v1", "v2"] {
            if files
                .iter()
                .all(|(name, text)| *text == format!("{} {version}\n", &name[..name.len() - 4]))
            {
                return Ok(version);
            }
        }
        let v1 = files.values().filter(|t| t.ends_with(" v1\n")).count();
        Err(format!(
            "a mix: {v1} files of v1, {} of v2",
            files.len() - v1
        ))
    }
}

/// Every entry of `dir` (one level: the backend writes no folders) with its text.
fn listing(dir: &Path) -> BTreeMap<String, String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            let text = fs::read_to_string(e.path()).unwrap_or_else(|_| "<not a file>".into());
            (name, text)
        })
        .collect()
}

/// Waits for `child` (with a hang guard) and gives its exit code and standard error.
fn finish(child: Child) -> (Option<i32>, String) {
    common::finish_within(child, HANG_GUARD)
}

/// Waits until `marker` exists in the output folder or `child` has exited; whether it appeared.
fn wait_for(child: &mut Child, marker: &Path) -> bool {
    wait_until(child, || fs::symlink_metadata(marker).is_ok())
}

/// Waits until `done` holds or `child` has exited; whether it held.
fn wait_until(child: &mut Child, done: impl Fn() -> bool) -> bool {
    let started = Instant::now();
    loop {
        if done() {
            return true;
        }
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        assert!(started.elapsed() < HANG_GUARD, "toscana hangs");
        std::thread::sleep(Duration::from_micros(500));
    }
}

/// A small random generator (xorshift), seeded from the clock and printed, so a failing run
/// can be replayed with `TOSCANA_KILL_SEED`.
fn seeded() -> impl FnMut() -> u64 {
    let seed = std::env::var("TOSCANA_KILL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
                | 1
        });
    eprintln!("TOSCANA_KILL_SEED={seed}");
    let mut x = seed;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

#[test]
fn a_write_killed_at_any_point_leaves_the_old_output_or_the_new_one() {
    let world = World::new();
    let (code, err) = world.run("v1");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(world.state(), Ok("v1"));
    let staging = world.out().join(".toscana-staging");
    let journal = world.out().join(".toscana-journal");

    // How long staging and renaming take, from the staging folder's appearance to the
    // journal's, and from there to its removal: the spans the kills are spread over
    // (measured, not asserted).
    let mut child = world.start("v2");
    assert!(wait_for(&mut child, &staging), "the write never began");
    let began = Instant::now();
    assert!(wait_for(&mut child, &journal), "the write never committed");
    let staged = began.elapsed();
    wait_until(&mut child, || !journal.exists());
    let renamed = began.elapsed() - staged;
    let (code, err) = finish(child);
    let spans = [
        staged.as_micros().max(1) as u64,
        renamed.as_micros().max(1) as u64,
    ];
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(world.state(), Ok("v2"));
    eprintln!("staging takes {} µs, renaming {} µs", spans[0], spans[1]);

    let mut random = seeded();
    let mut current = "v2";
    let mut outcomes = BTreeMap::new();
    for trial in 0..TRIALS + 2 {
        let next = if current == "v1" { "v2" } else { "v1" };
        let mut child = world.start(next);
        // Two trials aimed at the ends of the commit: just before it (the staging folder
        // appears) and just after it (the journal appears); the others anywhere in the write.
        let (marker, delay) = match trial {
            0 => (&staging, 0),
            1 => (&journal, 0),
            t if t % 2 == 0 => (&staging, random() % spans[0]),
            _ => (&journal, random() % spans[1]),
        };
        if wait_for(&mut child, marker) {
            std::thread::sleep(Duration::from_micros(delay));
        }
        child.kill().ok();
        let _ = finish(child);
        if journal.exists() {
            *outcomes.entry("killed while renaming").or_insert(0) += 1;
        }
        world.recover();
        let state = world
            .state()
            .unwrap_or_else(|why| panic!("trial {trial}: killed, then recovered: {why}"));
        assert!(state == current || state == next, "trial {trial}: {state}");
        *outcomes
            .entry(if state == current { "old" } else { "new" })
            .or_insert(0) += 1;
        current = state;
    }
    eprintln!("kills and what the next run found: {outcomes:?}");
    // The write goes on normally afterwards.
    let next = if current == "v1" { "v2" } else { "v1" };
    let (code, err) = world.run(next);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(world.state(), Ok(next));
}

#[test]
fn a_second_writer_fails_with_the_name_of_the_first_and_changes_nothing() {
    let world = World::new();
    let (code, err) = world.run("v1");
    assert_eq!(code, Some(0), "{err}");
    // This test holds the folder the way a run does.
    let lock_path = world.out().join(".toscana.lock");
    let mut lock = fs::File::create(&lock_path).unwrap();
    lock.try_lock().unwrap();
    std::io::Write::write_all(&mut lock, b"process 4242: toscana render many.yaml -o out").unwrap();
    let (code, err) = world.run("v2");
    assert_eq!(code, Some(3), "{err}");
    let d = err
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|d| d["code"] == "output::locked")
        .unwrap_or_else(|| panic!("no output::locked:\n{err}"));
    let message = d["message"].as_str().unwrap();
    assert!(
        message.contains("`out` is being written by another toscana run (process 4242: toscana render many.yaml -o out)"),
        "{message}"
    );
    drop(lock);
    fs::remove_file(&lock_path).unwrap();
    assert_eq!(world.state(), Ok("v1"));

    // Two runs at once: one writes, the other fails with that message or comes after it;
    // the folder is one of them, whole.
    for _ in 0..3 {
        let (a, b) = (world.start("v1"), world.start("v2"));
        let results = [finish(a), finish(b)];
        let mut wrote = Vec::new();
        for ((code, err), version) in results.iter().zip(["v1", "v2"]) {
            match code {
                Some(0) => wrote.push(version),
                Some(3) => assert!(
                    err.contains("is being written by another toscana run"),
                    "{err}"
                ),
                other => panic!("{version} exited with {other:?}: {err}"),
            }
        }
        assert!(!wrote.is_empty(), "neither run wrote");
        let state = world.state().unwrap();
        assert!(wrote.contains(&state), "{state} did not win: {wrote:?}");
    }
}
