//! The Slurm scripts (issue 45, item 7), run with a stand-in `sbatch`
//! that records where it was called from and its arguments (the real
//! cluster run is `scripts/slurm/test.sh`): `submit.sh` submits nothing
//! and fails when `STRATSYNTH` names no executable; a `%` of the output
//! directory reaches sbatch's `--output` as `%%` (not a pattern); the jobs
//! are submitted from the caller's directory, so relative paths in the
//! options mean what they mean there; the job scripts pass `--threads`
//! only when Slurm sets a CPU count, without arrays (an empty one is an
//! unbound variable under `set -u` in bash before 4.4).

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scripts() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/slurm")
}

/// An executable shell script `name` in `dir` with `body`.
fn executable(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/usr/bin/env bash\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A directory holding a stand-in `sbatch` that appends its working
/// directory and arguments (one per line, then `--`) to `sbatch.log`
/// there and prints a job id.
fn fake_sbatch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("sbatch.log");
    executable(
        dir.path(),
        "sbatch",
        &format!("{{ echo \"cwd=$PWD\"; printf '%s\\n' \"$@\"; echo --; }} >>'{}'\necho 42\n", log.display()),
    );
    dir
}

/// `submit.sh args` run in `cwd` with the stand-in sbatch first on PATH.
fn submit(sbatch: &Path, cwd: &Path, stratsynth: &Path, args: &[&str]) -> Output {
    let path = format!("{}:{}", sbatch.display(), std::env::var("PATH").unwrap_or_default());
    Command::new("bash")
        .arg(scripts().join("submit.sh"))
        .args(args)
        .current_dir(cwd)
        .env("PATH", path)
        .env("STRATSYNTH", stratsynth)
        .output()
        .unwrap()
}

#[test]
fn submit_refuses_a_binary_that_is_not_there() {
    let sbatch = fake_sbatch();
    let caller = tempfile::tempdir().unwrap();
    for binary in [caller.path().join("nowhere/stratsynth"), caller.path().to_path_buf()] {
        let out = submit(sbatch.path(), caller.path(), &binary, &["2", "runs/a"]);
        assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("is not an executable file") && err.contains("nothing submitted"), "{err}");
        assert!(!sbatch.path().join("sbatch.log").exists(), "jobs were submitted");
        assert!(!caller.path().join("runs").exists());
    }
}

#[test]
fn submit_escapes_percent_and_submits_from_the_callers_directory() {
    let sbatch = fake_sbatch();
    let caller = tempfile::tempdir().unwrap();
    let binary = executable(caller.path(), "stratsynth", "exit 0\n");
    let out = submit(sbatch.path(), caller.path(), &binary, &["3", "runs/50%a", "--tests", "mine.lines"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "42 42");
    let log = std::fs::read_to_string(sbatch.path().join("sbatch.log")).unwrap();
    let calls: Vec<&str> = log.split("--\n").filter(|c| !c.is_empty()).collect();
    assert_eq!(calls.len(), 2, "{log}");
    let caller_dir = caller.path().canonicalize().unwrap().display().to_string();
    let out_dir = format!("{caller_dir}/runs/50%a");
    for call in &calls {
        let lines: Vec<&str> = call.lines().collect();
        // the jobs start where sbatch is called: the caller's directory
        assert_eq!(lines[0], format!("cwd={caller_dir}"), "{call}");
        // the options as given, relative paths included, after OUT_DIR
        assert!(lines.ends_with(&[out_dir.as_str(), "--tests", "mine.lines"]), "{call}");
    }
    assert!(calls[0].contains(&format!("--output={caller_dir}/runs/50%%a/slurm/shard-%a.out\n")), "{}", calls[0]);
    assert!(calls[1].contains(&format!("--output={caller_dir}/runs/50%%a/slurm/merge.out\n")), "{}", calls[1]);
    assert!(caller.path().join("runs/50%a/slurm").is_dir());
}

/// `script args` under `set -u` with a stand-in binary that prints its
/// arguments, `cpus` as SLURM_CPUS_PER_TASK if given.
fn job(script: &str, args: &[&str], cpus: Option<&str>) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let binary = executable(dir.path(), "stratsynth", "printf '%s\\n' \"$@\"\n");
    let mut command = Command::new("bash");
    command
        .arg(scripts().join(script))
        .args(args)
        .env("STRATSYNTH", binary)
        .env("SLURM_ARRAY_TASK_COUNT", "4")
        .env("SLURM_ARRAY_TASK_ID", "1")
        .env_remove("SLURM_CPUS_PER_TASK");
    if let Some(n) = cpus {
        command.env("SLURM_CPUS_PER_TASK", n);
    }
    let out = command.output().unwrap();
    assert!(out.status.success(), "{script}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().lines().map(String::from).collect()
}

#[test]
fn job_scripts_pass_threads_only_when_slurm_gives_cpus() {
    let shard = job("shard.sbatch", &["/o", "--sample", "8"], None);
    assert_eq!(
        shard,
        ["learn", "nonogram", "--out-dir", "/o", "--shards", "4", "--shard", "1", "--resume", "--sample", "8"]
    );
    let shard = job("shard.sbatch", &["/o", "--sample", "8"], Some("16"));
    assert!(shard.windows(2).any(|w| w == ["--threads", "16"]), "{shard:?}");
    let merge = job("merge.sbatch", &["4", "/o", "--sample", "8"], None);
    assert_eq!(
        merge,
        ["learn", "nonogram", "--out-dir", "/o", "--shards", "4", "--merge", "--resume", "--sample", "8"]
    );
    let merge = job("merge.sbatch", &["4", "/o"], Some("2"));
    assert!(merge.windows(2).any(|w| w == ["--threads", "2"]), "{merge:?}");
    // no array expansions left to be unbound when empty under bash < 4.4
    for script in ["submit.sh", "shard.sbatch", "merge.sbatch", "test.sh"] {
        let text = std::fs::read_to_string(scripts().join(script)).unwrap();
        assert!(!text.contains("[@]") && !text.contains("=("), "{script} uses an array");
    }
}
