//! `generate nonogram` end to end: random puzzles the same for any thread
//! count and re-checked from their files, a fine picture unchanged, a
//! repair (for the player, or for uniqueness alone with `--bits`), the
//! players and `--needs`, and bad input.

use crate::cli::{fails, repo, run, run_in, stderr, write};
use serde_json::Value;
use stratsynth::domains::nonogram::board::complete::{Limits, Search};
use stratsynth::domains::nonogram::board::propagate::Clues;
use stratsynth::domains::nonogram::formats::non::{read_non_file, Puzzle};

/// The `puzzles` of a `--json` run.
fn puzzles(out: &std::process::Output) -> Vec<Value> {
    assert!(out.status.success(), "{}", stderr(out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v["puzzles"].as_array().unwrap().clone()
}

/// A written puzzle has exactly one solution, its goal.
fn unique_with_goal(p: &Puzzle) {
    let out = Search::new(&Clues::from_puzzle(p), Limits::solutions(2)).run();
    assert_eq!(out.count(), Some(1));
    assert_eq!(Some(&out.solutions[0]), p.goal.as_ref());
}

#[test]
fn random_puzzles_are_deterministic_unique_and_written() {
    let dir = tempfile::tempdir().unwrap();
    let args = |threads: &'static str, out: &'static str| {
        vec![
            "generate",
            "nonogram",
            "--size",
            "10x8",
            "--count",
            "4",
            "--seed",
            "5",
            "--threads",
            threads,
            "--json",
            "-o",
            out,
        ]
    };
    let one = puzzles(&run_in(dir.path(), &args("1", "one")));
    let two = puzzles(&run_in(dir.path(), &args("2", "two")));
    assert_eq!(one.len(), 4);
    let strip = |list: &[Value]| {
        list.iter().map(|p| (p["goal"].clone(), p["origin"].clone(), p["steps"].clone())).collect::<Vec<_>>()
    };
    assert_eq!(strip(&one), strip(&two));
    for p in &one {
        assert_eq!(p["bits"], 0.0);
        let puzzle = read_non_file(&dir.path().join(p["file"].as_str().unwrap())).unwrap();
        assert_eq!((puzzle.width, puzzle.height), (10, 8));
        unique_with_goal(&puzzle);
        let text = std::fs::read_to_string(dir.path().join(p["file"].as_str().unwrap())).unwrap();
        assert!(
            text.contains("source \"stratsynth generate nonogram --size 10x8") && text.contains("seed 5"),
            "{text}"
        );
    }
    // another seed, other puzzles; a symmetric picture is symmetric
    let other = puzzles(&run_in(
        dir.path(),
        &[
            "generate",
            "nonogram",
            "--size",
            "10x8",
            "--count",
            "2",
            "--seed",
            "6",
            "--symmetry",
            "horizontal",
            "--json",
        ],
    ));
    for p in &other {
        let goal = p["goal"].as_str().unwrap().as_bytes();
        assert!(goal.chunks(10).all(|row| row.iter().eq(row.iter().rev())));
        assert!(!strip(&one).iter().any(|(g, _, _)| g == &p["goal"]));
    }
}

#[test]
fn a_fine_picture_comes_back_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_in(
        dir.path(),
        &["generate", "nonogram", "--from", &repo("specs/puzzles/hakank-bear.non"), "-o", "out", "--json"],
    );
    let list = puzzles(&out);
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["changed"].as_array().unwrap().len(), 0);
    let original = read_non_file(std::path::Path::new(&repo("specs/puzzles/hakank-bear.non"))).unwrap();
    let written = read_non_file(&dir.path().join("out/unchanged.non")).unwrap();
    assert_eq!((written.rows, written.columns, written.goal), (original.rows, original.columns, original.goal));
}

