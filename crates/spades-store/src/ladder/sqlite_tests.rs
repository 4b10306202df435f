//! The SQLite store's tests: the store's word (`tests`), and the file's
//! own (migrations, a file that is not a ladder).

use super::keys::Identity;
use super::sqlite::{MIGRATIONS, SqliteStore};
use super::store::{AccountId, Occupant, RecordHash, Store, StoreError};
use super::test_accounts::{NOW, join};
use super::tests::store_keeps_its_word;
use super::*;
use crate::bots::Level;
use crate::engine::Mode;

#[test]
fn the_sqlite_store_keeps_its_word() {
    store_keeps_its_word(|| SqliteStore::in_memory().expect("a store in memory"));
}

#[test]
fn a_file_store_is_wal_and_survives_reopening() {
    let dir = tempfile::tempdir().expect("a folder");
    let path = dir.path().join("ladder.db");
    let ada = {
        let mut store = SqliteStore::open(&path).expect("made");
        join(&mut store, "Ada").1
    };
    let mut store = SqliteStore::open(&path).expect("reopened");
    assert_eq!(store.account_by_name("ada").expect("read"), Some(ada));
    let conn = rusqlite::Connection::open(&path).expect("open");
    let mode: String = conn
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .expect("mode");
    assert_eq!(mode, "wal");
}

#[test]
fn a_database_of_the_first_schema_migrates_with_its_rows() {
    let dir = tempfile::tempdir().expect("a folder");
    let path = dir.path().join("ladder.db");
    {
        // The first schema, as the first release wrote it.
        let conn = rusqlite::Connection::open(&path).expect("open");
        conn.execute_batch(
            "CREATE TABLE accounts (id INTEGER PRIMARY KEY, name TEXT NOT NULL,
                folded TEXT NOT NULL UNIQUE, public_key BLOB NOT NULL UNIQUE,
                registered BIGINT NOT NULL);
             CREATE TABLE challenges (nonce BLOB PRIMARY KEY, server BLOB NOT NULL,
                expires BIGINT NOT NULL);
             CREATE TABLE games (id INTEGER PRIMARY KEY, mode TEXT NOT NULL,
                record_hash BLOB NOT NULL UNIQUE, finished BIGINT NOT NULL);
             CREATE TABLE seats (game INTEGER NOT NULL REFERENCES games (id),
                seat INTEGER NOT NULL, account INTEGER REFERENCES accounts (id), bot TEXT,
                score INTEGER NOT NULL, left_early INTEGER NOT NULL,
                PRIMARY KEY (game, seat), CHECK ((account IS NULL) <> (bot IS NULL)));
             CREATE TABLE ratings (account INTEGER NOT NULL REFERENCES accounts (id),
                mode TEXT NOT NULL, rating DOUBLE PRECISION NOT NULL,
                deviation DOUBLE PRECISION NOT NULL, volatility DOUBLE PRECISION NOT NULL,
                games INTEGER NOT NULL, PRIMARY KEY (account, mode));
             CREATE TABLE rating_changes (game INTEGER NOT NULL REFERENCES games (id),
                account INTEGER NOT NULL REFERENCES accounts (id),
                before_rating DOUBLE PRECISION NOT NULL, before_deviation DOUBLE PRECISION NOT NULL,
                before_volatility DOUBLE PRECISION NOT NULL, after_rating DOUBLE PRECISION NOT NULL,
                after_deviation DOUBLE PRECISION NOT NULL, after_volatility DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (game, account));
             INSERT INTO accounts (name, folded, public_key, registered)
                VALUES ('Old Timer', 'oldtlmer', x'0101010101010101010101010101010101010101010101010101010101010101', 7),
                ('Second', 'second', x'0202020202020202020202020202020202020202020202020202020202020202', 7),
                ('Third', 'thlrd', x'0303030303030303030303030303030303030303030303030303030303030303', 7);
             INSERT INTO games (mode, record_hash, finished) VALUES ('partnership', x'09', 8);
             INSERT INTO seats (game, seat, account, bot, score, left_early)
                VALUES (1, 0, 1, NULL, 500, 0), (1, 1, 2, NULL, 200, 0),
                       (1, 2, 3, NULL, 500, 0), (1, 3, NULL, 'normal', 200, 0);
             INSERT INTO ratings (account, mode, rating, deviation, volatility, games)
                VALUES (1, 'partnership', 1600, 300, 0.06, 1),
                       (2, 'partnership', 1400, 300, 0.06, 1),
                       (3, 'partnership', 1600, 300, 0.06, 1);
             PRAGMA application_id = 1397768516;
             PRAGMA user_version = 1;",
        )
        .expect("the first schema");
    }
    let mut store = SqliteStore::open(&path).expect("migrated");
    let old = store
        .account_by_name("old timer")
        .expect("read")
        .expect("kept");
    assert_eq!(old.registered, UnixTime(7));
    // The third step counted the people each had met: Second sat
    // against both, the others against Second alone.
    let opponents = |store: &mut SqliteStore, id| {
        store
            .standing(AccountId(id), Mode::Partnership)
            .expect("read")
            .opponents
    };
    assert_eq!([1, 2, 3].map(|id| opponents(&mut store, id)), [1, 2, 1]);
    // The second step's table is there: rotating writes to it.
    let new = Identity::generate().expect("a key");
    store
        .rotate_key(old.id, &new.public_key(), NOW)
        .expect("rotated");
    let conn = rusqlite::Connection::open(&path).expect("open");
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .expect("version");
    assert_eq!(version, MIGRATIONS.len() as i64);
    let rotations: i64 = conn
        .query_row("SELECT COUNT(*) FROM key_rotations", [], |r| r.get(0))
        .expect("count");
    assert_eq!(rotations, 1);
}

