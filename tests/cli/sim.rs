//! `spades sim` as a running process: killed part-way, it leaves a record
//! whose every finished game can be read and replayed.

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
