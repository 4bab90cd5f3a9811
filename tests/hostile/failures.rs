//! Hostile input and failure, driving the binary (issue 14): a closed or
//! full standard output, rules built to exhaust the stack or the memory,
//! outputs that would replace an input or cannot be written, a write that
//! fails half-way, and printing its own output. Each case must end with a
//! clear message and a non-zero status (or a quiet exit for a closed pipe),
//! never a panic, and must leave every file as it was.

use crate::cli::{repo, run, run_in, stderr, write, BIN};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Asserts a clean failure: status 2, the message on standard error, no panic.
fn fails_with(out: &Output, message: &str) {
    crate::cli::fails(out, 2, message);
}

fn control() -> String {
    repo("rules/nonogram/control.rules")
}

fn traces() -> String {
    repo("specs/nonogram/traces.lines")
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[test]
fn a_full_stdout_is_an_error_and_a_closed_one_a_quiet_exit() {
    let full = Command::new(BIN)
        .args(["print", &control()])
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    fails_with(&full, "error: writing to standard output: No space left on device");

    for args in [vec!["print", &control()], vec!["cover", "--rules", &control(), "--lines", &traces(), "--top", "10"]] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(BIN).args(&args).stdout(writer).stderr(Stdio::piped()).output().unwrap();
        assert_eq!(out.status.code(), Some(141), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), "", "{args:?}");
    }

    // a closed standard error loses the messages, not the work
    let dir = tempfile::tempdir().unwrap();
    let traced = dir.path().join("t.lines");
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(BIN)
        .args([
            "trace",
            &repo("specs/puzzles/nonny-heart.non"),
            &repo("specs/puzzles/mikix-gnonograms-copyleft.non"),
            "-o",
        ])
        .arg(&traced)
        .stderr(writer)
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", out.status);
    assert!(std::fs::read_to_string(&traced).unwrap().lines().count() > 1);
}

