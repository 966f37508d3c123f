//! What the conformance tests share: running the tool on a folder of
//! vectors and reading its summary lines (`mod common;` in each test file).

// Each test file uses its own part of this module.
#![allow(dead_code)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// The static mode writes and builds crates in one work dir: one run at a
/// time within a test binary (the tool's own lock file orders binaries).
static STATIC_LOCK: Mutex<()> = Mutex::new(());

/// `tests/vectors` of the workspace, or a folder under it.
pub fn vectors_dir(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("tests")
        .join("vectors")
        .join(sub)
}

/// What one run of the tool reported.
pub struct Run {
    pub success: bool,
    pub stdout: String,
}

/// Runs `conformance MODE DIR`, printing what it said (shown when a test fails).
pub fn run(mode: &str, dir: &Path) -> Run {
    let _guard = (mode == "static").then(|| STATIC_LOCK.lock().unwrap_or_else(|e| e.into_inner()));
    let out = Command::new(env!("CARGO_BIN_EXE_conformance"))
        .arg(mode)
        .arg(dir)
        .output()
        .expect("cannot run the conformance binary");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    eprintln!("--- conformance {mode} {}:\n{stdout}", dir.display());
    eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    Run {
        success: out.status.success(),
        stdout,
    }
}

/// The summary line of `family`.
pub fn summary<'a>(stdout: &'a str, family: &str) -> Option<&'a str> {
    stdout
        .lines()
        .find(|l| l.starts_with(&format!("{family}: ")))
}

/// A fresh directory under cargo's scratch dir for integration tests.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("cannot create a scratch dir");
    dir
}

pub fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("cannot read a vector file"))
        .expect("a vector file is not JSON")
}

/// The family files of `dir`, sorted: (file name, its "op").
pub fn families(dir: &Path) -> Vec<(String, String)> {
    let mut out = vec![];
    for e in std::fs::read_dir(dir).expect("the vectors dir") {
        let p = e.expect("dir entry").path();
        if p.extension().is_some_and(|x| x == "json") {
            let op = read_json(&p)["op"].as_str().expect("op").to_string();
            out.push((p.file_name().unwrap().to_string_lossy().into_owned(), op));
        }
    }
    out.sort();
    out
}

/// Checks a run over the whole of `dir`: every family of `implemented`
/// passes all its cases (the count given), every file has its line, and the
/// exit status reflects the failures (of families not implemented). Then
/// the implemented families alone, copied to the scratch dir `name`: a clean
/// run, exit status 0.
pub fn check_shipped(mode: &str, dir: &Path, implemented: &[(&str, usize)], name: &str) {
    let r = run(mode, dir);
    for (family, n) in implemented {
        assert_eq!(
            summary(&r.stdout, family),
            Some(format!("{family}: {n} passed, 0 failed").as_str()),
            "{mode} mode, family {family}"
        );
    }
    let mut all_pass = true;
    for (file, op) in families(dir) {
        let line = summary(&r.stdout, &op)
            .unwrap_or_else(|| panic!("{mode} mode: no line for {file} ({op})"));
        all_pass &= line.ends_with(" 0 failed");
    }
    assert_eq!(r.success, all_pass, "{mode} mode: exit status vs failures");

    let only = scratch(&format!("{name}-{mode}"));
    for (file, op) in families(dir) {
        if implemented.iter().any(|(f, _)| *f == op) {
            std::fs::copy(dir.join(&file), only.join(&file)).expect("copy");
        }
    }
    let r = run(mode, &only);
    assert!(r.success, "{mode} mode on the implemented families failed");
}