#[test]
fn a_picture_with_two_solutions_is_repaired() {
    let dir = tempfile::tempdir().unwrap();
    // two 2x2 diagonals: four solutions
    let pbm = write(dir.path(), "p.pbm", "P1\n6 4\n100000\n010000\n000010\n000001\n");
    let out =
        run_in(dir.path(), &["generate", "nonogram", "--from", &pbm, "--count", "2", "-o", "out", "--html", "r.html"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("repair-1") && text.contains("made"), "{text}");
    let repaired = read_non_file(&dir.path().join("out/repair-1.non")).unwrap();
    unique_with_goal(&repaired);
    let goal = repaired.goal.unwrap();
    let before: Vec<bool> = "100000010000000010000001".chars().map(|c| c == '1').collect();
    let changed = goal.iter().zip(&before).filter(|(a, b)| a != b).count();
    assert_eq!(changed, 2, "one cell per diagonal");
    let html = std::fs::read_to_string(dir.path().join("r.html")).unwrap();
    assert!(html.contains("id=\"puzzle-2\"") && html.contains("#e0201c"));
}

#[test]
fn a_picture_is_repaired_for_uniqueness_alone_with_guessing_allowed() {
    let dir = tempfile::tempdir().unwrap();
    // two 2x2 diagonals: four solutions
    let pbm = write(dir.path(), "p.pbm", "P1\n6 4\n100000\n010000\n000010\n000001\n");
    let args = ["generate", "nonogram", "--from", &pbm, "--bits", "0..100", "--count", "3", "-o", "out", "--json"];
    let out = run_in(dir.path(), &args);
    let made = puzzles(&out);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["summary"].as_str().unwrap().contains("repaired for uniqueness alone"), "{v}");
    assert!(!made.is_empty(), "{v}");
    for (k, p) in made.iter().enumerate() {
        assert!((0.0..=100.0).contains(&p["bits"].as_f64().unwrap()), "{p}");
        unique_with_goal(&read_non_file(&dir.path().join(format!("out/repair-{}.non", k + 1))).unwrap());
    }
    // a range with no guessing allowed is the repair for the player
    let strict = run_in(dir.path(), &["generate", "nonogram", "--from", &pbm, "--bits", "0..0", "--json"]);
    let v: Value = serde_json::from_slice(&strict.stdout).unwrap();
    assert!(!v["summary"].as_str().unwrap().contains("uniqueness alone"), "{v}");
}

/// A random 25x25 picture made as the tournament sets are (281 of 625
/// cells black, shuffled: Python's `random.Random(3)`), whose clues have
/// two solutions and many more ambiguities than they show.
const TOURNAMENT_STYLE: [&str; 25] = [
    "1001001101000000011011001\n",
    "0010011111111001010000110\n",
    "0011000001010111001010010\n",
    "0111111010001110010111110\n",
    "0000110101010101000000000\n",
    "0101000001011010111001011\n",
    "0101011111010100010100001\n",
    "1000101011000100010100001\n",
    "0111001000000000010011000\n",
    "1110111010100111111001000\n",
    "0111011010100001000011001\n",
    "0111101100110010111001000\n",
    "1101101001111101000000100\n",
    "1101000010000011001010110\n",
    "0001101110111001101011011\n",
    "0001000010111111101110100\n",
    "0111010001010011110111010\n",
    "0111011000101100001010001\n",
    "1100000001101100001110000\n",
    "1101100001101000001110010\n",
    "0001110010100000001100001\n",
    "0000110011111001000011100\n",
    "0100101001101110010100000\n",
    "0000011011101000001101111\n",
    "0011100000110101100001001\n",
];

