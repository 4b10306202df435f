//! `spades replay --screen-reader` from the outside: the real binary, its
//! standard input and output pipes, reads a recorded game hand by hand in
//! plain lines, each trick as the record has it, and after `a` says the
//! analysis's verdicts as `spades analyze` finds them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use support::by_ear::{ByEar, assert_spoken};
use support::game::spades;

/// One seeded game (five hands) between a random bot, hard ones and a
/// normal one, as `spades sim --record` writes it: the random seat makes
/// choices the review finds bad.
fn sim_record(dir: &tempfile::TempDir) -> PathBuf {
    let path = dir.path().join("game.jsonl");
    spades(dir)
        .args(["sim", "--games", "1", "--seed", "5", "--target", "200"])
        .args(["--seats", "random,hard,normal,hard"])
        .args(["--iterations", "40", "--threads", "1"])
        .arg("--record")
        .arg(&path)
        .assert()
        .success();
    path
}

/// `spades replay game.jsonl --screen-reader MORE` in `dir`.
fn replay(dir: &Arc<tempfile::TempDir>, more: &[&str]) -> ByEar {
    ByEar::start_at(dir.clone(), &[&["replay", "game.jsonl"], more].concat())
}

/// One hand read: its lines down to its two sides' scores.
fn hand(ear: &mut ByEar, what: &str) -> Vec<String> {
    let mut scores = 0;
    ear.through(what, |l| {
        if l.starts_with("Score, ") {
            scores += 1;
        }
        scores == 2
    })
}

/// Closes the input: the replay leaves, exiting 0.
fn close(mut ear: ByEar) {
    ear.close_input();
    let (status, _) = ear.finish();
    assert!(status.success(), "{status:?}");
}

