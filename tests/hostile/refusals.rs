//! What cannot succeed is refused up front (issue 45, rounds three and
//! four), driving the binary: `generate nonogram` refuses empty or unsound
//! rule players, ranges no puzzle meets, counts beyond the candidates and
//! a zero node budget, allocates for the work done rather than the count
//! asked, refuses colliding outputs and creates no `-o` directory for a
//! refused run; `learn --merge` with a huge shard count finds the first
//! missing shard without listing them; names with control characters are
//! written escaped into headers; the studio refuses an unsound nonogram
//! rule file; `witness generate` refuses `--top 0` and one file given
//! twice; `bench --sat-compare` does not claim agreement when no pair of
//! answers ended.

use crate::cli::{fails, fresh_dir, run, stderr, write};
use std::time::Instant;

/// `generate nonogram --size 5x5` with `extra`.
fn generate(extra: &[&str]) -> std::process::Output {
    run(&[&["generate", "nonogram", "--size", "5x5", "--count", "1"][..], extra].concat())
}

#[test]
fn generate_refuses_ranges_no_puzzle_meets() {
    for bits in ["NaN", "inf", "0..inf", "-1..2", "1..NaN"] {
        let started = Instant::now();
        fails(&generate(&[&format!("--bits={bits}")]), 2, "with finite ends of at least 0");
        assert!(started.elapsed().as_secs() < 10, "--bits {bits} was not refused up front");
    }
    fails(&generate(&["--bits", "2..1"]), 2, "this one is empty");
    fails(&generate(&["--steps=-1..3"]), 2, "--steps -1..3: expected a range");
    fails(&generate(&["--steps", "9..3"]), 2, "this one is empty");
}

