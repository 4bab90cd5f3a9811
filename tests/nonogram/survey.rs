//! The complete solver on the ten easy puzzles of Wolter's survey
//! (bundled in `specs/survey/`): each has exactly one solution, as
//! nonogrid 0.7.3 and the survey's published solvers answer, and
//! `analyze` measures its difficulty whole within the time limit.
//! Knotty and Faase take seconds to minutes of a release build: they are
//! measured by `bench --boards` (docs/design/survey.md), not here.

use crate::cli::{run, stderr};

const EASY: [&str; 10] = [
    "webpbn-00001-dancer",
    "webpbn-00006-cat",
    "webpbn-00016-knot",
    "webpbn-00021-skid",
    "webpbn-00023-edge",
    "webpbn-00027-bucks",
    "webpbn-00065-mum",
    "webpbn-00436-petro",
    "webpbn-01611-merka",
    "webpbn-00529-swing",
];

#[test]
fn the_easy_survey_puzzles_have_one_solution_each_and_a_whole_difficulty() {
    let files: Vec<String> = EASY.iter().map(|n| format!("specs/survey/{n}.non")).collect();
    let mut args = vec!["analyze", "--json", "--timeout", "25"];
    args.extend(files.iter().map(String::as_str));
    let out = run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let answers: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let answers = answers.as_array().unwrap();
    assert_eq!(answers.len(), EASY.len());
    for (answer, file) in answers.iter().zip(&files) {
        assert_eq!(answer["file"], file.as_str());
        assert_eq!(answer["solutions"], 1, "{answer}");
        assert!(answer["stopped"].is_null(), "{answer}");
        assert!(answer["difficulty_stopped"].is_null(), "{answer}");
        assert!(
            answer["difficulty"].as_f64().is_some_and(|d| d >= 0.0) && answer["steps"].as_u64().is_some_and(|s| s > 0),
            "{answer}"
        );
    }
}
