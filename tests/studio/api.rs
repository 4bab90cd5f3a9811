//! `stratsynth studio` over HTTP on loopback: its API answers equal the
//! CLI's `--json` on bundled puzzles (nonogram analyze, explain, repair;
//! Witness analyze, generate, on triangle puzzles and on puzzles with
//! every kind of constraint); a `.ron` read and written back is the same
//! text; the solutions listed are solutions, all of them; malformed
//! requests get a 4xx with a message
//! and the server still answers afterwards; a request past its budget is
//! answered `unknown` while others are served meanwhile.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use stratsynth::domains::witness::formats::puzzle::parse_puzzles;
use stratsynth::domains::witness::Path as WitnessPath;

const BIN: &str = env!("CARGO_BIN_EXE_stratsynth");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The studio on a free port, stopped when dropped.
pub(crate) struct Studio {
    child: Child,
    url: String,
}

impl Studio {
    pub(crate) fn start() -> Studio {
        Studio::start_with(&[])
    }

    /// The studio with `extra` options too (run in the source tree).
    pub(crate) fn start_with(extra: &[&str]) -> Studio {
        let mut child = Command::new(BIN)
            .args(["studio", "--port", "0"])
            .args(extra)
            .current_dir(ROOT)
            .stdout(Stdio::piped())
            .spawn()
            .expect("the studio starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let start = line.find("http://").expect("the studio prints its URL");
        let url = line[start..].split_whitespace().next().unwrap().trim_end_matches('/').to_string();
        Studio { child, url }
    }

    /// POSTs `body`; the status and the JSON answer.
    pub(crate) fn post(&self, path: &str, body: &[u8]) -> (u16, Value) {
        let kind = if path.ends_with("/open") { "application/octet-stream" } else { "application/json" };
        let request = ureq::post(&format!("{}{path}", self.url)).set("Content-Type", kind);
        let result = request.timeout(Duration::from_secs(60)).send_bytes(body);
        let response = match result {
            Ok(r) => r,
            Err(ureq::Error::Status(_, r)) => r,
            Err(e) => panic!("{path}: {e}"),
        };
        let status = response.status();
        (status, response.into_json().expect("a JSON answer"))
    }

    pub(crate) fn post_json(&self, path: &str, body: &Value) -> Value {
        let (status, answer) = self.post(path, body.to_string().as_bytes());
        assert_eq!(status, 200, "{path} {body}: {answer}");
        answer
    }

    fn address(&self) -> String {
        self.url.trim_start_matches("http://").to_string()
    }
}

impl Drop for Studio {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The CLI's JSON output for `args`, run in the source tree.
pub(crate) fn cli_json(args: &[&str]) -> Value {
    let out = Command::new(BIN).args(args).current_dir(ROOT).output().unwrap();
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stderr)))
}

/// A bundled `.non` as a studio picture request.
pub(crate) fn picture_request(file: &str) -> Value {
    let text = std::fs::read_to_string(Path::new(ROOT).join(file)).unwrap();
    let value = |key: &str| {
        text.lines().find_map(|l| l.strip_prefix(key).map(|v| v.trim().trim_matches('"').to_string())).unwrap()
    };
    json!({"width": value("width ").parse::<u64>().unwrap(), "height": value("height ").parse::<u64>().unwrap(), "goal": value("goal ")})
}

/// `a` without the keys that differ by nature (the puzzle's name, times).
fn without(mut a: Value, keys: &[&str]) -> Value {
    for k in keys {
        a.as_object_mut().unwrap().remove(*k);
    }
    a
}

const PUZZLES: &[&str] = &[
    "specs/puzzles/nonny-heart.non",
    "specs/puzzles/hakank-bear.non",
    "specs/puzzles/picmi-picmi.non",
    "specs/puzzles/hakank-n2.non",
    "specs/puzzles/hakank-dragonfly.non",
    "specs/puzzles/picmi-bike.non",
    "specs/puzzles/mikix-webpbn-21-slippery-conditions.non",
    "specs/puzzles/jacop-data047.non",
    "specs/puzzles/nonny-parthenon.non",
    "specs/puzzles/hakank-lambda.non",
];

