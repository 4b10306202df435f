//! A rated game is written whole or not at all even when the server is
//! killed (SIGKILL) in the middle of writing it. A child process (this
//! test binary again, told so by an environment variable) rates games in
//! a SQLite ladder through `rate_game`, the server's own code, saying the
//! id of each game once it is committed; the test kills it at moments
//! chosen by a seeded generator, then reopens the file and checks it.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::keys::Identity;
use super::names::Name;
use super::sqlite::SqliteStore;
use super::store::{AccountId, Occupant, RecordHash, Standing, Store};
use super::{FinishedGame, UnixTime, rate_game};
use crate::engine::Mode;

/// The variable that makes the test binary the child: the ladder file.
const CHILD_FILE: &str = "SPADES_LADDER_KILL_CHILD_FILE";
/// The child's round, so that each round's records are new.
const CHILD_ROUND: &str = "SPADES_LADDER_KILL_CHILD_ROUND";
/// This test's full name, for the child to run it alone.
const THIS_TEST: &str = "ladder::crash_tests::a_game_is_rated_whole_when_the_server_is_killed";
/// What starts each of the child's own lines: the test harness writes
/// the test's name before the first, on the same line.
const SAID: &str = "child: ";
const PLAYERS: [&str; 4] = ["Ann", "Bob", "Cat", "Dan"];
const ROUNDS: u32 = 12;
/// How long a child may rate games if nobody kills it, and how long the
/// test waits for a line from it.
const CHILD_LIFE: Duration = Duration::from_secs(30);
const QUIET: Duration = Duration::from_secs(20);

#[test]
fn a_game_is_rated_whole_when_the_server_is_killed() {
    if let Some(file) = std::env::var_os(CHILD_FILE) {
        rate_until_killed(Path::new(&file));
    }
    let dir = tempfile::tempdir().expect("a folder");
    let file = dir.path().join("ladder.sqlite");
    let players = register_players(&file);
    let mut rng = ChaCha8Rng::seed_from_u64(0x005b_ade5);
    let mut reported = BTreeSet::new();
    for round in 0..ROUNDS {
        let mut child = Killed(spawn_child(&file, round));
        let lines = read_lines(&mut child.0);
        // The child says `ready` once its store is open.
        wait_for(&lines, |said| said == "ready");
        if round % 2 == 0 {
            let games = rng.random_range(1..=15);
            for _ in 0..games {
                let id = wait_for(&lines, |said| said.starts_with("committed "));
                reported.insert(committed(&id));
            }
        } else {
            std::thread::sleep(Duration::from_micros(rng.random_range(0..20_000)));
        }
        child.0.kill().expect("killed");
        child.0.wait().expect("gone");
        // What it said before it died is still in the pipe.
        for line in lines.iter() {
            if let Some(said) = said(&line).filter(|s| s.starts_with("committed ")) {
                reported.insert(committed(said));
            }
        }
        check_whole(&file, &players, &reported);
    }
    assert!(
        reported.len() >= 10,
        "too few games were rated to tell: {}",
        reported.len()
    );
    // The file still takes another game.
    let mut store = SqliteStore::open(&file).expect("reopened");
    rate_game(&mut store, &game(&players, ROUNDS, 0)).expect("one more game");
    check_whole(&file, &players, &reported);
}

/// A child killed when the test ends, whatever happened.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn register_players(file: &Path) -> Vec<AccountId> {
    let mut store = SqliteStore::open(file).expect("made");
    PLAYERS
        .iter()
        .map(|name| {
            let key = Identity::generate().expect("a key").public_key();
            let name = Name::new(name).expect("a name");
            store
                .register(&name, &key, UnixTime(1))
                .expect("registered")
                .id
        })
        .collect()
}

/// The `n`th game of a round: the four players, winners taking turns.
fn game(players: &[AccountId], round: u32, n: u32) -> FinishedGame {
    let mut record = [0; 32];
    record[..4].copy_from_slice(&round.to_be_bytes());
    record[4..8].copy_from_slice(&n.to_be_bytes());
    FinishedGame {
        mode: Mode::Partnership,
        record: RecordHash(record),
        // One time for all: a history is in the order games were written.
        finished: UnixTime(100),
        seats: players
            .iter()
            .enumerate()
            .map(|(i, &p)| {
                let won = (i + n as usize).is_multiple_of(2);
                (Occupant::Player(p), if won { 500 } else { 200 }, false)
            })
            .collect(),
    }
}

