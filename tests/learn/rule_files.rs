//! Every rule file the tool writes reads back under the strict reading of
//! docs/reference/language.md and docs/reference/formats.md: the committed rule files, and what `synth`
//! (printed and `-o`), `merge`, `select`, `learn nonogram` (learned and
//! top K), `learn witness` and `print` (plain and `--english`) write, for
//! both domains. The strict reading is the parser (which refuses a reserved
//! word as a rule or variable name, with its position) and every `# meta:`
//! comment read as its RON value. The reader's refusal of reserved names is
//! checked here too.

use std::path::Path;
use std::process::Command;
use stratsynth::dsl::parse::parse_rules;
use stratsynth::dsl::schema::Schema;
use stratsynth::synth::meta::Meta;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Runs the tool in the repository and returns its standard output.
fn run(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_stratsynth")).current_dir(ROOT).args(args).output().unwrap();
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Reads `text` strictly with `schema`; returns how many rules it holds.
fn strict(text: &str, what: &str, schema: &Schema) -> usize {
    let rules = parse_rules(text, what, schema).unwrap_or_else(|e| panic!("{e}\n{text}"));
    for rule in &rules {
        if let Some(meta) = Meta::of(rule) {
            meta.unwrap_or_else(|e| panic!("{what}: {e}"));
        }
    }
    rules.len()
}

fn strict_file(path: &Path, schema: &Schema) -> usize {
    strict(&std::fs::read_to_string(path).unwrap(), &path.display().to_string(), schema)
}

#[test]
fn the_committed_rule_files_and_their_printouts_read_back() {
    let dirs =
        [("rules/nonogram", Schema::nonogram()), ("rules/witness", Schema::witness()), ("rules/flow", Schema::flow())];
    for (dir, schema) in dirs {
        for entry in std::fs::read_dir(Path::new(ROOT).join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "rules") {
                let n = strict_file(&path, &schema);
                let shown = path.to_str().unwrap();
                assert_eq!(strict(&run(&["print", shown]), shown, &schema), n, "print {shown}");
                if schema.domain() == "nonogram" {
                    assert_eq!(
                        strict(&run(&["print", "--english", shown]), shown, &schema),
                        n,
                        "print --english {shown}"
                    );
                }
            }
        }
    }
}

#[test]
fn synth_merge_and_select_write_rule_files_that_read_back() {
    let schema = Schema::nonogram();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let specs = dir.join("specs.lines");
    std::fs::write(&specs, "5 | ...... | .####.\n2 2 | ..... | ..x..\n").unwrap();
    let printed = run(&["synth", "--spec", "2 2 | ..... | ..x.."]);
    assert!(strict(&printed, "synth --spec", &schema) >= 1, "{printed}");
    let (synth, merged, selected) = (dir.join("synth.rules"), dir.join("merged.rules"), dir.join("top.rules"));
    run(&["synth", "--specs", specs.to_str().unwrap(), "-o", synth.to_str().unwrap()]);
    assert!(strict_file(&synth, &schema) >= 2);
    run(&["merge", synth.to_str().unwrap(), "-o", merged.to_str().unwrap()]);
    assert!(strict_file(&merged, &schema) >= 2);
    let args =
        ["select", "--rules", "rules/nonogram/learned.rules", "--lines", "specs/nonogram/traces.lines", "-k", "3"];
    run(&[&args[..], &["-o", selected.to_str().unwrap()]].concat());
    assert_eq!(strict_file(&selected, &schema), 3);
}

#[test]
fn learn_writes_rule_files_that_read_back() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let traces = std::fs::read_to_string(Path::new(ROOT).join("specs/nonogram/traces.lines")).unwrap();
    let tests = dir.join("tests.lines");
    std::fs::write(&tests, traces.lines().take(200).collect::<Vec<_>>().join("\n") + "\n").unwrap();
    let out = dir.to_str().unwrap();
    run(&[
        "learn",
        "nonogram",
        "--sample",
        "1",
        "--max-len",
        "3",
        "--seed",
        "1",
        "-k",
        "2",
        "--augment",
        "1",
        "--tests",
        tests.to_str().unwrap(),
        "--out-dir",
        out,
    ]);
    assert!(strict_file(&dir.join("learned.rules"), &Schema::nonogram()) >= 2);
    assert!(strict_file(&dir.join("top2.rules"), &Schema::nonogram()) >= 1);
    let witness = dir.join("witness.rules");
    let small = [
        "--sizes",
        "3x3..3x3",
        "--train",
        "2",
        "--filter",
        "10",
        "--max-specs",
        "3",
        "--rlimit",
        "30000000",
        "-k",
        "2",
    ];
    run(&[&["learn", "witness"][..], &small, &["-o", witness.to_str().unwrap()]].concat());
    assert!(strict_file(&witness, &Schema::witness()) >= 1);
}

#[test]
fn reserved_words_are_refused_as_rule_and_variable_names_with_their_position() {
    let schema = Schema::nonogram();
    let body = "\n    with h = arbitrary(hint):\n    if size(h) > 0:\n    then fill(true, 0, 1)\n";
    for (name, what) in [
        ("fill", "an action"),
        ("size", "a feature"),
        ("line_size", "a global"),
        ("hint", "an element type"),
        ("unique", "a keyword"),
    ] {
        let e = parse_rules(&format!("def {name}:{body}"), "r.rules", &schema).unwrap_err();
        assert_eq!((e.line, e.column), (1, 5), "{e}");
        assert_eq!(e.kind, format!("rule name '{name}' is a reserved word ({what})"));
    }
    let e = parse_rules(
        "def ok:\n    with size = arbitrary(hint):\n    if true:\n    then fill(true, 0, 1)\n",
        "r.rules",
        &schema,
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "r.rules:2:10: variable name 'size' is a reserved word (a feature)");
    let e = parse_rules(
        "def ok:\n    with where = arbitrary(hint):\n    if true:\n    then fill(true, 0, 1)\n",
        "r.rules",
        &schema,
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "r.rules:2:10: variable name 'where' is a reserved word (a keyword)");
    let e = parse_rules(
        "def ok:\n    with s = arbitrary(square):\n    if true:\n    then prune\n",
        "w.rules",
        &Schema::witness(),
    )
    .unwrap();
    assert_eq!(e.len(), 1);
    let e = parse_rules(
        "def prune:\n    with s = arbitrary(square):\n    if true:\n    then prune\n",
        "w.rules",
        &Schema::witness(),
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "w.rules:1:5: rule name 'prune' is a reserved word (an action)");
}