#[test]
fn a_long_flat_sum_is_refused_where_it_gets_too_deep() {
    let dir = tempfile::tempdir().unwrap();
    let terms = vec!["1"; 20_000].join(" + ");
    let rule = format!(
        "def long_sum:\n    with h = arbitrary(hint):\n    if size(h) + {terms} > 0:\n    then fill(true, 0, 1)\n"
    );
    let path = write(dir.path(), "sum.rules", &rule);
    // a sum of 65 terms is 64 levels deep: the 65th `+` is the first refused
    let column = "    if size(h) ".len() + 1 + 4 * 64;
    for args in [vec!["print", &path], vec!["verify", &path], vec!["check", &path, "--max-n", "4"]] {
        fails_with(&run(&args), &format!("sum.rules:3:{column}: expression nested too deeply (more than 64 levels"));
    }
    let short = format!(
        "def short_sum:\n    with h = arbitrary(hint):\n    if size(h) + {} > 0:\n    then fill(true, 0, 0)\n",
        vec!["1"; 40].join(" + ")
    );
    let out = run(&["verify", &write(dir.path(), "short.rules", &short), "--bound", "5"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn declarations_are_capped_and_many_bindings_cost_no_memory() {
    let dir = tempfile::tempdir().unwrap();
    let decls: Vec<String> = (0..12).map(|i| format!("h{i} = arbitrary(hint)")).collect();
    let twelve = format!("def many:\n    with {}:\n    if true:\n    then fill(true, 0, 0)\n", decls.join(" and "));
    let path = write(dir.path(), "many.rules", &twelve);
    // the fifth declaration is refused, at its variable
    let column = "    with ".len() + 4 * "h0 = arbitrary(hint) and ".len() + 1;
    fails_with(
        &run(&["check", &path, "--max-n", "8"]),
        &format!("many.rules:2:{column}: too many pattern declarations (at most 4"),
    );

    // four declarations on a line of 15 hints: 50625 bindings, one distinct fill
    let four = "def four:\n    with a = arbitrary(hint) and b = arbitrary(hint) and c = arbitrary(gap) and d = arbitrary(block):\n    if start(a) < line_size:\n    then fill(true, 0, 0)\n";
    let rules = write(dir.path(), "four.rules", four);
    let lines = write(
        dir.path(),
        "l15.lines",
        "1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 | ............................. | #x#x#x#x#x#x#x#x#x#x#x#x#x#x#\n",
    );
    let out = run(&["cover", "--rules", &rules, "--lines", &lines]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("1 transitions, 1 rules: covered 0 of 29 cells"));
}

#[test]
fn printing_its_own_output_gives_the_same_text() {
    let dir = tempfile::tempdir().unwrap();
    let once = run(&["print", &control()]);
    assert!(once.status.success());
    let path = dir.path().join("printed.rules");
    std::fs::write(&path, &once.stdout).unwrap();
    let twice = run(&["print", &path.display().to_string()]);
    assert!(twice.status.success());
    assert_eq!(String::from_utf8_lossy(&twice.stdout), String::from_utf8_lossy(&once.stdout));
}

#[test]
fn an_output_that_is_an_input_is_refused_and_the_input_kept() {
    let dir = tempfile::tempdir().unwrap();
    let rules = write(dir.path(), "r.rules", std::fs::read_to_string(control()).unwrap());
    let specs = write(dir.path(), "s.lines", "8 | .......... | ..######..\n");
    let puzzles =
        write(dir.path(), "p.ron", "[(width: 2, height: 1, start: (0, 0), goal: (2, 1), triangles: [(0, 0, 1)])]\n");
    let same_rules = dir.path().join(".").join("r.rules").display().to_string();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["select", "--rules", &rules, "--lines", &specs, "-k", "1", "-o", &same_rules], "r.rules"),
        (vec!["synth", "--specs", &specs, "-o", &specs], "s.lines"),
        (vec!["witness", "solve", "--puzzles", &puzzles, "--solutions-out", &puzzles], "p.ron"),
        (vec!["merge", &rules, "-o", &rules], "r.rules"),
        (vec!["trace", &puzzles, "-o", &puzzles], "p.ron"),
    ];
    let before: Vec<String> =
        ["r.rules", "s.lines", "p.ron"].iter().map(|f| std::fs::read_to_string(dir.path().join(f)).unwrap()).collect();
    for (args, file) in cases {
        let out = run(&args);
        fails_with(&out, "the output is also an input");
        assert!(stderr(&out).contains(file), "{args:?}: {}", stderr(&out));
    }
    let after: Vec<String> =
        ["r.rules", "s.lines", "p.ron"].iter().map(|f| std::fs::read_to_string(dir.path().join(f)).unwrap()).collect();
    assert_eq!(before, after);
    assert_eq!(names_in(dir.path()), ["p.ron", "r.rules", "s.lines"], "nothing else written (no journal)");
}

#[test]
fn outputs_are_checked_before_the_work() {
    let dir = tempfile::tempdir().unwrap();
    let specs = write(dir.path(), "s.lines", "8 | .......... | ..######..\n");
    let here = dir.path().display().to_string();
    let missing = dir.path().join("no/such/dir/out.rules").display().to_string();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["learn", "witness", "-o", &here], "the output is a directory"),
        (vec!["synth", "--specs", &specs, "-o", &here], "the output is a directory"),
        (vec!["learn", "witness", "-o", &missing], "no such directory"),
        (vec!["mine", "nonogram", "-o", &missing], "no such directory"),
        (
            vec!["witness", "gen", "--alg", "3", "--sizes", "2x2..2x2", "--count", "1", "-o", &missing],
            "no such directory",
        ),
    ];
    for (args, message) in cases {
        let started = std::time::Instant::now();
        let out = run(&args);
        fails_with(&out, message);
        // refused up front: nothing was mined, synthesised or generated
        assert!(started.elapsed().as_secs() < 5, "{args:?} took {:?}", started.elapsed());
    }
    // run outside the checkout, the default output's directory does not exist
    let out = run_in(dir.path(), &["learn", "witness"]);
    fails_with(
        &out,
        "rules/witness/learned.rules: cannot write the output in directory rules/witness: no such directory",
    );
}

/// Runs `args` with file writes limited to 1 KiB, so that writing a larger
/// output fails part-way as on a full disk (SIGXFSZ ignored: `write`
/// returns an error instead of killing the process).
fn run_with_small_disk(dir: &Path, args: &[&str]) -> Output {
    let script = "trap '' XFSZ; ulimit -f 2; exec \"$0\" \"$@\"";
    Command::new("sh").current_dir(dir).arg("-c").arg(script).arg(BIN).args(args).output().unwrap()
}

#[test]
fn a_failed_write_keeps_the_previous_file() {
    let dir = tempfile::tempdir().unwrap();
    let out_path: PathBuf = dir.path().join("mined.lines");
    std::fs::write(&out_path, "# the previous, good file\n").unwrap();
    let out = run_with_small_disk(dir.path(), &["mine", "nonogram", "--max-len", "6", "-o", "mined.lines"]);
    fails_with(&out, "mined.lines: writing failed");
    assert_eq!(std::fs::read_to_string(&out_path).unwrap(), "# the previous, good file\n");
    assert_eq!(names_in(dir.path()), ["mined.lines"], "no temporary file left behind");
    // the same command with room writes the whole file
    let ok = run_in(dir.path(), &["mine", "nonogram", "--max-len", "6", "-o", "mined.lines"]);
    assert!(ok.status.success(), "{}", stderr(&ok));
    assert!(std::fs::read_to_string(&out_path).unwrap().lines().count() > 100);
}
