//! `spades sim` with a program of its own at a seat (`exec:`) that fails:
//! the games in which it was replaced are counted apart from its own, and
//! a run in which it was replaced in every game fails.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

/// A program of `tests/cli/fixtures/bots`, as an `exec:` seat.
fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli/fixtures/bots");
    format!("exec:sh {}", path.join(name).display())
}

fn example_bot() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/bot.py")
}

/// `spades sim` in `dir`, one thread so that games start in order, with
/// the program in seat 0 and `random` in the others.
fn sim(dir: &Path, program: &str, games: u32) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_spades"));
    cmd.current_dir(dir)
        .env("HOME", dir)
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("EXAMPLE_BOT", example_bot())
        .args(["sim", "--target", "200", "--seed", "3", "--threads", "1"])
        .args(["--games", &games.to_string()])
        .arg("--seats")
        .arg(format!("{program},random,random,random"));
    cmd
}

#[test]
fn a_program_replaced_in_every_game_is_credited_nothing_and_the_run_fails() {
    let dir = tempfile::tempdir().unwrap();
    let program = fixture("quits.sh");
    let out = sim(dir.path(), &program, 2).arg("--json").assert().code(1);
    let out = out.get_output();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("a seat's program failed and was replaced in every game (2 of 2)"),
        "{stderr}"
    );
    // The summary is printed all the same.
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let bot = &report["bots"][0];
    assert_eq!(bot["bot"], program.as_str());
    // Nothing of what `normal` did in its place is the program's.
    assert_eq!(bot["games"], 0, "{bot}");
    assert_eq!(bot["games_won"], 0, "{bot}");
    assert_eq!(bot["nil_bids"], 0, "{bot}");
    assert_eq!(bot["seat_bids"], 0, "{bot}");
    // It is all counted apart, under `replaced`: `normal` against three
    // random bots wins both games and bids.
    let apart = &bot["replaced"];
    assert_eq!(apart["games"], 2, "{bot}");
    assert_eq!(apart["games_won"], 2, "{bot}");
    assert!(apart["seat_bids"].as_u64().unwrap() > 0, "{bot}");
    assert!(apart["replaced"].is_null());
    assert_eq!(report["replaced"].as_array().unwrap().len(), 2);
    // The other bots' figures are their own, as always.
    assert_eq!(report["bots"][1]["games"], 2);
    assert!(report["bots"][1]["replaced"].is_null());
}

#[test]
fn the_table_shows_the_replaced_games_on_a_row_of_their_own() {
    let dir = tempfile::tempdir().unwrap();
    let program = fixture("quits.sh");
    let out = sim(dir.path(), &program, 1).assert().code(1);
    let summary = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let rows: Vec<&str> = summary.lines().collect();
    let at = rows
        .iter()
        .position(|row| row.starts_with(&program))
        .unwrap_or_else(|| panic!("no row for the program in:\n{summary}"));
    // Its own row: no game, no win, nothing to take a rate over.
    let own: Vec<&str> = rows[at][program.len()..].split_whitespace().collect();
    assert_eq!(own[..5], ["0", "0", "-", "-", "-"], "{summary}");
    assert_eq!(own[5], "0/0", "{summary}");
    // Then the game `normal` finished for it, won.
    let apart: Vec<&str> = rows[at + 1].split_whitespace().collect();
    assert_eq!(apart[..4], ["replaced", "0", "1", "100.0%"], "{summary}");
    assert!(summary.contains("was replaced by normal in game 1, hand 1: exited with code 3"));
    assert!(summary.contains("  stderr: giving up"), "{summary}");
}

#[test]
fn a_program_replaced_in_some_games_only_leaves_the_run_a_success() {
    let dir = tempfile::tempdir().unwrap();
    let program = fixture("first_game_fails.sh");
    let out = sim(dir.path(), &program, 2)
        .arg("--json")
        .assert()
        .success();
    let report: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let bot = &report["bots"][0];
    assert_eq!(bot["games"], 1, "{bot}");
    assert_eq!(bot["replaced"]["games"], 1, "{bot}");
    let replaced = report["replaced"].as_array().unwrap();
    assert_eq!(replaced.len(), 1, "{report}");
    assert_eq!(replaced[0]["game"], 1);
}

#[test]
fn sim_help_gives_the_exit_status() {
    let out = Command::new(env!("CARGO_BIN_EXE_spades"))
        .args(["sim", "--help"])
        .assert()
        .success();
    let help = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(help.contains("Exit status: 0"), "{help}");
    assert!(help.contains("1 when every game replaced"), "{help}");
}
