//! `spades verify` and the independent checker on what the real binary
//! writes: `spades sim` records with secret seeds commit at the start,
//! reveal at the end, and verify; a forged record does not; an unreadable
//! one is bad input.

use predicates::prelude::*;
use serde_json::Value;
use support::checker::check_record;
use support::game::spades;

/// Records of a few short games in each mode, written by `spades sim`
/// without a seed: every game's seed is secret until it ends.
fn sim_record(dir: &tempfile::TempDir, mode: &str) -> String {
    std::fs::write(
        dir.path().join("short.toml"),
        "target_score = 150\nlosing_score = -150\n",
    )
    .unwrap();
    let file = format!("{mode}.jsonl");
    spades(dir)
        .args([
            "sim",
            "--games",
            "3",
            "--mode",
            mode,
            "--rules",
            "short.toml",
        ])
        .args(["--record", &file, "--seats"])
        .arg(if mode == "cutthroat" {
            "easy,easy,normal"
        } else {
            "easy,normal,easy,normal"
        })
        .assert()
        .success();
    std::fs::read_to_string(dir.path().join(file)).unwrap()
}

fn lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn sim_records_commit_reveal_verify_and_pass_the_checker() {
    let dir = tempfile::tempdir().unwrap();
    for mode in ["partnership", "cutthroat", "individual"] {
        let text = sim_record(&dir, mode);
        let report = check_record(&text);
        assert!(report.is_ok(), "{mode}: {}", report.describe());
        assert_eq!(report.games, 3);
        let all = lines(&text);
        let headers: Vec<&Value> = all.iter().filter(|l| l["event"] == "game").collect();
        for h in &headers {
            assert_eq!(h["format"], 2);
            assert!(h["seed"].is_null(), "{h}");
            assert_eq!(h["commitment"].as_str().map(str::len), Some(64));
        }
        let closing: Vec<&Value> = all
            .iter()
            .filter(|l| l["event"] == "end" || l["event"] == "abandoned")
            .collect();
        assert_eq!(closing.len(), 3);
        assert!(
            closing
                .iter()
                .all(|l| l["seed"].is_u64() && l["salt"].is_string())
        );
        spades(&dir)
            .args(["verify", &format!("{mode}.jsonl")])
            .assert()
            .success()
            .stdout(predicate::str::contains("verified").count(3))
            .stdout(predicate::str::contains("hash to the commitment"));
    }
}

#[test]
fn a_forged_record_does_not_verify_and_says_where() {
    let dir = tempfile::tempdir().unwrap();
    let text = sim_record(&dir, "partnership");
    let mut all = lines(&text);
    // Reveal another seed than the one committed to: the deals would differ.
    let end = all
        .iter()
        .position(|l| l["event"] == "end" || l["event"] == "abandoned")
        .unwrap();
    let seed = all[end]["seed"].as_u64().unwrap();
    all[end]["seed"] = (seed ^ 1).into();
    let forged: String = all.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.path().join("forged.jsonl"), forged).unwrap();
    spades(&dir)
        .args(["verify", "forged.jsonl"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("does NOT verify"))
        .stdout(predicate::str::contains(format!("line {}:", end + 1)))
        .stderr(predicate::str::contains("1 of 3 games did not verify"));

    // A game cut off before its end cannot prove its deals.
    let cut: String = text.lines().take(end).map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.path().join("cut.jsonl"), cut).unwrap();
    spades(&dir)
        .args(["verify", "cut.jsonl"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("NOT verified"))
        .stdout(predicate::str::contains(
            "cut short before its seed was revealed",
        ));
}

#[test]
fn an_unreadable_record_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("junk.jsonl"),
        "{\"event\":\"game\"\nnot json\n",
    )
    .unwrap();
    spades(&dir)
        .args(["verify", "junk.jsonl"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("junk.jsonl:1:"));
    spades(&dir)
        .args(["verify", "missing.jsonl"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("missing.jsonl: cannot read"));
    spades(&dir).args(["verify"]).assert().code(2);
}

#[test]
fn open_seed_runs_say_their_deals_were_known() {
    let dir = tempfile::tempdir().unwrap();
    spades(&dir)
        .args([
            "sim",
            "--games",
            "1",
            "--seed",
            "5",
            "--seats",
            "random,random,random,random",
        ])
        .args(["--max-hands", "3", "--record", "open.jsonl"])
        .assert()
        .success()
        .stdout(predicate::str::contains("seed 5"));
    let text = std::fs::read_to_string(dir.path().join("open.jsonl")).unwrap();
    let header = &lines(&text)[0];
    assert_eq!(header["seed"], 5);
    assert!(header["commitment"].is_null());
    spades(&dir)
        .args(["verify", "open.jsonl"])
        .assert()
        .success()
        .stdout(predicate::str::contains("given openly at the start"));
}