#[test]
fn nonogram_answers_equal_the_cli() {
    let studio = Studio::start();
    let mut args = vec!["analyze", "--rules", "rules/nonogram/top10.rules", "--json"];
    args.extend(PUZZLES);
    let cli = cli_json(&args);
    for (file, expected) in PUZZLES.iter().zip(cli.as_array().unwrap()) {
        let answer = studio.post_json("/api/nonogram/analyze", &picture_request(file));
        assert_eq!(answer["differ"], json!([]), "{file}: one solution, no differing cells");
        assert_eq!(
            without(answer, &["file", "search_ms", "differ", "rules_file"]),
            without(expected.clone(), &["file", "search_ms"]),
            "{file}"
        );
    }
    for file in &PUZZLES[..4] {
        let cli = cli_json(&["explain", file, "--rules", "rules/nonogram/top10.rules", "--json"]);
        let answer = studio.post_json("/api/nonogram/explain", &picture_request(file));
        assert!(cli.as_array().is_some_and(|s| !s.is_empty()), "{file}");
        assert_eq!(answer, cli, "{file}");
    }
}

/// A repair that ran out of its pictures judged says what judges more:
/// the page sets no such limit, so the studio names the command, where
/// the command names its flag.
#[test]
fn a_repair_out_of_its_judgements_names_what_searches_further() {
    let studio = Studio::start();
    let dir = tempfile::tempdir().unwrap();
    let pbm = dir.path().join("permutation.pbm");
    std::fs::write(&pbm, "P1\n4 4\n1 0 0 0\n0 1 0 0\n0 0 1 0\n0 0 0 1\n").unwrap();
    let args = ["generate", "nonogram", "--from", pbm.to_str().unwrap(), "--player", "line", "--max-evaluations", "1"];
    let cli = Command::new(BIN).args(args).current_dir(ROOT).output().unwrap();
    assert_eq!(cli.status.code(), Some(1));
    let cli = String::from_utf8_lossy(&cli.stderr);
    assert!(cli.trim_end().ends_with("; raise --max-evaluations"), "{cli}");
    let request = json!({"width": 4, "height": 4, "goal": "1000010000100001", "player": "line", "max_evaluations": 1});
    let answer = studio.post_json("/api/nonogram/repair", &request);
    assert!(answer["puzzles"].as_array().unwrap().is_empty(), "{answer}");
    assert!(
        answer["summary"]
            .as_str()
            .unwrap()
            .ends_with("; `stratsynth generate nonogram --from PICTURE --max-evaluations N` judges more"),
        "{answer}"
    );
}

#[test]
fn repairs_equal_the_cli() {
    let studio = Studio::start();
    // two diagonal cells: two solutions, repaired (the titles name the file)
    let dir = tempfile::tempdir().unwrap();
    let pbm = dir.path().join("diagonal.pbm");
    std::fs::write(&pbm, "P1\n5 5\n1 0 0 0 0\n0 1 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n").unwrap();
    let cli = cli_json(&[
        "generate",
        "nonogram",
        "--from",
        pbm.to_str().unwrap(),
        "--player",
        "rules:rules/nonogram/top10.rules",
        "--json",
    ]);
    let opened = studio.post("/api/nonogram/open", &std::fs::read(&pbm).unwrap()).1;
    assert_eq!(opened, json!({"title": null, "width": 5, "height": 5, "goal": "1000001000000000000000000"}));
    let mut request = opened.clone();
    request["max_evaluations"] = json!(200_000);
    let answer = studio.post_json("/api/nonogram/repair", &request);
    let untitled =
        |v: &Value| v["puzzles"].as_array().unwrap().iter().map(|p| without(p.clone(), &["title"])).collect::<Vec<_>>();
    assert!(cli["puzzles"]
        .as_array()
        .is_some_and(|p| !p.is_empty() && !p[0]["changed"].as_array().unwrap().is_empty()));
    assert_eq!(untitled(&answer), untitled(&cli));
    // for uniqueness alone (bits past 0, the page's "unique only"): the same
    let unique = |args: &[&str]| {
        let base = ["generate", "nonogram", "--from", pbm.to_str().unwrap()];
        let rules = ["--player", "rules:rules/nonogram/top10.rules", "--json"];
        cli_json(&base.iter().chain(args).chain(&rules).copied().collect::<Vec<_>>())
    };
    let cli = unique(&["--bits", "0..100000"]);
    assert!(cli["summary"].as_str().unwrap().contains("uniqueness alone"), "{cli}");
    request["bits"] = json!("0..100000");
    assert_eq!(untitled(&studio.post_json("/api/nonogram/repair", &request)), untitled(&cli));
    let export = studio.post_json("/api/nonogram/export", &opened);
    assert!(export["non"].as_str().unwrap().contains("goal \"1000001000000000000000000\""));
}

