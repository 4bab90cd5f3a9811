//! Helpers of the tests that drive the `stratsynth` binary: run it, read
//! its standard error, assert a clean failure, make temporary paths no
//! other test meets, and say a skip out loud. Every test binary includes
//! it once (`#[path = "../cli/mod.rs"] mod cli;` in its `main.rs`).

#![allow(dead_code)] // each test binary uses its own share

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The repository root (the tests' working directory by default).
pub const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_stratsynth");

/// A path ending in `name` in the temporary directory, nothing created:
/// named after this process and numbered per call, so neither concurrent
/// test binaries nor the tests of one binary (run side by side on
/// threads) meet, whatever names they choose.
pub fn temp_path(name: &str) -> PathBuf {
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("stratsynth-{}-{call}-{name}", std::process::id()))
}

/// A fresh, empty directory at a [`temp_path`].
pub fn fresh_dir(name: &str) -> PathBuf {
    let dir = temp_path(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the binary in `dir`.
pub fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN).current_dir(dir).args(args).output().unwrap()
}

/// Runs the binary in the repository root.
pub fn run(args: &[&str]) -> Output {
    run_in(Path::new(ROOT), args)
}

/// The standard error of a run.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts a failure with `status`, `message` on standard error, no panic.
pub fn fails(out: &Output, status: i32, message: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(status), "stderr: {err}");
    assert!(err.contains(message), "expected {message:?} in: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// A file in `dir` holding `text`, as a string for the command line.
pub fn write(dir: &Path, name: &str, text: impl AsRef<[u8]>) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// A repository file, as a string for the command line.
pub fn repo(path: &str) -> String {
    Path::new(ROOT).join(path).display().to_string()
}

/// A case this machine cannot test (not root, a race lost): said on
/// standard error, and a failure in CI (`CI=true`), where every case must
/// run, so that a skip is never silent there. Written to the process's
/// standard error itself, not through `eprintln!`, which the test harness
/// captures and shows only for a failing test.
pub fn skipped(why: &str) {
    assert!(std::env::var("CI").as_deref() != Ok("true"), "skipped in CI, where every case must run: {why}");
    let _ = writeln!(std::io::stderr(), "SKIPPED: {why}");
}
