//! Outputs that are not regular files (issue 30, item 1), driving the
//! binary: a FIFO, a character device and links to them are refused before
//! any work and left as they were; a link to a regular file is written
//! through (the link kept); `-o -` is refused, not taken as a file name.

use crate::cli::{fails, repo, run, run_in};
use std::os::unix::fs::FileTypeExt;
use std::path::Path;
use std::process::Command;

/// `select` writing to `out`, the command of the report.
fn select_to(out: &str) -> std::process::Output {
    run(&[
        "select",
        "--rules",
        &repo("rules/nonogram/control.rules"),
        "--lines",
        &repo("specs/nonogram/traces.lines"),
        "-k",
        "2",
        "-o",
        out,
    ])
}

/// Makes a node with the system's `mknod`/`mkfifo` (`args` after the path);
/// false if this user may not (a device needs root).
fn make_node(tool: &str, path: &Path, args: &[&str]) -> bool {
    Command::new(tool).arg(path).args(args).status().is_ok_and(|s| s.success())
}

#[test]
fn special_files_and_links_to_them_are_refused_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    assert!(make_node("mkfifo", &fifo, &[]));
    let mut cases = vec![(fifo.clone(), "is a FIFO, not a regular file")];
    let device = dir.path().join("null");
    // the same device numbers as the system's /dev/null, made here
    if make_node("mknod", &device, &["c", "1", "3"]) {
        cases.push((device.clone(), "is a character device, not a regular file"));
    } else {
        crate::cli::skipped("not root: the character-device case");
    }
    for (node, _) in cases.clone() {
        let link = dir.path().join(format!("{}-link", node.file_name().unwrap().to_string_lossy()));
        std::os::unix::fs::symlink(&node, &link).unwrap();
        cases.push((link, "not a regular file"));
    }
    let dangling = dir.path().join("dangling");
    std::os::unix::fs::symlink(dir.path().join("nothing"), &dangling).unwrap();
    cases.push((dangling, "is a symbolic link to nothing"));
    for (path, message) in &cases {
        let started = std::time::Instant::now();
        fails(&select_to(&path.display().to_string()), 2, message);
        assert!(started.elapsed().as_secs() < 5, "{path:?} refused before the work");
    }
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    if device.exists() {
        assert!(std::fs::symlink_metadata(&device).unwrap().file_type().is_char_device());
    }
    assert!(!dir.path().join("nothing").exists());
}

#[test]
fn a_link_to_a_regular_file_is_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.rules");
    std::fs::write(&real, "# old\n").unwrap();
    let link = dir.path().join("link.rules");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let out = select_to(&link.display().to_string());
    assert!(out.status.success(), "{}", crate::cli::stderr(&out));
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link is kept");
    assert!(std::fs::read_to_string(&real).unwrap().contains("def "), "the file it names is replaced");
    let mut names: Vec<String> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, ["link.rules", "real.rules"], "no temporary file left");
}

#[test]
fn dash_is_refused_and_no_file_named_dash_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let lines = repo("specs/nonogram/traces.lines");
    let rules = repo("rules/nonogram/control.rules");
    let cases: Vec<Vec<&str>> = vec![
        vec!["select", "--rules", &rules, "--lines", &lines, "-k", "2", "-o", "-"],
        vec!["mine", "nonogram", "--max-len", "4", "-o", "-"],
        vec!["merge", &rules, "-o", "-"],
        vec!["witness", "gen", "--alg", "3", "--sizes", "2x2..2x2", "--count", "1", "-o", "-"],
    ];
    for args in cases {
        fails(&run_in(dir.path(), &args), 2, "-: standard output is not an output file here");
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // a file named '-' stays possible, written as ./-
    let out = run_in(dir.path(), &["mine", "nonogram", "--max-len", "4", "-o", "./-"]);
    assert!(out.status.success(), "{}", crate::cli::stderr(&out));
    assert!(dir.path().join("-").is_file());
}
