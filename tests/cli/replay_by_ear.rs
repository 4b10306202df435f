//! `spades replay --screen-reader` from the outside: the real binary, its
//! standard input and output pipes, reads a recorded game hand by hand in
//! plain lines, each trick as the record has it, and after `a` says the
//! analysis's verdicts as `spades analyze` finds them.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use support::game::spades;

/// A generous wait for a line: a test build on a busy machine is slow.
const WAIT: Duration = Duration::from_secs(90);

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

/// The replay in lines, its input and output pipes.
struct ByEar {
    child: Child,
    input: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line heard so far.
    heard: Vec<String>,
}

impl ByEar {
    fn start(dir: &tempfile::TempDir, more: &[&str]) -> ByEar {
        let mut child = Command::new(support::spades_bin())
            .current_dir(dir.path())
            .env("HOME", dir.path())
            .env("XDG_CONFIG_HOME", dir.path().join("config"))
            .env("XDG_DATA_HOME", dir.path().join("data"))
            .args(["replay", "game.jsonl", "--screen-reader"])
            .args(more)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let out = child.stdout.take().unwrap();
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { return };
                if send.send(line).is_err() {
                    return;
                }
            }
        });
        ByEar {
            input: child.stdin.take(),
            child,
            lines,
            heard: Vec::new(),
        }
    }

    fn type_line(&mut self, line: &str) {
        let input = self.input.as_mut().unwrap();
        writeln!(input, "{line}").unwrap();
        input.flush().unwrap();
    }

    /// The lines said until one for which `last` holds, that one included.
    fn until(&mut self, what: &str, mut last: impl FnMut(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + WAIT;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.lines.recv_timeout(left).unwrap_or_else(|_| {
                panic!("no line for {what}; heard:\n{}", self.heard.join("\n"))
            });
            self.heard.push(line.clone());
            got.push(line.clone());
            if last(&line) {
                return got;
            }
        }
    }

    /// One hand read: its lines down to its two sides' scores.
    fn hand(&mut self, what: &str) -> Vec<String> {
        let mut scores = 0;
        self.until(what, |l| {
            if l.starts_with("Score, ") {
                scores += 1;
            }
            scores == 2
        })
    }

    /// Closes the input: the replay leaves, exiting 0.
    fn close(mut self) -> Vec<String> {
        self.input.take();
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status:?}");
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(5)) {
            self.heard.push(line);
        }
        self.heard
    }
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
/// than 200 characters.
fn assert_plain(lines: &[String]) {
    for line in lines {
        assert!(
            !line.chars().any(char::is_control),
            "a control character: {line:?}"
        );
        assert!(line.chars().count() <= 200, "too long: {line}");
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
    let dir = tempfile::tempdir().unwrap();
    let record = sim_record(&dir);
    let events = events(&record);
    let hands = events.iter().filter(|e| e["event"] == "deal").count();
    let mut ear = ByEar::start(&dir, &["--short-cards"]);
    let opening = ear.until("the title", |l| l.starts_with("Keys: "));
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
    let first = ear.hand("hand 1");
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
    ear.type_line("n");
    let second = ear.hand("hand 2");
    assert!(
        second[0].starts_with(&format!("Hand 2 of {hands}.")),
        "{second:?}"
    );
    assert_tricks_as_recorded(&second, &tricks_in_record(&events, 2));
    ear.type_line("");
    let third = ear.hand("hand 3");
    assert!(third[0].starts_with("Hand 3 of "), "{third:?}");
    // p goes back; a hand by its number; one the game lacks is refused.
    ear.type_line("p");
    let again = ear.hand("hand 2 again");
    assert_eq!(again, second);
    // t: the hand's tricks one at a time, then its score, then its end.
    for trick in tricks_in_record(&events, 2) {
        ear.type_line("t");
        let said = ear.until("a trick", |_| true);
        assert!(
            said[0].starts_with(&trick),
            "said {}\nrecord {trick}",
            said[0]
        );
    }
    ear.type_line("t");
    let score = ear.hand("hand 2's score");
    assert_eq!(score.len(), 2, "{score:?}");
    assert!(score.iter().all(|l| l.starts_with("Score, ")), "{score:?}");
    ear.type_line("t");
    ear.until("the hand's end", |l| {
        l.starts_with("That was the hand's end")
    });
    ear.type_line(&format!("hand {hands}"));
    let last = ear.until("the game's end", |l| l.contains(" the game, "));
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
    ear.type_line("n");
    ear.until("the last hand", |l| l.starts_with("That was the last hand"));
    ear.type_line("hand 99");
    ear.until("no hand 99", |l| {
        l == format!("There is no hand 99: this game has hands 1 to {hands}.")
    });
    ear.type_line("q");
    let heard = ear.close();
    assert_plain(&heard);
}

#[test]
fn a_reviews_the_game_and_each_hand_ends_with_its_verdicts() {
    let dir = tempfile::tempdir().unwrap();
    let record = sim_record(&dir);
    let mut ear = ByEar::start(&dir, &["--iterations", "8"]);
    ear.hand("hand 1");
    ear.type_line("review");
    ear.until("no review yet", |l| l == "No review yet: a starts it.");
    ear.type_line("a");
    ear.until("the review's start", |l| l.starts_with("Reviewing "));
    let done = ear.until("the review done", |l| l.starts_with("Review of "));
    assert!(
        done[..done.len() - 1]
            .iter()
            .all(|l| l.starts_with("Reviewing: ") && l.ends_with("%.")),
        "{done:?}"
    );
    ear.type_line("review");
    let hands = events(&record)
        .iter()
        .filter(|e| e["event"] == "deal")
        .count();
    let listed = ear.until("every hand's verdicts", |l| {
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
    ear.type_line(&format!("hand {hand}"));
    let read = ear.until("the hand's verdict", |l| l.contains(" chose "));
    assert!(read[0].starts_with(&format!("Hand {hand} of ")), "{read:?}");
    ear.type_line("q");
    assert_plain(&ear.close());
}

#[test]
fn a_stop_signal_ends_it_with_the_signals_code() {
    let dir = tempfile::tempdir().unwrap();
    sim_record(&dir);
    let mut ear = ByEar::start(&dir, &[]);
    ear.hand("hand 1");
    // The input stays open: only the signal can end it.
    let sent = Command::new("kill")
        .args(["-TERM", &ear.child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let status = ear.child.wait().unwrap();
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