fn spawn_child(file: &Path, round: u32) -> Child {
    let exe = std::env::current_exe().expect("the test binary");
    Command::new(exe)
        .args([THIS_TEST, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD_FILE, file)
        .env(CHILD_ROUND, round.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the child starts")
}

/// The child's lines, as they come, on a channel that closes when its
/// output does.
fn read_lines(child: &mut Child) -> mpsc::Receiver<String> {
    let stdout = child.stdout.take().expect("piped");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { return };
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    rx
}

/// What the child said on `line`, if it was the child's.
fn said(line: &str) -> Option<&str> {
    line.split_once(SAID).map(|(_, said)| said)
}

/// The first thing the child said that is `wanted`, waited for: a child
/// that says nothing for long, or ends, fails the test.
fn wait_for(lines: &mpsc::Receiver<String>, wanted: impl Fn(&str) -> bool) -> String {
    loop {
        match lines.recv_timeout(QUIET) {
            Ok(line) => match said(&line) {
                Some(said) if wanted(said) => return said.to_string(),
                _ => {}
            },
            Err(e) => panic!("the child stopped saying anything: {e}"),
        }
    }
}

fn committed(line: &str) -> i64 {
    line.trim_start_matches("committed ")
        .parse()
        .unwrap_or_else(|_| panic!("not a game id: {line:?}"))
}

/// The child: rates games until it is killed (or, never killed, for a
/// while), saying each game's id once it is committed.
fn rate_until_killed(file: &Path) -> ! {
    let round: u32 = std::env::var(CHILD_ROUND)
        .ok()
        .and_then(|r| r.parse().ok())
        .expect("a round");
    let mut store = SqliteStore::open(file).expect("the child opens the ladder");
    let players: Vec<AccountId> = PLAYERS
        .iter()
        .map(|name| {
            store
                .account_by_name(name)
                .expect("read")
                .expect("registered")
                .id
        })
        .collect();
    println!("{SAID}ready");
    let started = Instant::now();
    let mut n = 0;
    while started.elapsed() < CHILD_LIFE {
        let id = rate_game(&mut store, &game(&players, round, n)).expect("rated");
        println!("{SAID}committed {}", id.0);
        n += 1;
    }
    std::process::exit(0)
}

/// Every game in the file has its four seats and four rating changes;
/// every game the child said it committed is there; each player's
/// standing is the end of their history, which is one chain.
fn check_whole(file: &Path, players: &[AccountId], reported: &BTreeSet<i64>) {
    let mut store = SqliteStore::open(file).expect("the file opens after a kill");
    let conn = rusqlite::Connection::open(file).expect("open");
    let mut statement = conn
        .prepare(
            "SELECT g.id, (SELECT COUNT(*) FROM seats s WHERE s.game = g.id),
                (SELECT COUNT(*) FROM rating_changes c WHERE c.game = g.id)
             FROM games g",
        )
        .expect("a query");
    let games: Vec<(i64, i64, i64)> = statement
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .expect("read")
        .collect::<Result<_, _>>()
        .expect("read");
    for &(id, seats, changes) in &games {
        assert_eq!(
            (seats, changes),
            (4, 4),
            "game {id} is half written: {seats} seats, {changes} rating changes"
        );
    }
    let kept: BTreeSet<i64> = games.iter().map(|g| g.0).collect();
    let lost: Vec<_> = reported.difference(&kept).collect();
    assert!(lost.is_empty(), "committed, then lost: {lost:?}");
    for &player in players {
        let history = store.history(player, Mode::Partnership).expect("history");
        let standing = store.standing(player, Mode::Partnership).expect("standing");
        assert_eq!(
            standing.games as usize,
            history.len(),
            "{player:?}'s game count"
        );
        let last = history
            .last()
            .map_or(Standing::new_player().rating, |h| h.after);
        assert_eq!(standing.rating, last, "{player:?}'s rating");
        for pair in history.windows(2) {
            assert_eq!(pair[1].before, pair[0].after, "{player:?}'s history");
        }
    }
}
