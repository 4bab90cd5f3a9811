//! Errors that name the right file and thing, consistent limits and
//! options, honest counts and benchmarks (issue 14, items 8, 9, 10, 12),
//! driving the binary.

use crate::cli::{fails, repo, run, run_in, stderr, write};

#[test]
fn a_benchmark_of_rules_that_lose_solutions_says_so_and_fails() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = dir.path().join("p.ron").display().to_string();
    let gen =
        run(&["witness", "gen", "--alg", "3", "--sizes", "2x2..3x3", "--count", "20", "--seed", "1", "-o", &puzzles]);
    assert!(gen.status.success(), "{}", stderr(&gen));
    let unsound = write(
        dir.path(),
        "u.rules",
        "def used_any:\n    with s = arbitrary(square):\n    if used(s) > 0:\n    then prune\n",
    );
    let out = run(&["witness", "bench", "--puzzles", &puzzles, "--rules", &unsound]);
    fails(&out, 1, "error: the rules LOST SOLUTIONS");
    assert!(String::from_utf8_lossy(&out.stdout).contains("LOST SOLUTIONS"));
    let json = run(&["witness", "bench", "--puzzles", &puzzles, "--rules", &unsound, "--json"]);
    assert_eq!(json.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(v["lost_solutions"].as_u64().unwrap() > 0, "{v}");
    assert_eq!(v["solved_baseline"].as_u64(), Some(20));

    // sound rules: no warning, status 0
    let sound = run(&["witness", "bench", "--puzzles", &puzzles, "--rules", &repo("rules/witness/handwritten.rules")]);
    assert!(sound.status.success(), "{}", stderr(&sound));
    assert!(!stderr(&sound).contains("LOST"));
}

#[test]
fn test_sets_must_have_maximal_targets_and_say_where() {
    let dir = tempfile::tempdir().unwrap();
    // 3 in 5 cells forces the middle cell; the TARGET leaves it unknown
    let lines = write(dir.path(), "t.lines", "# a test set\n3 | ..... | .....\n");
    let control = repo("rules/nonogram/control.rules");
    let out = dir.path().join("o.rules").display().to_string();
    for args in [
        vec!["cover", "--rules", &control, "--lines", &lines],
        vec!["select", "--rules", &control, "--lines", &lines, "-k", "1", "-o", &out],
        vec!["compare", "--learned", &control, "--control", &control, "--lines", &lines],
    ] {
        fails(
            &run(&args),
            2,
            "t.lines:2:15: TARGET cell 2 is '.' but START forces '#' there; a test set needs the maximal TARGET",
        );
    }
}

#[test]
fn errors_name_the_file_at_fault() {
    let dir = tempfile::tempdir().unwrap();
    let contradictory = write(dir.path(), "bad.non", "width 2\nheight 2\nrows\n2\n0\ncolumns\n2\n2\n");
    fails(&run(&["solve", &contradictory]), 2, "bad.non: the clues have no solution (");

    let unsound = write(
        dir.path(),
        "bad.rules",
        "def bad:\n    with h = arbitrary(hint):\n    if true:\n    then fill(true, 0, 1)\n",
    );
    let out = run(&["solve", &repo("specs/puzzles/nonny-heart.non"), "--rules", &unsound]);
    fails(&out, 2, "bad.rules: the rules are unsound on ");
    assert!(!stderr(&out).contains("no solution extends"), "{}", stderr(&out));

    let not_utf8 = write(dir.path(), "x.rules", b"def a:\n    w\xffith h = arbitrary(hint):\n");
    fails(&run(&["print", &not_utf8]), 2, "x.rules:2:6: expected UTF-8 text, found byte 0xff");
    let not_utf8 = write(dir.path(), "x.lines", b"3 | ..... | ..#..\n3 | ..\xfe.. | ..#..\n");
    fails(
        &run(&["cover", "--rules", &repo("rules/nonogram/control.rules"), "--lines", &not_utf8]),
        2,
        "x.lines:2:7: expected UTF-8 text",
    );

    let witness = repo("rules/witness/handwritten.rules");
    fails(
        &run(&["cover", "--rules", &witness, "--lines", &repo("specs/nonogram/traces.lines")]),
        2,
        "handwritten.rules:7:24: unknown element type 'square' (known: hint, block, gap) (these are witness rules; this command takes nonogram rules)",
    );

    let meta = write(dir.path(), "m.rules", "# header\n\n# meta: (spec: 3, cost: 1)\ndef r:\n    with h = arbitrary(hint):\n    if true:\n    then fill(true, 0, 0)\n");
    let out = dir.path().join("merged.rules").display().to_string();
    fails(&run(&["merge", &meta, "-o", &out]), 2, "m.rules:3:16: rule `r`: unreadable `# meta:` comment: ");

    let misspelled = write(dir.path(), "p.non", "width 1\nheight 1\nrowz\n1\ncolumns\n1\n");
    fails(
        &run(&["solve", &misspelled]),
        2,
        "p.non:3:1: unknown key `rowz` followed by clue lines; expected `rows` or `columns`",
    );
}

#[test]
fn an_empty_rule_file_is_an_empty_set_in_any_domain() {
    let dir = tempfile::tempdir().unwrap();
    let empty = write(dir.path(), "empty.rules", "# nothing yet\n");
    let puzzles =
        write(dir.path(), "p.ron", "[(width: 2, height: 1, start: (0, 0), goal: (2, 1), triangles: [(0, 0, 1)])]\n");
    let out = run(&["witness", "bench", "--puzzles", &puzzles, "--rules", &empty]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("(0 rules + local constraint checking)"));
}