#[test]
fn random_puzzles_equal_the_cli() {
    let studio = Studio::start();
    for (size, seed, player) in [("8x8", 1, "line"), ("10x10", 4, "rules:rules/nonogram/top10.rules")] {
        let cli = cli_json(
            &["generate", "nonogram", "--size", size, "--count", "1", "--seed", &seed.to_string()]
                .into_iter()
                .chain(["--player", player, "--json"])
                .collect::<Vec<_>>(),
        );
        let (width, height) = size.split_once('x').unwrap();
        let request = json!({"width": width.parse::<u64>().unwrap(), "height": height.parse::<u64>().unwrap(),
            "seed": seed, "player": player.split(':').next().unwrap()});
        let answer = studio.post_json("/api/nonogram/random", &request);
        // the titles and files name the run; the puzzles, their steps, bits and rules are the CLI's
        let puzzles = |v: &Value| {
            v["puzzles"].as_array().unwrap().iter().map(|p| without(p.clone(), &["title", "file"])).collect::<Vec<_>>()
        };
        assert_eq!(puzzles(&cli).len(), 1, "{size}: {cli}");
        assert_eq!(puzzles(&answer), puzzles(&cli), "{size}");
    }
}

#[test]
fn witness_answers_equal_the_cli() {
    let studio = Studio::start();
    let dir = tempfile::tempdir().unwrap();
    let made = dir.path().join("made.ron");
    let gen = ["witness", "gen", "--alg", "4", "--sizes", "2x2..4x4", "--count", "8", "--seed", "3", "-o"];
    let status = Command::new(BIN).args(gen).arg(&made).current_dir(ROOT).output().unwrap().status;
    assert!(status.success());
    let text = std::fs::read_to_string(&made).unwrap();
    let puzzles: Vec<&str> =
        text.lines().map(str::trim).filter(|l| l.starts_with('(')).map(|l| l.trim_end_matches(',')).collect();
    assert_eq!(puzzles.len(), 8);
    let rules = "rules/witness/learned-game.rules";
    let cli = cli_json(&["witness", "analyze", made.to_str().unwrap(), "--rules", rules, "--json"]);
    for (p, expected) in puzzles.iter().zip(cli.as_array().unwrap()) {
        assert_eq!(&studio.post_json("/api/witness/analyze", &json!({"puzzle": p})), expected, "{p}");
    }
    let base = "specs/witness/epcg-base.ron";
    let out = dir.path().join("g.ron");
    let mut args = vec!["witness", "generate", "--base", base, "--at", "1,1", "2,2", "1,2", "--rules", rules];
    args.extend(["--order", "gap", "--top", "5", "--json", "-o", out.to_str().unwrap()]);
    let cli = cli_json(&args);
    let base_text = std::fs::read_to_string(Path::new(ROOT).join(base)).unwrap();
    let request =
        json!({"puzzle": base_text.lines().last().unwrap(), "at": [[1, 1], [2, 2], [1, 2]], "order": "gap", "top": 5});
    assert_eq!(studio.post_json("/api/witness/generate", &request), cli);
    // the solutions listed are the puzzle's, all of them on a small one
    let solutions = studio.post_json("/api/witness/solutions", &json!({"puzzle": puzzles[0]}));
    let count = cli_json(&["witness", "analyze", made.to_str().unwrap(), "--json"])[0]["solutions"].clone();
    assert_eq!(solutions["complete"], json!(true));
    assert_eq!(json!(solutions["paths"].as_array().unwrap().len()), count);
}