#[test]
fn a_file_that_is_not_a_ladder_is_named() {
    let dir = tempfile::tempdir().expect("a folder");
    let text = dir.path().join("notes.txt");
    std::fs::write(
        &text,
        "these are not the tables you are looking for\n".repeat(100),
    )
    .expect("written");
    let e = SqliteStore::open(&text).err().expect("refused");
    assert!(matches!(e, StoreError::NotADatabase { .. }), "{e}");
    assert!(e.to_string().contains(&text.display().to_string()), "{e}");
    let foreign = dir.path().join("other.db");
    rusqlite::Connection::open(&foreign)
        .expect("open")
        .execute_batch("CREATE TABLE photos (id INTEGER PRIMARY KEY)")
        .expect("made");
    let e = SqliteStore::open(&foreign).err().expect("refused");
    assert!(matches!(e, StoreError::Foreign(_)), "{e}");
    assert!(
        e.to_string().contains(&foreign.display().to_string()),
        "{e}"
    );
    let newer = dir.path().join("newer.db");
    drop(SqliteStore::open(&newer).expect("made"));
    rusqlite::Connection::open(&newer)
        .expect("open")
        .pragma_update(None, "user_version", 99)
        .expect("set");
    let e = SqliteStore::open(&newer).err().expect("refused");
    assert!(matches!(e, StoreError::Newer { found: 99, .. }), "{e}");
}

/// The local rating and the ladder rate the same games alike, through the
/// one path (`rating::period`): a player's record of games against a level
/// gives, game by game, the rating the ladder keeps for the same games
/// played at a server against bots of that level.
#[test]
fn the_local_rating_and_the_ladder_agree_on_the_same_games() {
    use crate::history::{Outcome, PlayedGame};
    use crate::rating::Ledger;
    use crate::record::GameInfo;
    let played = |mode: Mode, level: Level, scores: &[i32], outcome| PlayedGame {
        id: format!("{mode}-{scores:?}"),
        file: std::path::PathBuf::from("g.jsonl"),
        mode,
        info: GameInfo {
            difficulty: Some(level.into()),
            ..GameInfo::default()
        },
        seat: crate::engine::Seat::new(0),
        outcome,
        scores: scores.to_vec(),
        results: Vec::new(),
        quick: false,
        open_seed: None,
    };
    let (won, lost) = (Outcome::Won, Outcome::Lost);
    let runs = [
        (
            Mode::Partnership,
            Level::Normal,
            vec![
                (&[510, 300][..], won),
                (&[200, 505], lost),
                (&[530, 480], won),
            ],
        ),
        (
            Mode::Cutthroat,
            Level::Hard,
            vec![(&[300, 510, 120][..], lost), (&[500, 100, 250], won)],
        ),
        (
            Mode::Individual,
            Level::Easy,
            vec![(&[300, 510, 300, 90][..], lost), (&[520, 0, 10, 20], won)],
        ),
    ];
    for (mode, level, games) in runs {
        let games: Vec<PlayedGame> = games
            .iter()
            .map(|&(scores, outcome)| played(mode, level, scores, outcome))
            .collect();
        let local = Ledger::of(&games);
        assert_eq!(local.changes.len(), games.len(), "every game rated");
        let mut store = SqliteStore::in_memory().expect("a store in memory");
        let (_, ada) = join(&mut store, "Ada");
        for (n, game) in games.iter().enumerate() {
            let seats = mode
                .each_seat()
                .map(|seat| {
                    let occupant = if seat == game.seat {
                        Occupant::Player(ada.id)
                    } else {
                        Occupant::Bot(level)
                    };
                    (occupant, game.scores[mode.side_of(seat).index()], false)
                })
                .collect();
            let finished = FinishedGame {
                mode,
                record: RecordHash([n as u8; 32]),
                finished: UnixTime(NOW.0 + n as i64),
                seats,
            };
            rate_game(&mut store, &finished).expect("rated");
        }
        let ladder: Vec<_> = (store.history(ada.id, mode).expect("a history"))
            .iter()
            .map(|entry| (entry.before, entry.after))
            .collect();
        let local: Vec<_> = (local.changes.iter())
            .map(|change| (change.before, change.after))
            .collect();
        assert_eq!(ladder, local, "{mode}");
    }
}
