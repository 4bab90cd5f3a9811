//! Fuzzing every reader (issue 14), with proptest: random bytes, and text
//! shaped like real files (a bundled file with random edits: its tokens
//! inserted, spans deleted or repeated many times, lines shuffled). Each
//! input must be read or refused within 5 s without a panic, a refusal must
//! say `file:line:column: what was expected`, and what is read must write
//! back to text that reads the same (rules, `.lines`, puzzles).
//!
//! In the suite each target tries `FUZZ_CASES` inputs (default 64 per
//! strategy); the long run is `FUZZ_CASES=20000 cargo test --release --test
//! hostile fuzz::` (docs/reference/hostile-input.md).

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::time::{Duration, Instant};
use stratsynth::domains::nonogram::formats::lines::{format_transition, parse_lines};
use stratsynth::domains::nonogram::formats::non::parse_non;
use stratsynth::domains::nonogram::formats::webpbn::{parse_webpbn, write_webpbn};
use stratsynth::domains::witness::formats::puzzle::{parse_puzzles, puzzles_to_ron};
use stratsynth::domains::witness::synthesis::specs::parse_specs;
use stratsynth::dsl::eval::Interpreter;
use stratsynth::dsl::parse::{detect_and_parse, parse_rules};
use stratsynth::dsl::print::print_rules;
use stratsynth::dsl::schema::Schema;
use stratsynth::files::read_text;
use stratsynth::synth::meta::Meta;

const RULES: &str = include_str!("../../rules/nonogram/control.rules");
const WITNESS_RULES: &str = include_str!("../../rules/witness/handwritten.rules");
const NON: &str = include_str!("../../specs/puzzles/nonny-heart.non");
const LINES: &str = "# HINTS | START | TARGET\n2 6 2 1 3 | .................... | .....####........#..\n3 | ..#.. | ..#..\n | ..x.. | xxxxx\n1 1 | #.... | #x...\n";
const PUZZLES: &str = "// puzzles\n[\n    (width: 2, height: 1, start: (0, 0), goal: (2, 1), triangles: [(0, 0, 1), (1, 0, 2)]),\n    (width: 3, height: 3, start: (0, 0), goal: (3, 3), triangles: [(1, 1, 3)]),\n]\n";
const META: &str = "# meta: (spec: \"8 | .......... | ..######..\", cost: 12, bound: 30, patterns_tried: 8, candidates: 76, rejected_by_table: 16, z3_calls: 7, time_ms: 1954)\ndef spec1_1:\n    with h = arbitrary(hint):\n    if lowest_end_cell(h) >= highest_start_cell(h):\n    then fill(true, highest_start_cell(h), lowest_end_cell(h))\n";
const SPECS: &str = "[\n    (puzzle: (width: 4, height: 3, start: (0, 0), goal: (1, 3), triangles: [(2, 0, 3)]), path: [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]),\n]\n";

/// Longest any one input may take.
const LIMIT: Duration = Duration::from_secs(5);

fn cases() -> u32 {
    std::env::var("FUZZ_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(64)
}

/// Pieces edits insert: the formats' own tokens and some hostile ones.
const TOKENS: &[&str] = &[
    "def",
    "with",
    "and",
    "if",
    "then",
    "not",
    "(",
    ")",
    ":",
    ",",
    "=",
    "!=",
    ">=",
    "<",
    "+",
    "-",
    "*",
    "#",
    "\n",
    " ",
    "arbitrary(hint)",
    "singleton(block)",
    "constant(gap, 3)",
    "size(h)",
    "start(b)",
    "line_size",
    "maximal(h)",
    "h is unique where (",
    "fill(true, 0, 1)",
    "prune",
    "99999999999999999999",
    "-1",
    "0",
    "7",
    "|",
    ".",
    "x",
    "rows",
    "columns",
    "width",
    "height",
    "goal \"01\"",
    "title",
    "[",
    "]",
    "(width: 9, height: 9,",
    "triangles: [(0, 0, 3)]",
    "path: [(0, 0)]",
    "//",
    "/*",
    "\"",
    "é",
    "\u{0}",
    "\t",
    "\r\n",
];

/// One edit of a text.
#[derive(Clone, Debug)]
enum Edit {
    Insert(usize, usize),
    Delete(usize, usize),
    Repeat(usize, usize, usize),
    Bytes(usize, Vec<u8>),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), 0..TOKENS.len()).prop_map(|(at, t)| Edit::Insert(at, t)),
        (any::<usize>(), 1usize..40).prop_map(|(at, n)| Edit::Delete(at, n)),
        (any::<usize>(), 1usize..30, prop_oneof![1usize..5, 100usize..3000])
            .prop_map(|(at, n, k)| Edit::Repeat(at, n, k)),
        (any::<usize>(), proptest::collection::vec(any::<u8>(), 1..8)).prop_map(|(at, b)| Edit::Bytes(at, b)),
    ]
}