/// The puzzle lines of a `.ron` file `witness gen` wrote.
fn ron_lines(text: &str) -> Vec<&str> {
    text.lines().map(str::trim).filter(|l| l.starts_with('(')).map(|l| l.trim_end_matches(',')).collect()
}

#[test]
fn the_whole_witness_game_answers_equal_the_cli() {
    let studio = Studio::start();
    let dir = tempfile::tempdir().unwrap();
    let made = dir.path().join("full.ron");
    let gen = ["witness", "gen", "--constraints", "triangles,colours,stars,dots,broken", "--colours", "3"];
    let more = ["--sizes", "2x2..3x3", "--count", "8", "--seed", "5", "-o"];
    let status = Command::new(BIN).args(gen).args(more).arg(&made).current_dir(ROOT).output().unwrap().status;
    assert!(status.success());
    let text = std::fs::read_to_string(&made).unwrap();
    let puzzles = ron_lines(&text);
    assert_eq!(puzzles.len(), 8);
    let kinds = ["colours:", "stars:", "dots:", "edge_dots:", "broken:"];
    for kind in kinds {
        assert!(puzzles.iter().any(|p| p.contains(kind)), "no puzzle with {kind} in {text}");
    }
    // the file read and written back by the studio: the same puzzles, the same text
    let opened = studio.post("/api/witness/open", text.as_bytes());
    assert_eq!(opened.0, 200, "{}", opened.1);
    let read = opened.1["puzzles"].as_array().unwrap().clone();
    assert_eq!(read.iter().map(|p| p["ron"].as_str().unwrap()).collect::<Vec<_>>(), puzzles);
    let first = &read[0];
    for key in ["width", "height", "start", "goal", "triangles", "colours", "stars", "dots", "edge_dots", "broken"] {
        assert!(!first[key].is_null(), "{key} missing in {first}");
    }
    for p in &puzzles {
        let export = studio.post_json("/api/witness/export", &json!({"puzzle": p}));
        assert_eq!(export["ron"], json!(format!("[\n    {p},\n]\n")));
    }
    // analyze equals the CLI's; the solutions listed are solutions, all of them
    let rules = "rules/witness/learned-game.rules";
    let cli = cli_json(&["witness", "analyze", made.to_str().unwrap(), "--rules", rules, "--json"]);
    for (p, expected) in puzzles.iter().zip(cli.as_array().unwrap()) {
        assert_eq!(&studio.post_json("/api/witness/analyze", &json!({"puzzle": p})), expected, "{p}");
        let puzzle = parse_puzzles(&format!("[{p}]"), "test").unwrap().remove(0);
        let listed = studio.post_json("/api/witness/solutions", &json!({"puzzle": p, "max": 1000}));
        assert_eq!(listed["complete"], json!(true), "{p}");
        let paths = listed["paths"].as_array().unwrap();
        assert_eq!(json!(paths.len()), expected["solutions"], "{p}");
        for path in paths {
            let vertices: Vec<(usize, usize)> = serde_json::from_value(path.clone()).unwrap();
            let path = WitnessPath::from_vertices(&puzzle, &vertices).unwrap();
            assert!(path.is_solution(&puzzle), "{p}: {vertices:?}");
        }
    }
    // EPCG with square and edge placeholders, marks in the fillings
    let base =
        "(width: 3, height: 3, start: (0, 0), goal: (3, 3), triangles: [], colours: [(0, 0, 1)], dots: [(1, 1)])";
    let base_file = dir.path().join("base.ron");
    std::fs::write(&base_file, format!("[\n    {base},\n]\n")).unwrap();
    let out = dir.path().join("g.ron");
    let mut args = vec!["witness", "generate", "--base", base_file.to_str().unwrap(), "--at", "1,1", "2,2"];
    args.extend(["--edge-at", "0,1-0,2", "--marks", "--rules", rules, "--order", "gap", "--top", "6", "--json", "-o"]);
    args.push(out.to_str().unwrap());
    let cli = cli_json(&args);
    assert_eq!(cli.as_array().map(Vec::len), Some(6));
    let request = json!({"puzzle": base, "at": [[1, 1], [2, 2]], "edge_at": [[[0, 1], [0, 2]]], "marks": true, "order": "gap", "top": 6});
    assert_eq!(studio.post_json("/api/witness/generate", &request), cli);
}

