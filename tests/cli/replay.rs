//! `spades replay` from the outside: the real binary given records that
//! cannot be shown says why, names the file and line, exits 2 and leaves
//! the terminal alone; and in a pseudo-terminal it steps through a game
//! and leaves with `q`.

use predicates::prelude::*;
use support::game::spades;
use support::pty::Pty;

const TERM: Option<&str> = Some("xterm-256color");

/// Two short games between the default bots, as `spades sim --record`
/// writes them, in `dir`.
fn sim_record(dir: &tempfile::TempDir) -> std::path::PathBuf {
    let path = dir.path().join("sim.jsonl");
    spades(dir)
        .args(["sim", "--games", "2", "--seed", "5", "--target", "200"])
        .arg("--record")
        .arg(&path)
        .assert()
        .success();
    path
}

fn lines(path: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn a_line_that_is_not_a_record_is_named_by_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = sim_record(&dir);
    let mut text = lines(&path);
    text[6] = "{\"event\":\"play\",\"hand\":1,".to_string();
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, text.join("\n") + "\n").unwrap();
    spades(&dir)
        .args(["replay", "bad.jsonl"])
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains("bad.jsonl:7:"));
}

#[test]
fn a_move_against_the_rules_is_named_by_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = sim_record(&dir);
    let mut text = lines(&path);
    // The first card played is played again at once: a card the seat no
    // longer holds, out of turn.
    let first = text
        .iter()
        .position(|l| l.contains("\"event\":\"play\""))
        .unwrap();
    text.insert(first + 1, text[first].clone());
    let bad = dir.path().join("moves.jsonl");
    std::fs::write(&bad, text.join("\n") + "\n").unwrap();
    let line = first + 2;
    spades(&dir)
        .args(["replay", "moves.jsonl", "--game", "1"])
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains(format!("moves.jsonl:{line}:")));
}

#[test]
fn a_game_past_the_files_count_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    sim_record(&dir);
    spades(&dir)
        .args(["replay", "sim.jsonl", "--game", "3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "sim.jsonl holds 2 games: --game takes 1 to 2",
        ));
    spades(&dir)
        .args(["replay", "sim.jsonl", "--game", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--game"));
}

#[test]
fn an_id_not_found_is_refused_and_one_found_is_looked_up() {
    let dir = tempfile::tempdir().unwrap();
    let path = sim_record(&dir);
    spades(&dir)
        .args(["replay", "game-1764552000"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "no game whose id starts with `game-1764552000`",
        ));
    spades(&dir)
        .args(["replay", "nowhere/game.jsonl"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no such file"));
    // In the records folder, the start of an id is enough: the game is
    // found and read, and only the missing terminal stops it here.
    let records = dir.path().join("data/spades/records");
    std::fs::create_dir_all(&records).unwrap();
    std::fs::copy(&path, records.join("game-1764552000-4242.jsonl")).unwrap();
    spades(&dir)
        .args(["replay", "game-17645"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("terminal"));
}

#[test]
fn a_bad_record_leaves_a_real_terminal_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let path = sim_record(&dir);
    let mut text = lines(&path);
    text[2] = "not json".to_string();
    let mut pty = Pty::start_with(
        &["replay", "bad.jsonl"],
        TERM,
        &[("bad.jsonl", &(text.join("\n") + "\n"))],
    );
    let status = pty.exit_status();
    assert_eq!(status.exit_code(), 2, "{}", pty.text());
    assert!(pty.text().contains("bad.jsonl:3:"), "{}", pty.text());
    let raw = String::from_utf8_lossy(&pty.raw);
    assert!(
        !raw.contains("\x1b[?1049h"),
        "the screen was switched: {raw:?}"
    );
}

#[test]
fn step_through_a_sim_record_in_a_real_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(sim_record(&dir)).unwrap();
    let mut pty = Pty::start_with(
        &["replay", "r.jsonl", "--game", "2", "--ascii"],
        TERM,
        &[("r.jsonl", &text)],
    );
    pty.wait_for("the viewer", |s| {
        s.contains("REPLAY") && s.contains("the deal")
    });
    assert!(pty.screen().alternate_screen());
    assert!(pty.text().contains("game 2 of 2"), "{}", pty.text());
    // Down: the bids made, then the first trick, taken by someone.
    pty.send(b"\x1b[B");
    pty.send(b"\x1b[B");
    pty.wait_for("the first trick", |s| s.contains("trick 1"));
    // The next hand a page down; up from its deal, the hand before scored.
    pty.send(b"\x1b[6~");
    pty.wait_for("hand 2", |s| s.contains("hand 2 of"));
    pty.send(b"\x1b[A");
    pty.wait_for("the score", |s| {
        s.contains("Hand 1 scored") && s.contains("Contract") && s.contains("Bags")
    });
    // The keys, closed by any key; then q leaves.
    pty.send(b"?");
    pty.wait_for("the keys", |s| s.contains("PgUp/PgDn  "));
    pty.send(b"x");
    pty.wait_for("the keys closed", |s| !s.contains("PgUp/PgDn  "));
    pty.send(b"q");
    let status = pty.exit_status();
    assert!(status.success(), "{status:?}");
    assert!(!pty.screen().alternate_screen(), "alternate screen left");
    assert!(!pty.screen().hide_cursor(), "cursor shown again");
}