#[test]
fn limits_and_options_are_consistent() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.ron").display().to_string();
    // one size limit, one wording, from options and from files alike
    let limit = "the tool handles Witness grids from 1x1 up to 8x8";
    for sizes in ["9x9", "11x1", "0x3", "2x2..99999999999999999999x2"] {
        fails(&run(&["witness", "gen", "--alg", "3", "--sizes", sizes, "--count", "1", "-o", &out]), 2, limit);
        fails(&run(&["learn", "witness", "--sizes", sizes, "-o", &out]), 2, limit);
    }
    for (width, height) in [(9, 2), (11, 1), (0, 3)] {
        let text = format!("[(width: {width}, height: {height}, start: (0, 0), goal: ({width}, {height}))]\n");
        let big = write(dir.path(), "big.ron", &text);
        fails(&run(&["witness", "solve", "--puzzles", &big, "--solutions-out", &out]), 2, limit);
        fails(
            &run(&["witness", "analyze", &big]),
            2,
            &format!("big.ron:1:2: puzzle #0: grid size {width}x{height} is not supported: {limit}"),
        );
    }
    let control = repo("rules/nonogram/control.rules");
    fails(&run(&["verify", &control, "--timeout-ms", "0"]), 2, "--timeout-ms");
    fails(&run(&["synth", "--spec", "8 | .......... | ..######..", "--rlimit", "0"]), 2, "--rlimit");
    fails(&run(&["learn", "witness", "-k", "0", "-o", &out]), 2, "-k and --max-specs must be at least 1");
    fails(&run(&["solve", &repo("specs/puzzles/nonny-heart.non"), "--one-sided"]), 2, "--rules");
    let puzzles =
        write(dir.path(), "q.ron", "[(width: 2, height: 1, start: (0, 0), goal: (2, 1), triangles: [(0, 0, 1)])]\n");
    let handwritten = repo("rules/witness/handwritten.rules");
    fails(
        &run(&["witness", "bench", "--puzzles", &puzzles, "--rules", &handwritten, "--budget-ms", "5"]),
        2,
        "--large",
    );
    let large = run(&["witness", "bench", "--puzzles", &puzzles, "--rules", &handwritten, "--large", &puzzles]);
    assert!(large.status.success(), "{}", stderr(&large));
    assert!(String::from_utf8_lossy(&large.stdout).contains("large puzzles, 2000 ms per puzzle and search"));

    let help = String::from_utf8_lossy(&run(&["mine", "nonogram", "--help"]).stdout).into_owned();
    let seed = help.lines().skip_while(|l| !l.contains("--seed")).take(2).collect::<String>();
    assert!(seed.contains("with `--sample`") && !seed.contains("[default"), "{seed}");

    let empty = write(dir.path(), "empty.rules", "");
    let slow = run(&["check", &empty, "--max-n", "20"]);
    fails(&slow, 2, "empty.rules: no rules in this file; nothing to check");
    assert!(stderr(&slow).starts_with("warning: check visits every valid line of up to 20 cells"), "{}", stderr(&slow));
}

#[test]
fn trace_counts_the_puzzles_it_traced() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.lines").display().to_string();
    let small = repo("specs/puzzles/nonny-heart.non");
    let large = repo("specs/puzzles/mikix-gnonograms-copyleft.non");
    let run = run(&["trace", &small, &large, "--seed", "1", "-o", &out]);
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(stderr(&run).contains(" transitions from 1 puzzles (1 skipped) to "), "{}", stderr(&run));
}

#[test]
fn bench_finds_its_bundled_files_outside_the_checkout() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_in(dir.path(), &["bench", "--count", "1000"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("cover: 13 rules on 6833 transitions"));
    fails(
        &run_in(dir.path(), &["bench", "--rules", "rules/none.rules"]),
        2,
        "rules/none.rules: not found in the working directory nor in ",
    );
}

#[test]
fn an_edited_journal_rule_is_proven_again_before_it_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let specs = write(dir.path(), "s.lines", "8 | .......... | ..######..\n");
    let out = dir.path().join("o.rules");
    let journal = dir.path().join("o.rules.journal");
    let shown = out.display().to_string();
    let first = run(&["synth", "--specs", &specs, "-o", &shown]);
    assert!(first.status.success(), "{}", stderr(&first));
    let proven = std::fs::read_to_string(&out).unwrap();
    let original = std::fs::read_to_string(&journal).unwrap();
    let action = "then fill(true, latest_start(h), size(h) + earliest_start(h))";
    assert!(original.contains(action), "{original}");

    // an unsound edit: the resumed run refuses the journal and writes nothing
    std::fs::write(&journal, original.replace(action, "then fill(true, 0, line_size)")).unwrap();
    let resumed = run(&["synth", "--specs", &specs, "-o", &shown, "--resume"]);
    fails(&resumed, 2, "o.rules.journal:2:1: rule `spec1_1` was changed after Z3 proved it (its check does not match) and is not proven sound up to 30 now (unsound)");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), proven);

    // a sound edit is proven again and kept
    let condition = "if earliest_start(h) >= latest_start(h) - size(h)";
    std::fs::write(&journal, original.replace(condition, "if earliest_start(h) > latest_start(h) - size(h)")).unwrap();
    let resumed = run(&["synth", "--specs", &specs, "-o", &shown, "--resume"]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(std::fs::read_to_string(&out).unwrap().contains("if earliest_start(h) > latest_start(h) - size(h)"));
}