/// Malformed requests of every kind: (path, body) pairs.
fn malformed() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = vec![];
    let bodies = [
        "",
        "{",
        "[]",
        "null",
        "42",
        "\"text\"",
        "{\"width\": 5}",
        "{\"width\": \"5\", \"height\": 5, \"goal\": \"0\"}",
        "{\"width\": 0, \"height\": 5, \"goal\": \"\"}",
        "{\"width\": 2, \"height\": 2, \"goal\": \"012\"}",
        "{\"width\": 2, \"height\": 2, \"goal\": \"0x10\"}",
        "{\"width\": 2, \"height\": 2, \"goal\": 1010}",
        "{\"width\": 1000, \"height\": 1000, \"goal\": \"\"}",
        "{\"width\": -1, \"height\": 2, \"goal\": \"00\"}",
        "{\"rows\": [[1]], \"columns\": [[2]]}",
        "{\"rows\": [[0]], \"columns\": [[1]]}",
        "{\"rows\": [], \"columns\": []}",
        "{\"rows\": [[1, 1]], \"columns\": [[1], [1]]}",
        "{\"rows\": \"1\", \"columns\": [[1]]}",
        "{\"rows\": [[\"a\"]], \"columns\": [[1]]}",
        "{\"rows\": [1], \"columns\": [[1]]}",
        "{\"width\": 2, \"height\": 2, \"goal\": \"1001\", \"player\": \"oracle\"}",
        "{\"width\": 2, \"height\": 2, \"goal\": \"1001\", \"count\": 0}",
        "{\"width\": 2, \"height\": 2, \"goal\": \"1001\", \"density\": 1.5}",
        "{\"width\": 2, \"height\": 2, \"goal\": \"1001\", \"bits\": \"3..1\"}",
    ];
    for route in ["analyze", "explain", "repair", "random", "export"] {
        out.extend(bodies.iter().map(|b| (format!("/api/nonogram/{route}"), b.as_bytes().to_vec())));
    }
    // the owners route: each body above that is a JSON object, as its puzzle; then bad `known`
    let objects = bodies.iter().filter(|b| b.starts_with('{') && serde_json::from_str::<Value>(b).is_ok());
    let mut owners: Vec<String> = objects.map(|b| format!("{{\"puzzle\": {b}, \"known\": \"....\"}}")).collect();
    let two = "{\"width\": 2, \"height\": 2, \"goal\": \"1001\"}";
    for known in ["", "\"...\"", "\"..?.\"", "5", "\"#x#x\", \"mode\": 1"] {
        owners.push(if known.is_empty() {
            format!("{{\"puzzle\": {two}}}")
        } else {
            format!("{{\"puzzle\": {two}, \"known\": {known}}}")
        });
    }
    owners.push("{\"known\": \"....\"}".into());
    out.extend(owners.into_iter().map(|b| ("/api/nonogram/owners".to_string(), b.into_bytes())));
    let witness = [
        "{}", "{\"puzzle\": 3}", "{\"puzzle\": \"\"}", "{\"puzzle\": \"(width: 9, height: 2, start: (0, 0), goal: (9, 2))\"}",
        "{\"puzzle\": \"(width: 2, height: 2, start: (0, 0), goal: (0, 0))\"}",
        "{\"puzzle\": \"(width: 2, height: 2, start: (0, 0), goal: (1, 1))\"}",
        "{\"puzzle\": \"(width: 2, height: 2, start: (0, 0), goal: (2, 2), triangles: [(5, 5, 1)])\"}",
        "{\"puzzle\": \"(width: 2, height: 2, start: (0, 0), goal: (2, 2), triangles: [(0, 0, 4)])\"}",
        "{\"puzzle\": \"[(width: 1, height: 1, start: (0, 0), goal: (1, 1)), (width: 1, height: 1, start: (0, 0), goal: (1, 1))]\"}",
        "{\"puzzle\": \"(width: 2, height: 2, start: (0, 0), goal: (2, 2)\", \"at\": [[0, 0]]}",
        "{\"puzzle\": \"(width: 2, height: 2, start: (0, 0), goal: (2, 2))\", \"at\": [[5, 5]]}",
        "{\"puzzle\": \"(width: 2, height: 2, start: (0, 0), goal: (2, 2))\", \"at\": []}",
        "{\"puzzle\": \"(width: 2, height: 2, start: (0, 0), goal: (2, 2))\", \"at\": [[0, 0]], \"order\": \"size\"}",
    ];
    let full = [
        "{\"puzzle\": \"(width: 2, height: 2, start: (0, 0), goal: (2, 2), colours: [(0, 0, 0)])\"}",
        "{\"puzzle\": \"(width: 2, height: 2, start: (0, 0), goal: (2, 2), stars: [(0, 0, 256)])\"}",
        "{\"puzzle\": \"(width: 2, height: 2, start: (0, 0), goal: (2, 2), triangles: [(0, 0, 1)], stars: [(0, 0, 1)])\"}",
        "{\"puzzle\": \"(width: 2, height: 2, start: (0, 0), goal: (2, 2), dots: [(3, 0)])\"}",
        "{\"puzzle\": \"(width: 2, height: 2, start: (0, 0), goal: (2, 2), broken: [((0, 0), (1, 1))])\"}",
        "{\"puzzle\": \"(width: 2, height: 2, start: (0, 0), goal: (2, 2), edge_dots: [((0, 0), (1, 0))], broken: [((1, 0), (0, 0))])\"}",
        "{\"puzzle\": \"(width: 2, height: 2, start: (0, 0), goal: (2, 2), colour: [(0, 0, 1)])\"}",
        "{\"puzzle\": \"(width: 2, height: 2, start: (0, 0), goal: (2, 2))\", \"edge_at\": [[[0, 0], [1, 1]]]}",
        "{\"puzzle\": \"(width: 2, height: 2, start: (0, 0), goal: (2, 2))\", \"edge_at\": [[0, 0]]}",
        "{\"puzzle\": \"(width: 2, height: 2, start: (0, 0), goal: (2, 2))\", \"at\": [[0, 0]], \"marks\": 1}",
    ];
    for route in ["analyze", "solutions", "generate", "export"] {
        out.extend(witness.iter().chain(&full).map(|b| (format!("/api/witness/{route}"), b.as_bytes().to_vec())));
    }
    for body in [&b"\xff\xfe"[..], b"", b"[]", b"(width: 2)", b"{\"puzzle\": 1}", full[0].as_bytes()] {
        out.push(("/api/witness/open".into(), body.to_vec()));
    }
    out.push(("/api/nonogram/open".into(), vec![0xff, 0xfe, 0x00]));
    out.push(("/api/nonogram/open".into(), b"P4\n1 1\n".to_vec()));
    out.push(("/api/nonogram/open".into(), b"\x89PNG\r\n\x1a\nbroken".to_vec()));
    out.push(("/api/nonogram/analyze?budget_ms=0".into(), b"{}".to_vec()));
    out.push(("/api/nonogram/analyze?speed=fast".into(), b"{}".to_vec()));
    out.push(("/api/nothing".into(), b"{}".to_vec()));
    out.push(("/api/rules".into(), b"[]".to_vec()));
    out.push(("/api/rules".into(), b"{\"domain\": \"Flow\"}".to_vec()));
    out.push(("/api/nonogram/analyze".into(), vec![b' '; (1 << 20) + 1]));
    out
}