/// The record's JSON lines.
fn events(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Each trick of hand `hand` as the record has it, read without the
/// game's code: "Trick 1: hard 0 led 10D, hard 1 5D, ...; hard 3 won."
fn tricks_in_record(events: &[serde_json::Value], hand: u64) -> Vec<String> {
    let names: Vec<String> = events[0]["names"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect();
    let name = |seat: &serde_json::Value| names[seat.as_u64().unwrap() as usize].clone();
    let mut said = Vec::new();
    let mut cards: Vec<String> = Vec::new();
    for e in events.iter().filter(|e| e["hand"].as_u64() == Some(hand)) {
        match e["event"].as_str().unwrap() {
            "play" => {
                let face = e["card"].as_str().unwrap().replace('T', "10");
                let led = if cards.is_empty() { " led" } else { "" };
                cards.push(format!("{}{led} {face}", name(&e["seat"])));
            }
            "trick" => {
                let k = e["trick"].as_u64().unwrap();
                let winner = name(&e["winner"]);
                said.push(format!("Trick {k}: {}; {winner} won.", cards.join(", ")));
                cards.clear();
            }
            _ => {}
        }
    }
    said
}

/// Every line of the mode: no escape, no control character, none longer
/// than the mode's line.
fn assert_plain(lines: &[String]) {
    for line in lines {
        assert_spoken(line);
    }
}

/// The trick lines among `lines`, checked against the record's tricks.
fn assert_tricks_as_recorded(lines: &[String], recorded: &[String]) {
    let said: Vec<&String> = lines.iter().filter(|l| l.starts_with("Trick ")).collect();
    assert_eq!(said.len(), recorded.len(), "{lines:#?}");
    for (line, trick) in said.iter().zip(recorded) {
        // What the trick decided (a contract made, a nil broken) may follow.
        assert!(
            line.starts_with(trick.as_str()),
            "said {line}\nrecord {trick}"
        );
    }
}

#[test]
fn a_game_is_read_hand_by_hand_through_pipes_as_recorded() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let record = sim_record(&dir);
    let events = events(&record);
    let hands = events.iter().filter(|e| e["event"] == "deal").count();
    let mut ear = replay(&dir, &["--short-cards"]);
    let opening = ear.through("the title", |l| l.starts_with("Keys: "));
    assert_eq!(opening.len(), 2, "{opening:?}");
    assert!(
        opening[0].starts_with("Replay of game 1 of 1 in game.jsonl, partnership: "),
        "{opening:?}"
    );
    assert!(
        opening[0].contains(&format!("{hands} hands")),
        "{opening:?}"
    );
    // The first hand at once: the deal, the bids, the tricks, the score.
    let first = hand(&mut ear, "hand 1");
    assert!(
        first[0].starts_with(&format!("Hand 1 of {hands}.")),
        "{first:?}"
    );
    assert!(
        first[1].starts_with("random 0 holds S: ") || first[1].starts_with("random 0 holds H: ")
    );
    assert!(first.iter().any(|l| l.starts_with("Bids: random 0 bids ")));
    assert_tricks_as_recorded(&first, &tricks_in_record(&events, 1));
    // n, then Enter: the next hands.
    ear.send("n");
    let second = hand(&mut ear, "hand 2");
    assert!(
        second[0].starts_with(&format!("Hand 2 of {hands}.")),
        "{second:?}"
    );
    assert_tricks_as_recorded(&second, &tricks_in_record(&events, 2));
    ear.send("");
    let third = hand(&mut ear, "hand 3");
    assert!(third[0].starts_with("Hand 3 of "), "{third:?}");
    // p goes back; a hand by its number; one the game lacks is refused.
    ear.send("p");
    let again = hand(&mut ear, "hand 2 again");
    assert_eq!(again, second);
    // t: the hand's tricks one at a time, then its score, then its end.
    for trick in tricks_in_record(&events, 2) {
        ear.send("t");
        let said = ear.through("a trick", |_| true);
        assert!(
            said[0].starts_with(&trick),
            "said {}\nrecord {trick}",
            said[0]
        );
    }
    ear.send("t");
    let score = hand(&mut ear, "hand 2's score");
    assert_eq!(score.len(), 2, "{score:?}");
    assert!(score.iter().all(|l| l.starts_with("Score, ")), "{score:?}");
    ear.send("t");
    ear.through("the hand's end", |l| {
        l.starts_with("That was the hand's end")
    });
    ear.send(&format!("hand {hands}"));
    let last = ear.through("the game's end", |l| l.contains(" the game, "));
    assert_tricks_as_recorded(&last, &tricks_in_record(&events, hands as u64));
    let end = &events.last().unwrap()["scores"];
    assert!(
        last.last()
            .unwrap()
            .contains(&format!("{} to {}", end[0], end[1]))
            || last
                .last()
                .unwrap()
                .contains(&format!("{} to {}", end[1], end[0])),
        "{last:?}"
    );
    ear.send("n");
    ear.through("the last hand", |l| l.starts_with("That was the last hand"));
    ear.send("hand 99");
    ear.through("no hand 99", |l| {
        l == format!("There is no hand 99: this game has hands 1 to {hands}.")
    });
    ear.send("q");
    close(ear);
}

#[test]
fn a_reviews_the_game_and_each_hand_ends_with_its_verdicts() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let record = sim_record(&dir);
    let mut ear = replay(&dir, &["--iterations", "8"]);
    hand(&mut ear, "hand 1");
    ear.send("review");
    ear.through("no review yet", |l| l == "No review yet: a starts it.");
    ear.send("a");
    ear.through("the review's start", |l| l.starts_with("Reviewing "));
    let done = ear.through("the review done", |l| l.starts_with("Review of "));
    assert!(
        done[..done.len() - 1]
            .iter()
            .all(|l| l.starts_with("Reviewing: ") && l.ends_with("%.")),
        "{done:?}"
    );
    ear.send("review");
    let hands = events(&record)
        .iter()
        .filter(|e| e["event"] == "deal")
        .count();
    let listed = ear.through("every hand's verdicts", |l| {
        l.starts_with(&format!("Hand {hands}"))
    });
    // The same review, read back from beside the record by `spades
    // analyze` as deep: every bad decision it lists is said, in its figures.
    let out = spades(&dir)
        .args(["analyze", "game.jsonl", "--json", "--iterations", "8"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let review: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(review["cached"], true, "the replay kept its review");
    let bad: Vec<&serde_json::Value> = review["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| !d["class"].is_null())
        .collect();
    assert!(!bad.is_empty(), "the random seat made no bad choice");
    let verdicts: Vec<&String> = listed.iter().filter(|l| l.contains(" chose ")).collect();
    assert_eq!(verdicts.len(), bad.len(), "{listed:#?}");
    for (line, d) in verdicts.iter().zip(&bad) {
        let figures = format!(
            "wins {:.1}% against {:.1}%.",
            d["win_best"].as_f64().unwrap() * 100.0,
            d["win_chosen"].as_f64().unwrap() * 100.0
        );
        assert!(line.starts_with(&format!("Hand {}, ", d["hand"])), "{line}");
        assert!(line.contains(d["class"].as_str().unwrap()), "{line}");
        assert!(line.ends_with(&figures), "{line} lacks {figures}");
    }
    // A hand read now ends with its verdicts.
    let hand = bad[0]["hand"].as_u64().unwrap();
    ear.send(&format!("hand {hand}"));
    let read = ear.through("the hand's verdict", |l| l.contains(" chose "));
    assert!(read[0].starts_with(&format!("Hand {hand} of ")), "{read:?}");
    ear.send("q");
    close(ear);
}

#[test]
fn a_stop_signal_ends_it_with_the_signals_code() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    sim_record(&dir);
    let mut ear = replay(&dir, &[]);
    hand(&mut ear, "hand 1");
    // The input stays open: only the signal can end it.
    ear.terminate();
    let (status, _) = ear.finish();
    assert_eq!(status.code(), Some(143), "{status:?}");
}

#[test]
fn names_in_the_record_reach_the_lines_without_their_escapes() {
    let dir = tempfile::tempdir().unwrap();
    let record = sim_record(&dir);
    let text = std::fs::read_to_string(&record).unwrap();
    // Escapes hidden in the players' names, as a hostile record may hold.
    let hostile = text.replacen(
        "\"random 0\"",
        "\"r\\u001b]0;owned\\u0007and\\u001b[2Jom\"",
        1,
    );
    assert_ne!(hostile, text);
    std::fs::write(&record, hostile).unwrap();
    let out = spades(&dir)
        .args(["replay", "game.jsonl", "--screen-reader"])
        .write_stdin("n\nq\n")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let said = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<String> = said.lines().map(String::from).collect();
    assert!(lines.len() > 20, "{said}");
    assert!(lines.iter().any(|l| l.starts_with("Hand 2 of ")), "{said}");
    assert_plain(&lines);
}