/// Applies edits to `seed` (positions modulo its length, on byte level).
fn apply(seed: &str, edits: &[Edit]) -> Vec<u8> {
    let mut text = seed.as_bytes().to_vec();
    for e in edits {
        let at = |i: usize, text: &Vec<u8>| if text.is_empty() { 0 } else { i % (text.len() + 1) };
        match e {
            Edit::Insert(i, t) => {
                let p = at(*i, &text);
                text.splice(p..p, TOKENS[*t].bytes());
            }
            Edit::Delete(i, n) => {
                let p = at(*i, &text);
                let end = (p + n).min(text.len());
                text.drain(p..end);
            }
            Edit::Repeat(i, n, k) => {
                let p = at(*i, &text);
                let end = (p + n).min(text.len());
                let span = text[p..end].to_vec();
                let copies: Vec<u8> = span.iter().copied().cycle().take(span.len() * k).collect();
                text.splice(end..end, copies);
            }
            Edit::Bytes(i, b) => {
                let p = at(*i, &text);
                text.splice(p..p, b.iter().copied());
            }
        }
    }
    text
}

/// Inputs for a reader whose valid example is `seed`: random bytes, or
/// the seed with 1-8 random edits.
fn inputs(seed: String) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..400),
        proptest::collection::vec(edit(), 1..8).prop_map(move |edits| apply(&seed, &edits)),
    ]
}

/// Whether `message` starts `path:LINE:COLUMN: ` with a non-empty rest.
fn located(message: &str, path: &str) -> bool {
    let Some(rest) = message.strip_prefix(path).and_then(|r| r.strip_prefix(':')) else { return false };
    let mut parts = rest.splitn(3, ':');
    let number = |s: Option<&str>| s.is_some_and(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()));
    number(parts.next()) && number(parts.next()) && parts.next().is_some_and(|m| m.len() > 1 && m.starts_with(' '))
}

/// Runs `check` on every input for `seed` (through a file, so that reading
/// bytes that are not UTF-8 is tried too); reports the count tried.
fn fuzz(name: &str, seed: &str, check: impl Fn(&str, &str) -> Result<(), String>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    let shown = path.display().to_string();
    let tried = std::cell::Cell::new(0u64);
    let mut runner = TestRunner::new(Config { cases: cases(), failure_persistence: None, ..Config::default() });
    runner
        .run(&inputs(seed.to_string()), |bytes| {
            tried.set(tried.get() + 1);
            std::fs::write(&path, &bytes).unwrap();
            let started = Instant::now();
            let outcome = match read_text(&path) {
                Ok(text) => check(&text, &shown),
                Err(e) => Err(e.to_string()),
            };
            prop_assert!(started.elapsed() < LIMIT, "took {:?}", started.elapsed());
            if let Err(message) = outcome {
                prop_assert!(located(&message, &shown), "not located: {message}");
            }
            Ok(())
        })
        .unwrap();
    eprintln!("fuzz {name}: {} inputs, no panic, each under {LIMIT:?}", tried.get());
}

/// Evaluates nonogram rules that were read on the lines of [`LINES`]
/// (exercises the interpreter on whatever the parser accepts).
fn evaluate(rules: &[stratsynth::dsl::ast::Rule], schema: &Schema) {
    use stratsynth::domains::nonogram::line::state::LineState;
    use stratsynth::domains::nonogram::synthesis::domain::Nonogram;
    use stratsynth::domains::Domain;
    if schema.domain() != "nonogram" {
        return;
    }
    let domain = Nonogram::new();
    for t in parse_lines(LINES, "x", 30).unwrap() {
        let view = domain.view(&LineState::new(t.start).expect("valid line"));
        for rule in rules {
            Interpreter::new(rule, &view, schema.size_feature).applications();
        }
    }
}

#[test]
fn rules_files() {
    let schemas = [Schema::nonogram(), Schema::witness()];
    for (name, seed) in [("n.rules", RULES), ("w.rules", WITNESS_RULES)] {
        fuzz(name, seed, |text, path| {
            let (i, rules) = detect_and_parse(text, path, &schemas).map_err(|e| e.to_string())?;
            let printed = print_rules(&rules, &schemas[i]);
            let again = detect_and_parse(&printed, "printed", &schemas)
                .map_err(|e| format!("printed rules do not read back: {e}"));
            assert_eq!(again.map(|(_, r)| r), Ok(rules.clone()), "round trip of {text:?}");
            evaluate(&rules, &schemas[i]);
            Ok(())
        });
    }
}