#[test]
fn malformed_requests_get_4xx_and_the_server_goes_on() {
    let studio = Studio::start();
    let requests = malformed();
    assert!(requests.len() >= 100, "{} requests", requests.len());
    for (path, body) in &requests {
        let (status, answer) = studio.post(path, body);
        assert!(
            (400..500).contains(&status),
            "{path} {}: {status} {answer}",
            String::from_utf8_lossy(&body[..body.len().min(80)])
        );
        assert!(answer["error"].as_str().is_some_and(|m| !m.is_empty()), "{path}: {answer}");
    }
    // a GET on an API route, and bytes that are not HTTP at all
    let get = ureq::get(&format!("{}/api/nonogram/analyze", studio.url)).call();
    assert!(matches!(get, Err(ureq::Error::Status(405, _))));
    for junk in [
        &b"\x00\x01\x02 garbage\r\n\r\n"[..],
        b"GET / HTTP/9.9\r\n\r\n",
        b"POST /api/nonogram/analyze HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n",
    ] {
        let mut s = TcpStream::connect(studio.address()).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        s.write_all(junk).unwrap();
        let _ = s.read(&mut [0u8; 256]);
    }
    // still answering, with the right answer
    let answer = studio.post_json("/api/nonogram/analyze", &json!({"rows": [[1], [1]], "columns": [[1], [1]]}));
    assert_eq!(answer["solutions"], json!(2));
    assert_eq!(answer["differ"].as_array().unwrap().len(), 4);
    let page = ureq::get(&format!("{}/", studio.url)).call().unwrap().into_string().unwrap();
    assert!(page.contains("stratsynth studio"));
}