#[test]
fn a_tournament_style_picture_is_made_unique_by_the_descent_at_any_thread_count() {
    // before the descent no repair within 60 s (the fewest-changes search
    // near ambiguous cells judged too few pictures); now about 40
    // pictures judged, one changed cell per ambiguity
    let dir = tempfile::tempdir().unwrap();
    let pbm = write(dir.path(), "t.pbm", format!("P1\n25 25\n{}", TOURNAMENT_STYLE.concat()));
    let made = |threads: &str, out: &str| {
        let args = [
            "generate",
            "nonogram",
            "--from",
            &pbm,
            "--bits",
            "0..100000",
            "--count",
            "2",
            "--timeout",
            "20",
            "--threads",
            threads,
            "-o",
            out,
            "--json",
        ];
        puzzles(&run_in(dir.path(), &args))
    };
    let one = made("1", "one");
    assert!(!one.is_empty());
    for (k, p) in one.iter().enumerate() {
        let changed = p["changed"].as_array().unwrap().len();
        assert!((1..=32).contains(&changed), "{p}");
        unique_with_goal(&read_non_file(&dir.path().join(format!("one/repair-{}.non", k + 1))).unwrap());
    }
    let repairs = |made: &[Value]| made.iter().map(|p| (p["goal"].clone(), p["changed"].clone())).collect::<Vec<_>>();
    assert_eq!(repairs(&made("2", "two")), repairs(&one), "the same repairs at any thread count");
}

#[test]
fn the_probe_and_rule_players_and_needs() {
    let probe = puzzles(&run(&[
        "generate", "nonogram", "--size", "8x8", "--count", "2", "--seed", "1", "--player", "probe", "--json",
    ]));
    assert_eq!(probe.len(), 2);
    let rules = "rules:rules/nonogram/control.rules";
    let taught = puzzles(&run(&[
        "generate", "nonogram", "--size", "6x6", "--count", "2", "--seed", "1", "--player", rules, "--needs",
        "mercury", "--order", "--json",
    ]));
    assert_eq!(taught.len(), 2);
    for p in &taught {
        assert!(p["rules"]["mercury"].as_u64().unwrap() > 0, "{p}");
    }
    assert!(taught[0]["steps"].as_u64() <= taught[1]["steps"].as_u64(), "--order: easiest first");
    fails(
        &run(&["generate", "nonogram", "--size", "6x6", "--needs", "mercury"]),
        2,
        "--needs RULE needs --player rules:FILE",
    );
    fails(
        &run(&["generate", "nonogram", "--size", "6x6", "--player", rules, "--needs", "nothing"]),
        2,
        "--needs nothing: no rule of that name",
    );
}

#[test]
fn bad_input_and_budgets() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let gen = |args: &[&str]| run_in(d, &[&["generate", "nonogram"], args].concat());
    let pbm = write(d, "bad.pbm", "P1\n2 2\n1 0\n1 2\n");
    fails(&gen(&["--from", &pbm]), 2, "bad.pbm:4:3: expected a pixel `0` (white) or `1` (black), found '2'");
    let short = write(d, "short.pbm", "P1\n3 2\n1 0 1\n");
    fails(&gen(&["--from", &short]), 2, "short.pbm:4:1: expected 6 pixels (width x height), found 3");
    let png = write(d, "p.png", b"\x89PNG\r\n\x1a\nnot really");
    fails(&gen(&["--from", &png]), 2, "p.png:1:1: expected a PNG image");
    fails(&gen(&["--from", "missing.pbm"]), 2, "missing.pbm");
    let ambiguous = write(d, "a.pbm", "P1\n2 2\n1 0\n0 1\n");
    fails(
        &gen(&["--from", &ambiguous, "--max-evaluations", "0"]),
        1,
        "no repair within the budget: --max-evaluations 0 pictures judged",
    );
    fails(&gen(&["--size", "0x5"]), 2, "--size 0x5: expected WxH");
    fails(&gen(&["--size", "5x5", "--steps", "9..3"]), 2, "--steps 9..3: expected a range");
    fails(&gen(&["--size", "5x5", "--player", "magic"]), 2, "--player magic: expected line, probe or rules:FILE");
    // an output that cannot be written: refused before any work
    write(d, "file", "x");
    fails(&gen(&["--size", "5x5", "-o", "file"]), 2, "-o takes a directory");
}
