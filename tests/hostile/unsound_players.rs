//! Hostile input, round three (issue 45, item 5), driving the binary:
//! figures from an unsound Witness player are not presented as figures. A
//! rule file that prunes a path some solution begins with is refused
//! before it plays or prunes (`witness analyze`, `witness generate
//! --rules` and `--teach`, `witness solve`, `mine witness`), with the
//! rule, the state and what the brute-force check covered; a rule the
//! check cannot see (it needs more triangle squares than a 6x6 puzzle
//! has) is caught while playing: its figures are `unsound` in text and
//! JSON, the command says so and exits 1.

use crate::cli::{fails, fresh_dir, repo, run, stderr, write};

/// Prunes every path that used an edge of a triangle square: unsound.
const USED_ANY: &str = "def used_any:\n    with s = arbitrary(square):\n    if used(s) > 0:\n    then prune\n";

/// Prunes everything on a puzzle with at least 41 triangle squares: unsound
/// there, and silent on every puzzle up to 6x6.
const FAR: &str = "def far:\n    with s = constant(square, 40):\n    if used(s) >= 0:\n    then prune\n";

/// A 7x6 puzzle with one path (a serpentine; every other edge broken) and
/// triangles on all 42 squares.
fn serpentine() -> String {
    let (w, h) = (7usize, 6usize);
    let mut used = vec![vec![0u8; w]; h];
    let mut route_verticals = vec![];
    for y in 0..=h {
        // every horizontal edge is on the route: the squares above and below use it
        for row in [y.checked_sub(1), (y < h).then_some(y)].into_iter().flatten() {
            used[row].iter_mut().for_each(|u| *u += 1);
        }
        if y < h {
            let x = if y % 2 == 0 { w } else { 0 };
            route_verticals.push((x, y));
            used[y][x.min(w - 1)] += 1;
        }
    }
    let mut broken = vec![];
    for y in 0..h {
        for x in 0..=w {
            if !route_verticals.contains(&(x, y)) {
                broken.push(format!("(({x}, {y}), ({x}, {}))", y + 1));
            }
        }
    }
    let triangles: Vec<String> =
        (0..h).flat_map(|r| (0..w).map(move |c| (c, r))).map(|(c, r)| format!("({c}, {r}, {})", used[r][c])).collect();
    let goal = if h % 2 == 0 { w } else { 0 };
    format!(
        "[(width: {w}, height: {h}, start: (0, 0), goal: ({goal}, {h}), triangles: [{}], broken: [{}])]\n",
        triangles.join(", "),
        broken.join(", ")
    )
}

#[test]
fn unsound_witness_rules_are_refused_before_they_play_or_prune() {
    let dir = fresh_dir("players-refused");
    let puzzles =
        write(&dir, "p.ron", "[(width: 2, height: 2, start: (0, 0), goal: (2, 2), triangles: [(0, 0, 2)])]\n");
    let unsound = write(&dir, "u.rules", USED_ANY);
    let out = dir.join("o.ron").display().to_string();
    let said = "u.rules: rule `used_any` is unsound: it prunes (width: ";
    fails(&run(&["witness", "analyze", &puzzles, "--rules", &unsound]), 2, said);
    fails(&run(&["witness", "analyze", &puzzles, "--rules", &unsound, "--json"]), 2, said);
    fails(&run(&["witness", "generate", "--base", &puzzles, "--at", "1,1", "--rules", &unsound, "-o", &out]), 2, said);
    fails(&run(&["witness", "generate", "--teach", &unsound, "--size", "3x3", "--count", "5"]), 2, said);
    let solutions = dir.join("s.txt").display().to_string();
    fails(
        &run(&["witness", "solve", "--puzzles", &puzzles, "--rules", &unsound, "--solutions-out", &solutions]),
        2,
        said,
    );
    fails(&run(&["mine", "witness", "--sizes", "2x2", "--count", "2", "--rules", &unsound, "-o", &out]), 2, said);
    let message = stderr(&run(&["witness", "analyze", &puzzles, "--rules", &unsound]));
    assert!(message.contains("a path some solution begins with (brute force on every partial path"), "{message}");
    assert!(!std::path::Path::new(&out).exists() && !std::path::Path::new(&solutions).exists());
    // sound rules play
    let sound = run(&["witness", "analyze", &puzzles, "--rules", &repo("rules/witness/handwritten.rules")]);
    assert!(sound.status.success(), "{}", stderr(&sound));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_player_that_loses_solutions_while_playing_is_marked_unsound() {
    let dir = fresh_dir("players-marked");
    let puzzles = write(&dir, "serpentine.ron", serpentine());
    let far = write(&dir, "far.rules", FAR);
    let text = run(&["witness", "analyze", &puzzles, "--rules", &far]);
    fails(&text, 1, "player ");
    assert!(stderr(&text).contains("far.rules is UNSOUND: it reaches 0 of the 1 solutions"), "{}", stderr(&text));
    let table = String::from_utf8_lossy(&text.stdout).to_string();
    let row = table.lines().find(|l| l.trim_start().starts_with(&far)).unwrap_or_else(|| panic!("{table}"));
    assert_eq!(row.split_whitespace().skip(1).collect::<Vec<_>>(), ["unsound", "unsound"], "{table}");
    assert!(table.contains("puzzle #0: 7x6, 1 solutions"), "{table}");
    let json = run(&["witness", "analyze", &puzzles, "--rules", &far, "--json"]);
    assert_eq!(json.status.code(), Some(1), "{}", stderr(&json));
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let players = v[0]["players"].as_array().unwrap();
    assert_eq!(players[2]["msi"], "unsound");
    assert_eq!(players[2]["tsi"], "unsound");
    assert!(players[1]["tsi"].is_number(), "{v}");
    std::fs::remove_dir_all(&dir).unwrap();
}
