//! The real binary in a real pseudo-terminal: bid, play a whole hand, see
//! the summary, quit, and find the terminal restored and the game recorded;
//! and a whole game in which keys pressed during every trick's pause never
//! play a card.

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
    assert!(pty.text().contains("spades resume"), "{}", pty.text());

    // Left, the game is kept: its record holds the hand played and stays
    // open, and its save waits.
    let path = pty.record_path();
    let text = std::fs::read_to_string(&path).unwrap();
    let games = read_games(&text).unwrap();
    assert_eq!(games.len(), 1);
    assert!(!games[0].is_closed(), "kept, not abandoned");
    assert_eq!(games[0].header.seed, Some(7));
    replay(&games[0]).expect("the record replays through the engine");
    assert_eq!(pty.saves().len(), 1);

    // Resumed, it stands where it was left: the hand's summary, then hand 2.
    let mut pty = Pty::start_at(
        pty.home(),
        &["resume", "--speed", "instant", "--ascii"],
        TERM,
    );
    pty.wait_for("the summary", |s| s.contains("Hand 1 scored"));
    pty.send(b"\r");
    pty.wait_for("hand 2", |s| s.contains("Hand 2,"));
    pty.quit();

    // Given up, the record is closed and passes both checkers.
    let done = assert_cmd::Command::new(env!("CARGO_BIN_EXE_spades"))
        .args(["resume", "--abandon"])
        .env("HOME", pty.home().path())
        .env("XDG_DATA_HOME", pty.home().path().join("data"))
        .assert()
        .success();
    assert!(String::from_utf8_lossy(&done.get_output().stdout).contains("Gave up"));
    assert!(pty.saves().is_empty(), "the save goes with the game");
    let text = std::fs::read_to_string(&path).unwrap();
    let games = read_games(&text).unwrap();
    assert!(games[0].abandoned);
    let report = check_record(&text);
    assert!(report.is_ok(), "{}", report.describe());
}

/// A game dealt from a secret seed: the screen shows the commitment from
/// the start, the record holds no card until its hand is over, keeps the
/// seed secret while the game is kept to resume, reveals it when the game
/// is given up, and `spades verify` proves the deals.
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
    assert!(
        !text.contains("\"salt\""),
        "a kept game's seed stays secret"
    );

    assert_cmd::Command::new(env!("CARGO_BIN_EXE_spades"))
        .args(["resume", "--abandon"])
        .env("HOME", pty.home().path())
        .env("XDG_DATA_HOME", pty.home().path().join("data"))
        .assert()
        .success();
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

/// The card under the cursor as the hand row shows it: the `[k]` label's
/// column, two rows down (`|10C|`).
fn card_under_cursor(screen: &str) -> Option<spades::engine::Card> {
    let rows: Vec<&str> = screen.lines().collect();
    let (row, col) = rows.iter().enumerate().find_map(|(i, r)| {
        let at = r.find('[')?;
        (r.as_bytes().get(at + 2) == Some(&b']')).then_some((i, at))
    })?;
    let face: String = rows.get(row + 2)?.get(col..col + 3)?.trim().to_string();
    face.replace("10", "T").parse().ok()
}

/// A whole game at the fast speed, pressing Enter and Space during every
/// trick's pause (or just after it ends by itself): the record shows that
/// the player played exactly the cards chosen by their keys, and no other.
#[test]
fn keys_pressed_during_every_pause_never_play_a_card() {
    let rules = "target_score = 40\nlosing_score = -40\n";
    let mut pty = Pty::start_with(
        &[
            "--seed",
            "5",
            "--speed",
            "fast",
            "--no-auto-play",
            "--ascii",
            "--rules",
            "short.toml",
        ],
        TERM,
        &[("short.toml", rules)],
    );
    let mut chosen = Vec::new();
    let mut pauses = 0;
    loop {
        pty.wait_for("something to answer", |s| {
            [
                "Your turn",
                "Your bid",
                "Blind nil?",
                "Trick done",
                "scored",
                "Game over",
            ]
            .iter()
            .any(|w| s.contains(w))
        });
        let screen = pty.text();
        if screen.contains("Game over") {
            break;
        }
        if screen.contains("Trick done") {
            pauses += 1;
            if pauses % 2 == 0 {
                // Wait for the pause to end by itself, then press at once.
                while pty.text().contains("Trick done") {
                    pty.pump(std::time::Duration::from_millis(5));
                }
            }
            pty.send(b"\r \r");
            pty.settles(std::time::Duration::from_millis(300), &screen);
            continue;
        }
        if screen.contains("scored") {
            pty.send(b"\r");
            pty.settles(std::time::Duration::from_secs(3), &screen);
            continue;
        }
        // A decision: wait out the moment in which keys are taken for the
        // pause, then answer it.
        std::thread::sleep(std::time::Duration::from_millis(400));
        let screen = pty.text();
        if screen.contains("Blind nil?") {
            pty.send(b"c");
        } else if screen.contains("Your bid") {
            pty.send(b"2\r");
        } else if screen.contains("Your turn") {
            let (Some(key), Some(card)) = (pty.cursor_key(), card_under_cursor(&screen)) else {
                continue;
            };
            pty.send(&[key]);
            chosen.push(card);
        }
        pty.settles(std::time::Duration::from_secs(3), &screen);
    }
    pty.send(b"q");
    let status = pty.exit_status();
    assert!(status.success(), "{status:?}");
    assert!(pauses >= 13, "a whole hand's pauses at least: {pauses}");

    let text = std::fs::read_to_string(pty.record_path()).unwrap();
    let games = read_games(&text).unwrap();
    assert!(
        games[0]
            .events
            .iter()
            .any(|(_, e)| matches!(e, spades::engine::Event::End { .. }))
    );
    let played: Vec<spades::engine::Card> = games[0]
        .events
        .iter()
        .filter_map(|(_, e)| match e {
            spades::engine::Event::Play { seat, card, .. } if seat.index() == 0 => Some(*card),
            _ => None,
        })
        .collect();
    assert_eq!(played, chosen, "cards played that were not chosen");
}

/// A practice game in the real binary: a claim waits for the player's turn
/// to play, and `u` takes the card just played back.
#[test]
fn claim_and_undo_in_a_real_terminal() {
    let args = ["--seed", "3", "--speed", "instant", "--ascii", "--practice"];
    let mut pty = Pty::start(&args, TERM);
    pty.wait_for("the bidding", |s| s.contains("Your bid"));
    pty.send(b"C");
    pty.wait_for("the claim refused", |s| {
        s.contains("Claim at your turn to play a card.")
    });
    pty.send(b"3\r");
    pty.wait_for("the first card", |s| s.contains("Play a card"));
    let before = pty.text();
    pty.send(b"\r");
    pty.wait_for("the card played", |s| s != before);
    pty.send(b"u");
    pty.wait_for("the card taken back", |s| s.contains("Taken back."));
    pty.send(b"C");
    pty.wait_for("a claim answered", |s| {
        s.contains("Refused: ") || s.contains("Claimed: ")
    });
    pty.quit();
}