#[test]
fn past_its_budget_a_request_is_unknown_and_others_are_served_meanwhile() {
    let studio = Studio::start();
    let url = studio.url.clone();
    let big = json!({"puzzle": "(width: 8, height: 8, start: (0, 0), goal: (8, 8))"}).to_string();
    let slow = std::thread::spawn(move || {
        let started = Instant::now();
        let r = ureq::post(&format!("{url}/api/witness/analyze?budget_ms=1500"))
            .set("Content-Type", "application/json")
            .send_string(&big)
            .unwrap();
        (r.into_json::<Value>().unwrap(), started.elapsed())
    });
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    let quick = studio
        .post_json("/api/witness/analyze", &json!({"puzzle": "(width: 1, height: 1, start: (0, 0), goal: (1, 1))"}));
    assert_eq!(quick["solutions"], json!(2));
    let quick_time = started.elapsed();
    let (answer, slow_time) = slow.join().unwrap();
    assert_eq!(answer["solutions"], json!("unknown"), "{answer}");
    assert_eq!(answer["stopped"], json!("timeout"));
    // the players stop 20 ms before the budget's end (kept back for the
    // answer) and answer what ended: here nothing, each named
    assert!(slow_time >= Duration::from_millis(1450) && slow_time < Duration::from_secs(10), "{slow_time:?}");
    assert!(answer["players"].as_array().unwrap().iter().all(|p| p["stopped"] == "timeout"), "{answer}");
    assert_eq!(answer["budget_ms"], 1500);
    assert!(quick_time < Duration::from_millis(1300), "served while the other worked: {quick_time:?}");
}

/// A blank picture: every line without hints, crossed out by the rule
/// player (`if hint_count = 0` in the learned set), so the studio's
/// verdict is "solvable by the rules", with no guessing.
#[test]
fn a_blank_picture_is_solved_by_the_rule_player() {
    let studio = Studio::start();
    let goal = "0".repeat(15 * 15);
    let answer = studio.post_json("/api/nonogram/analyze", &json!({"width": 15, "height": 15, "goal": goal}));
    assert_eq!(answer["solutions"], json!(1), "{answer}");
    assert_eq!(answer["rules_solvable"], json!(true), "{answer}");
    assert_eq!(answer["difficulty"], json!(0.0), "{answer}");
}