#[test]
fn non_files() {
    fuzz("p.non", NON, |text, path| parse_non(text, path).map(drop).map_err(|e| e.to_string()));
}

#[test]
fn lines_files() {
    fuzz("t.lines", LINES, |text, path| {
        let read = parse_lines(text, path, 30).map_err(|e| e.to_string())?;
        let printed: String = read.iter().map(|t| format_transition(t) + "\n").collect();
        assert_eq!(parse_lines(&printed, "printed", 30).ok(), Some(read), "round trip of {text:?}");
        Ok(())
    });
}

#[test]
fn witness_puzzle_files() {
    fuzz("p.ron", PUZZLES, |text, path| {
        let read = parse_puzzles(text, path).map_err(|e| e.to_string())?;
        assert_eq!(parse_puzzles(&puzzles_to_ron(&read), "printed").ok(), Some(read), "round trip of {text:?}");
        Ok(())
    });
}

#[test]
fn webpbn_files() {
    let heart = parse_non(NON, "heart.non").unwrap();
    fuzz("p.xml", &write_webpbn(&heart), |text, path| {
        let read = parse_webpbn(text, path).map_err(|e| e.to_string())?;
        assert_eq!(parse_webpbn(&write_webpbn(&read), "printed").ok(), Some(read), "round trip of {text:?}");
        Ok(())
    });
}

#[test]
fn meta_comments() {
    let schema = Schema::nonogram();
    fuzz("m.rules", META, |text, path| {
        for rule in parse_rules(text, path, &schema).map_err(|e| e.to_string())? {
            if let Some(Err(e)) = Meta::of(&rule) {
                return Err(e
                    .locate(text, path)
                    .map_or_else(|| format!("{path}: {e} (not located)"), |l| l.to_string()));
            }
        }
        Ok(())
    });
}

/// Specifications of the journal target: round 1 holds the first.
const JOURNAL_SPECS: &str = "8 | .......... | ..######..\n3 | ..... | ..#..\n";

#[test]
fn journals() {
    use stratsynth::domains::nonogram::synthesis::domain::Nonogram;
    use stratsynth::domains::nonogram::synthesis::spec::{show, specs};
    use stratsynth::pipeline::batch::Job;
    use stratsynth::pipeline::journal::{Journal, RunKey};
    use stratsynth::synth::Config;
    let domain = Nonogram::new();
    let mut config = Config::new(&Schema::nonogram());
    // a small bound keeps proving an edited rule again fast
    config.bound = 8;
    let key = RunKey {
        version: "fuzz".into(),
        config,
        specs: 2,
        shard: None,
        skip: String::new(),
        progressive: false,
        merged_shards: None,
        window: 0,
    };
    let jobs: Vec<Job<_>> = parse_lines(JOURNAL_SPECS, "j", 30)
        .unwrap()
        .iter()
        .flat_map(|t| specs(t).unwrap())
        .enumerate()
        .map(|(index, spec)| Job { index, text: show(&spec), spec })
        .collect();
    let rule = "def spec1_1:\n    with h = arbitrary(hint):\n    if lowest_end_cell(h) >= highest_start_cell(h):\n    then fill(true, highest_start_cell(h), lowest_end_cell(h))\n";
    let seed = format!(
        "Run({})\nDone((index:0,spec:{:?},rules:[(text:{rule:?},cost:12,bound:8,check:\"\")],stats:(patterns_tried:8,candidates:112,rejected_by_table:22,cached:3,z3_calls:4,z3_soundness:4,z3_unsound:0,z3_unknown:0,z3_time_us:1074293,rejected_at_full_bound:0,dominated:1),time_us:7142686,counterexamples:[\"1 | ...\",\"3 | .#.\"]))\nRound(1)\n",
        ron::to_string(&key).unwrap(),
        jobs[0].text
    );
    // the seed itself resumes (its rule proven again: its check is empty)
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("seed.journal");
    std::fs::write(&whole, &seed).unwrap();
    assert_eq!(Journal::resume(&whole, &key, &domain, &jobs).unwrap().entries.len(), 1);
    fuzz("o.rules.journal", &seed, |_, path| {
        // resuming truncates the journal after its last whole round: read a copy
        let copy = format!("{path}.copy");
        std::fs::copy(path, &copy).unwrap();
        let resumed = Journal::resume(std::path::Path::new(&copy), &key, &domain, &jobs);
        std::fs::remove_file(&copy).unwrap();
        resumed.map(drop).map_err(|e| e.to_string().replace(&copy, path))
    });
}

#[test]
fn witness_spec_files() {
    fuzz("s.ron", SPECS, |text, path| parse_specs(text, path).map(drop).map_err(|e| e.to_string()));
}
