//! The pipeline commands end to end: `mine` writes the documented header
//! and the specifications the library mines (and the bundled
//! `specs/nonogram/mined7.lines` is reproducible); `select` picks a
//! deterministic order and writes a rule file that parses back; `compare`
//! finds every control rule in the control set; bad input exits with 2 and
//! names the file, line and column.

use crate::cli::temp_path as temp;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use stratsynth::domains::nonogram::formats::lines::{parse_lines, read_lines_file};
use stratsynth::domains::nonogram::synthesis::domain::Nonogram;
use stratsynth::domains::nonogram::synthesis::mine::{mine, Sample};
use stratsynth::domains::Domain;
use stratsynth::dsl::parse::parse_rules;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn repo(path: &str) -> PathBuf {
    Path::new(ROOT).join(path)
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_stratsynth")).current_dir(ROOT).args(args).output().unwrap()
}

fn stdout(out: &Output) -> String {
    assert!(out.status.success(), "failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[test]
fn mine_writes_the_specifications_with_counts() {
    let path = temp("mined4.lines");
    let shown = path.display().to_string();
    stdout(&run(&["mine", "nonogram", "--max-len", "4", "-o", &shown]));
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let (report, specs) = mine(4, None);
    let header: Vec<&str> = text.lines().take(3).collect();
    assert_eq!(header[0], format!("# stratsynth mine nonogram --max-len 4 -o {shown}"));
    assert_eq!(
        header[1],
        format!(
            "# {} valid line states of 1-4 cells; {} mirror pairs (one state kept from each); {} productive, all used; \
             {} specifications (one per run of newly forced cells)",
            report.states, report.mirror_pairs, report.productive, report.specs
        )
    );
    assert_eq!(header[2], "# HINTS | START | TARGET");
    assert_eq!(parse_lines(&text, &shown, 30).unwrap(), specs);

    let out = run(&["mine", "nonogram", "--max-len", "6", "--sample", "30", "--seed", "3", "-o", &shown]);
    stdout(&out);
    let sampled = read_lines_file(&path, 30).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(sampled, mine(6, Some(Sample { count: 30, seed: 3 })).1);
}

#[test]
fn the_bundled_mined_specifications_are_reproducible() {
    let bundled = read_lines_file(&repo("specs/nonogram/mined7.lines"), 30).unwrap();
    let (report, specs) = mine(7, None);
    assert_eq!(bundled, specs);
    let text = std::fs::read_to_string(repo("specs/nonogram/mined7.lines")).unwrap();
    assert!(text.starts_with("# stratsynth mine nonogram --max-len 7 -o specs/nonogram/mined7.lines\n"));
    assert!(text.contains(&format!("; {} productive, all used; {} specifications", report.productive, report.specs)));
}

/// `select` of `k` control rules on the bundled traces, written to `out`,
/// with `extra` options after `-k`.
fn select_args<'a>(k: &'a str, out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["select", "--rules", "rules/nonogram/control.rules", "--lines", "specs/nonogram/traces.lines"];
    args.extend(["-k", k]);
    args.extend(extra);
    args.extend(["-o", out]);
    args
}

#[test]
fn select_picks_a_deterministic_order_and_writes_rules_that_parse_back() {
    let path = temp("selected.rules");
    let shown = path.display().to_string();
    let args = select_args("3", &shown, &[]);
    let printed = stdout(&run(&args));
    let text = std::fs::read_to_string(&path).unwrap();
    // the same again
    assert_eq!(stdout(&run(&args)), printed);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    std::fs::remove_file(&path).unwrap();

    let names: Vec<&str> = printed.lines().skip(2).map(|l| l.split_whitespace().nth(1).unwrap()).collect();
    assert_eq!(names, ["mercury", "simple_boxes", "small_gap_edge"]);
    assert!(printed.lines().next().unwrap().ends_with("16307 of 24486 cells (66.6%)"), "{printed}");
    // rank, name, cost, gain, cumulative, %
    let first: Vec<&str> = printed.lines().nth(2).unwrap().split_whitespace().collect();
    assert_eq!(first, ["1", "mercury", "16", "8415", "8415", "34.4%"]);

    assert!(text.starts_with(&format!("# stratsynth select --rules rules/nonogram/control.rules --lines specs/nonogram/traces.lines -k 3 -o {shown}\n")));
    let domain = Nonogram::new();
    let selected = parse_rules(&text, &shown, domain.schema()).unwrap();
    let control_text = std::fs::read_to_string(repo("rules/nonogram/control.rules")).unwrap();
    let control = parse_rules(&control_text, "control", domain.schema()).unwrap();
    let by_name = |n: &str| control.iter().find(|r| r.name == n).unwrap().clone();
    // the same rules with their descriptions, in selection order
    assert_eq!(selected, names.iter().map(|n| by_name(n)).collect::<Vec<_>>());
}

#[test]
fn select_under_a_mean_cost_keeps_every_rank_within_it() {
    let path = temp("selected-cheap.rules");
    let shown = path.display().to_string();
    let printed = stdout(&run(&select_args("4", &shown, &["--max-mean-cost", "13"])));
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(printed
        .lines()
        .next()
        .unwrap()
        .contains("per unit of rule cost, their mean cost at most 13 at every rank"));
    assert!(text.lines().next().unwrap().ends_with(&format!("-o {shown} --max-mean-cost 13")), "{text}");
    // rank, name, cost, gain, cumulative, %: every first few within the mean
    let rows: Vec<Vec<&str>> = printed
        .lines()
        .skip(2)
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .take_while(|r| r.len() == 6)
        .collect();
    assert!(rows.len() >= 2, "{printed}");
    let mut total = 0;
    for (n, row) in rows.iter().enumerate() {
        total += row[2].parse::<u32>().unwrap();
        assert!(total <= 13 * (n as u32 + 1), "{printed}");
    }
    // mercury (cost 16) adds the most but cannot come first
    assert_ne!(rows[0][1], "mercury", "{printed}");
}

#[test]
fn compare_finds_the_control_rules_in_themselves() {
    let args = [
        "compare",
        "--learned",
        "rules/nonogram/control.rules",
        "--control",
        "rules/nonogram/control.rules",
        "--lines",
        "specs/nonogram/traces.lines",
    ];
    let printed = stdout(&run(&args));
    let rows: Vec<&str> = printed.lines().filter(|l| l.contains(" exact ")).collect();
    assert_eq!(rows.len(), 13, "{printed}");
    assert!(printed.ends_with("recovered 13 of 13 control rules (13 exactly, 0 by a rule covering the same cells, 0 by a more general rule)\n"), "{printed}");
}

#[test]
fn bad_input_names_file_line_and_column_and_exits_with_2() {
    let bad = temp("bad.rules");
    std::fs::write(&bad, "def r:\n    with h = arbitrary(hint):\n    if size(h) >> 2:\n    then fill(true, 0, 1)\n")
        .unwrap();
    let shown = bad.display().to_string();
    let unused = temp("unused.rules").display().to_string();
    let out = run(&["select", "--rules", &shown, "--lines", "specs/nonogram/traces.lines", "-k", "2", "-o", &unused]);
    std::fs::remove_file(&bad).unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains(&format!("{shown}:3:17:")), "{err}");

    let lines = temp("bad.lines");
    std::fs::write(&lines, "# HINTS | START | TARGET\n3 | ..q.. | ..#..\n").unwrap();
    let shown = lines.display().to_string();
    let out = run(&[
        "compare",
        "--learned",
        "rules/nonogram/control.rules",
        "--control",
        "rules/nonogram/control.rules",
        "--lines",
        &shown,
    ]);
    std::fs::remove_file(&lines).unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains(&format!("{shown}:2:7: expected '.', '#' or 'x' in START")));

    let out = run(&[
        "select",
        "--rules",
        "rules/nonogram/control.rules",
        "--lines",
        "specs/nonogram/traces.lines",
        "-k",
        "0",
        "-o",
        &unused,
    ]);
    assert_eq!(out.status.code(), Some(2));
}
