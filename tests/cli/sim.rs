//! `spades sim` as a running process: killed part-way, it leaves a record
//! whose every finished game can be read and replayed; and what its
//! summary says of the seeds and of a bot playing only itself.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use spades::record::{RecordedGame, read_games, replay};

/// The record as it is now, up to its last complete line.
fn whole_lines(path: &Path) -> String {
    let mut text = std::fs::read_to_string(path).unwrap_or_default();
    text.truncate(text.rfind('\n').map_or(0, |i| i + 1));
    text
}

/// Games that reached their last line: won, or abandoned at the hand limit.
fn finished_games(text: &str) -> usize {
    text.matches("{\"event\":\"end\"").count() + text.matches("{\"event\":\"abandoned\"").count()
}

/// The sim under test, killed however the test ends.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_killed_sim_leaves_every_finished_game_readable() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.jsonl");
    // More games than it could play during the test, so the file can only
    // hold games if they are written as the run goes.
    let sim = Command::new(env!("CARGO_BIN_EXE_spades"))
        .current_dir(dir.path())
        .env("HOME", dir.path())
        .env("XDG_CONFIG_HOME", dir.path().join("config"))
        .args([
            "sim",
            "--games",
            "1000000000",
            "--seed",
            "1",
            "--threads",
            "2",
        ])
        .arg("--record")
        .arg(&path)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut sim = Running(sim);
    let wanted = 4;
    // Only a bound on a hang: a working sim writes its first games at once.
    let give_up = Instant::now() + Duration::from_secs(120);
    while finished_games(&whole_lines(&path)) < wanted {
        assert!(sim.0.try_wait().unwrap().is_none(), "the sim stopped");
        assert!(Instant::now() < give_up, "no game reached the record");
        std::thread::sleep(Duration::from_millis(5));
    }
    // SIGKILL: no chance to flush or tidy anything.
    drop(sim);

    let games = read_games(&whole_lines(&path)).unwrap();
    let finished: Vec<&RecordedGame> = games.iter().filter(|g| g.is_closed()).collect();
    assert!(
        finished.len() >= wanted,
        "{} finished games",
        finished.len()
    );
    // Games are written whole and in order: only the last can be cut off.
    assert!(games.len() <= finished.len() + 1);
    assert!(games[..finished.len()].iter().all(RecordedGame::is_closed));
    for game in finished {
        replay(game).unwrap();
    }
}

/// The summary of a short run of `args`, printed as a person reads it.
fn summary(dir: &tempfile::TempDir, args: &[&str]) -> String {
    let out = support::game::spades(dir)
        .args(["sim", "--games", "4", "--target", "100"])
        .args(args)
        .assert()
        .success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

#[test]
fn secret_seeds_are_said_to_be_revealed_only_when_records_are_written() {
    let dir = tempfile::tempdir().unwrap();
    let unrecorded = summary(&dir, &["--seats", "easy,random,easy,random"]);
    assert!(
        !unrecorded.contains("revealed in its record"),
        "{unrecorded}"
    );
    assert!(unrecorded.contains("--record keeps each"), "{unrecorded}");
    let recorded = summary(
        &dir,
        &["--seats", "easy,random,easy,random", "--record", "r.jsonl"],
    );
    assert!(
        recorded.contains("secret seeds, each revealed in its record"),
        "{recorded}"
    );
    let open = summary(&dir, &["--seats", "easy,random,easy,random", "--seed", "3"]);
    assert!(
        open.contains("seed 3") && !open.contains("secret"),
        "{open}"
    );
}

/// One bot in every seat wins every game whichever side wins: the summary
/// gives each side's wins instead of the bot's.
#[test]
fn a_mirror_match_reports_the_sides_not_the_bot_against_itself() {
    let dir = tempfile::tempdir().unwrap();
    let text = summary(&dir, &["--seats", "easy,easy,easy,easy", "--seed", "1"]);
    assert!(text.contains("Mirror match: easy in every seat"), "{text}");
    let side = |n: &str| {
        text.lines()
            .find(|l| l.split_whitespace().next() == Some(n))
            .unwrap_or_else(|| panic!("no side {n}: {text}"))
            .split_whitespace()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let (zero, one) = (side("0"), side("1"));
    assert_eq!(
        (zero[1].as_str(), one[1].as_str()),
        ("0,2", "1,3"),
        "{text}"
    );
    let won: u32 = [&zero, &one]
        .iter()
        .map(|s| s[2].parse::<u32>().unwrap())
        .sum();
    assert_eq!(won, 4, "every game has a winning side: {text}");
    let bot = text
        .lines()
        .find(|l| l.starts_with("easy "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(!bot.contains("100.0% ("), "{bot}");
    assert_eq!(bot.split_whitespace().nth(2), Some("-"), "{bot}");
}

/// Every move of a record, a line per hand: bids, passes and cards in the
/// order they were made.
fn moves(record: &str) -> String {
    let mut out = String::new();
    let mut game = 0;
    for line in record.lines() {
        let event: serde_json::Value = serde_json::from_str(line).unwrap();
        let seat = |key: &str| event[key].as_u64().unwrap();
        match event["event"].as_str().unwrap() {
            "game" => game += 1,
            "deal" => {
                if !out.is_empty() {
                    out.push('\n');
                }
                out += &format!("game {game} hand {}:", event["hand"]);
            }
            "bid" => out += &format!(" b{}={}", seat("seat"), event["bid"]),
            "exchange" => {
                let cards: Vec<&str> = event["cards"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c.as_str().unwrap())
                    .collect();
                out += &format!(" x{}={}", seat("from"), cards.join("+"));
            }
            "play" => out += &format!(" {}", event["card"].as_str().unwrap()),
            _ => {}
        }
    }
    out + "\n"
}

/// `normal` plays the same seeded games until its play is changed on
/// purpose: three seeded games of four `normal`s, nils and blind nils
/// among them, make exactly the moves of the fixture (written again with
/// `SPADES_BLESS=1` when a change to its play is meant, last for blind
/// nil by the game's stakes; the diff of the fixture shows what the change did).
#[test]
fn normal_plays_the_same_seeded_games_as_before_it_gave_reasons() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.jsonl");
    let status = Command::new(env!("CARGO_BIN_EXE_spades"))
        .current_dir(dir.path())
        .env("HOME", dir.path())
        .env("XDG_CONFIG_HOME", dir.path().join("config"))
        .args(["sim", "--seats", "normal,normal,normal,normal"])
        .args(["--games", "3", "--seed", "22"])
        .arg("--record")
        .arg(&path)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let made = moves(&std::fs::read_to_string(&path).unwrap());
    if std::env::var_os("SPADES_BLESS").is_some() {
        let fixture = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/cli/fixtures/normal_seed22.moves"
        );
        std::fs::write(fixture, &made).unwrap();
    }
    let before = include_str!("fixtures/normal_seed22.moves");
    assert_eq!(made, before);
}
