//! The real binary in a real pseudo-terminal: bid, play a whole hand, see
//! the summary, quit, and find the terminal restored and the game recorded;
//! and a whole game in which keys pressed during every trick's pause never
//! play a card.

mod support;

use spades::record::{DealProof, read_games, replay};
use support::checker::check_record;
use support::pty::Pty;

const TERM: Option<&str> = Some("xterm-256color");

#[test]
fn play_a_hand_in_a_real_terminal() {
    let mut pty = Pty::start(&["--seed", "7", "--speed", "instant", "--ascii"], TERM);
    pty.wait_for("the bidding", |s| s.contains("Your bid"));
    assert!(pty.screen().alternate_screen());
    assert!(pty.screen().hide_cursor());
    assert!(pty.text().contains("Deals known: seed 7"));
    pty.send(b"2\r");
    pty.play_out_the_hand();
    let summary = pty.text();
    assert!(summary.contains("Hand 1 scored"), "{summary}");
    assert!(summary.contains("Contract"), "{summary}");
    assert!(summary.contains("Bags"), "{summary}");
    pty.quit();

    let text = std::fs::read_to_string(pty.record_path()).unwrap();
    let games = read_games(&text).unwrap();
    assert_eq!(games.len(), 1);
    assert!(games[0].abandoned, "left mid-game");
    assert_eq!(games[0].header.seed, Some(7));
    replay(&games[0]).expect("the record replays through the engine");
    let report = check_record(&text);
    assert!(report.is_ok(), "{}", report.describe());
}

/// A game dealt from a secret seed: the screen shows the commitment from
/// the start, the record holds no card until its hand is over and reveals
/// the seed when the game is left, and `spades verify` proves the deals.
#[test]
fn sealed_deals_are_committed_on_screen_and_revealed_when_left() {
    let mut pty = Pty::start(&["--speed", "instant", "--ascii"], TERM);
    pty.wait_for("the bidding", |s| s.contains("Your bid"));
    let shown = pty.text();
    let at = shown
        .find("Deals sealed #")
        .expect("the commitment on screen")
        + 14;
    let short = shown[at..at + 8].to_string();

    // Mid-hand, the record holds the game line and nothing else: no card.
    let path = pty.record_path();
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    let header: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert!(header["seed"].is_null());
    let commitment = header["commitment"].as_str().unwrap().to_string();
    assert!(commitment.starts_with(&short), "{commitment} vs {short}");

    pty.send(b"2\r");
    pty.play_out_the_hand();
    // The hand is over: now its lines are in the file, still no seed.
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\"score\""));
    assert!(!text.contains("\"salt\""));
    pty.quit();

    let text = std::fs::read_to_string(&path).unwrap();
    let games = read_games(&text).unwrap();
    assert!(games[0].abandoned);
    let replayed = replay(&games[0]).expect("the record replays");
    assert!(
        matches!(replayed.deals, DealProof::Committed { .. }),
        "{:?}",
        replayed.deals
    );
    let report = check_record(&text);
    assert!(report.is_ok(), "{}", report.describe());
    assert_cmd::Command::new(env!("CARGO_BIN_EXE_spades"))
        .arg("verify")
        .arg(&path)
        .assert()
        .success()
        .stdout(predicates::str::contains("hash to the commitment"));
}

#[test]
fn play_refuses_output_that_is_not_a_terminal() {
    let home = tempfile::tempdir().unwrap();
    assert_cmd::Command::new(env!("CARGO_BIN_EXE_spades"))
        .args(["--seed", "1"])
        .current_dir(home.path())
        .env("HOME", home.path())
        .env("XDG_DATA_HOME", home.path().join("data"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("spades plays in a terminal"));
}
