//! Helpers of the tests that drive the `stratsynth` binary on hostile
//! input: run it, read its standard error, assert a clean failure.

#![allow(dead_code)] // each test file uses its own share

use std::path::Path;
use std::process::{Command, Output};

/// The repository root (the tests' working directory by default).
pub const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_stratsynth");

/// A fresh, empty directory `name` in the temporary directory (named
/// after this process, so concurrent test binaries do not meet).
pub fn fresh_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("stratsynth-{}-{name}", std::process::id()));
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
/// run, so that a skip is never silent there.
pub fn skipped(why: &str) {
    assert!(std::env::var("CI").as_deref() != Ok("true"), "skipped in CI, where every case must run: {why}");
    eprintln!("SKIPPED: {why}");
}