#[test]
fn generate_refuses_players_that_cannot_play() {
    let dir = fresh_dir("round3-players");
    let empty = write(&dir, "empty.rules", "# nothing\n");
    let started = Instant::now();
    fails(&generate(&["--player", &format!("rules:{empty}")]), 2, "the file holds no rules");
    // fills the whole line whatever it is: unsound on a line of 2 cells
    let unsound = write(
        &dir,
        "unsound.rules",
        "def fills_all:\n    with h = arbitrary(hint):\n    if true:\n    then fill(true, 0, size(h))\n",
    );
    fails(&generate(&["--player", &format!("rules:{unsound}")]), 2, "rule `fills_all` is unsound (on the line ");
    assert!(started.elapsed().as_secs() < 20, "the players were not refused up front");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn generate_counts_are_validated_up_front() {
    for count in ["18446744073709551615", "1000000000", "1000001", "0"] {
        let started = Instant::now();
        fails(
            &run(&["generate", "nonogram", "--size", "5x5", "--count", count]),
            2,
            &format!("--count {count}: expected 1 to --max-candidates 1000000"),
        );
        assert!(started.elapsed().as_secs() < 10);
    }
    fails(
        &run(&["generate", "nonogram", "--size", "5x5", "--max-nodes", "0"]),
        2,
        "--max-nodes 0: the complete solver",
    );
}

#[test]
fn generate_outputs_cannot_collide_and_refused_runs_create_nothing() {
    let dir = fresh_dir("round3-outputs");
    let out = dir.join("out");
    let o = out.display().to_string();
    fails(&generate(&["-o", &o, "--html", &format!("{o}/random-1.non")]), 2, "a puzzle file of -o ");
    fails(&generate(&["-o", &o, "--html", &format!("{o}/../out/random-1.non")]), 2, "a puzzle file of -o ");
    assert!(!out.exists(), "-o was created by a refused run");
    fails(&generate(&["-o", &o, "--bits", "NaN"]), 2, "--bits NaN");
    assert!(!out.exists(), "-o was created by a refused run");
    // a page beside the puzzles under another name is fine
    let fine = generate(&["-o", &o, "--html", &format!("{o}/page.html")]);
    assert!(fine.status.success(), "{}", stderr(&fine));
    assert!(out.join("random-1.non").is_file() && out.join("page.html").is_file());
    let picture = crate::cli::repo("specs/puzzles/hakank-bear.non");
    fails(
        &run(&["generate", "nonogram", "--from", &picture, "-o", &o, "--html", &format!("{o}/repair-2.non")]),
        2,
        "a puzzle file of -o ",
    );
    fails(
        &run(&["generate", "nonogram", "--from", &picture, "--max-changes", "0"]),
        2,
        "--max-changes must be at least 1",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn control_characters_are_escaped_in_written_headers() {
    let dir = fresh_dir("round3-headers");
    let specs = write(&dir, "a\ndef b.lines", "8 | .......... | ..######..\n");
    let out = dir.join("s.rules").display().to_string();
    let made = run(&["synth", "--specs", &specs, "--bound", "12", "-o", &out]);
    assert!(made.status.success(), "{}", stderr(&made));
    let text = std::fs::read_to_string(&out).unwrap();
    let (header, _) = text.split_once("\n\n").unwrap();
    for line in header.lines() {
        assert!(line.starts_with('#'), "a header line is not a comment: {line:?}");
    }
    assert!(header.contains("a\\ndef b.lines"), "{header}");
    // the file reads back: its rules, and no `def` the name smuggled in
    let checked = run(&["check", &out]);
    assert!(checked.status.success(), "{}", stderr(&checked));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A newline in a file name stays inside the header's comment lines of
/// `select` and `mine nonogram` (round three: `select` wrote it as a `def`
/// line).
#[test]
fn file_names_with_newlines_stay_in_header_comments() {
    let dir = fresh_dir("round4-header-names");
    let lines = dir.join("t\ndef evil:");
    std::fs::copy(format!("{}/specs/nonogram/traces.lines", crate::cli::ROOT), &lines).unwrap();
    let (lines, out) = (lines.display().to_string(), dir.join("s\nx.rules").display().to_string());
    let select = run(&["select", "--rules", "rules/nonogram/control.rules", "--lines", &lines, "-k", "2", "-o", &out]);
    assert!(select.status.success(), "{}", stderr(&select));
    let mined = dir.join("m\ndef evil:.lines").display().to_string();
    let mine = run(&["mine", "nonogram", "--max-len", "3", "-o", &mined]);
    assert!(mine.status.success(), "{}", stderr(&mine));
    // select: the header runs to the first blank line; mine: three lines
    for (file, lines) in [(out, None), (mined, Some(3))] {
        let text = std::fs::read_to_string(&file).unwrap();
        let header: Vec<&str> = text.lines().take_while(|l| !l.is_empty()).take(lines.unwrap_or(usize::MAX)).collect();
        assert!(header.len() >= 2 && header.iter().all(|l| l.starts_with('#')), "{file:?}: {text:.400}");
        assert!(header[0].contains("\\n"), "the newline is written escaped: {:?}", header[0]);
        assert!(!text.lines().any(|l| l.starts_with("def evil")), "{text:.400}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_merge_of_a_huge_shard_count_is_refused_at_once() {
    let dir = fresh_dir("round3-shards");
    let started = Instant::now();
    let out = dir.display().to_string();
    fails(
        &run(&["learn", "nonogram", "--shards", "4294967295", "--merge", "--out-dir", &out]),
        2,
        "missing: shard 0 of 4294967295 has not run",
    );
    assert!(started.elapsed().as_secs() < 20);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn studio_refuses_an_unsound_nonogram_rule_file() {
    let dir = fresh_dir("unsound-studio");
    // fills the whole line whatever it is: unsound on a line of 2 cells
    let unsound = "def fills_all:\n    with h = arbitrary(hint):\n    if true:\n    then fill(true, 0, size(h))\n";
    let file = write(&dir, "unsound.rules", unsound);
    fails(&run(&["studio", "--port", "0", "--rules", &file]), 2, "rule `fills_all` is unsound: on the line ");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn witness_generate_refuses_top_0_and_one_file_twice() {
    let dir = fresh_dir("generate-twice");
    let base = write(&dir, "b.ron", "[\n    (width: 2, height: 2, start: (0, 0), goal: (2, 2)),\n]\n");
    let out = dir.join("x.ron").display().to_string();
    let args = ["witness", "generate", "--base", &base, "--at", "0,0"];
    fails(&run(&[&args[..], &["--top", "0", "-o", &out]].concat()), 2, "--top");
    let dotted = format!("{}/./x.ron", dir.display());
    for html in [out.as_str(), dotted.as_str()] {
        fails(&run(&[&args[..], &["-o", &out, "--html", html]].concat()), 2, "the same file twice");
        assert!(!std::path::Path::new(&out).exists(), "nothing written");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sat_compare_says_nothing_agrees_when_no_pair_ended() {
    let output = run(&["bench", "--boards", "specs/puzzles/hakank-p200.non", "--sat-compare", "--timeout", "0.001"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(!stdout.contains("answers agree"), "{stdout}");
    assert!(stdout.contains("answers not compared: no puzzle had two pairs that ended"), "{stdout}");
}
