//! `hard` from the command line: a seeded run with a fixed number of
//! guessed deals replays exactly; the two budgets cannot both be given.

use support::game::spades;

/// Two seeded games between `hard` and `normal`, recorded to `file`.
fn seeded_run(dir: &tempfile::TempDir, file: &str) -> String {
    spades(dir)
        .args([
            "sim",
            "--seats",
            "hard,normal,hard,normal",
            "--games",
            "2",
            "--seed",
            "5",
            "--iterations",
            "40",
            "--target",
            "150",
            "--threads",
            "2",
            "--record",
            file,
        ])
        .assert()
        .success();
    std::fs::read_to_string(dir.path().join(file)).unwrap()
}

#[test]
fn a_seeded_run_with_fixed_iterations_replays_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let first = seeded_run(&dir, "a.jsonl");
    let second = seeded_run(&dir, "b.jsonl");
    assert!(first.contains("\"event\":\"end\""), "{first}");
    assert_eq!(first, second, "the same seed and budget, the same games");
    for verdict in spades::verify::verify(&first).expect("records that read") {
        assert!(verdict.is_verified(), "{verdict:?}");
    }
}

#[test]
fn think_ms_and_iterations_cannot_both_be_given() {
    let dir = tempfile::tempdir().unwrap();
    let out = spades(&dir)
        .args(["sim", "--think-ms", "10", "--iterations", "10"])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(err.contains("--think-ms"), "{err}");
}

#[test]
fn a_seat_may_give_hard_its_own_budget() {
    let dir = tempfile::tempdir().unwrap();
    let out = spades(&dir)
        .args([
            "sim",
            "--seats",
            "hard@60,hard,hard@60,hard",
            "--iterations",
            "15",
            "--games",
            "1",
            "--duplicate",
            "--seed",
            "3",
            "--target",
            "100",
            "--json",
        ])
        .assert()
        .success();
    let report: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let bots: Vec<&str> = report["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["bot"].as_str().unwrap())
        .collect();
    assert_eq!(bots, ["hard@60", "hard"], "{report}");
    // Two seatings of one deal: every game is won by one budget or the other.
    let won: u64 = report["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["games_won"].as_u64().unwrap())
        .sum();
    assert_eq!(won + report["abandoned"].as_u64().unwrap(), 2, "{report}");
}

#[test]
fn a_budget_on_a_level_that_does_not_search_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for seats in [
        "normal@300,hard,normal,hard",
        "hard@fast,normal,hard,normal",
    ] {
        let out = spades(&dir)
            .args(["sim", "--seats", seats, "--games", "1"])
            .assert()
            .code(2);
        let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        let bad = seats.split(',').next().unwrap();
        assert!(err.contains(&format!("`{bad}`")), "{err}");
    }
}
