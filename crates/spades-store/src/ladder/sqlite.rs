//! The ladder in one SQLite file: the embedded default. WAL, so readers
//! (the ladder, a history) never wait for the writer; foreign keys on; a
//! busy timeout, so a second process waits for the lock instead of
//! failing at once. The schema is a list of numbered steps (`MIGRATIONS`),
//! each applied in a transaction of its own with `PRAGMA user_version`
//! counting them. The SQL is kept to what PostgreSQL also reads where the
//! two agree (`RETURNING`, `BIGINT`, `DOUBLE PRECISION`); the row ids
//! (`INTEGER PRIMARY KEY`) are SQLite's own.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, OptionalExtension, Row, TransactionBehavior, params};

use crate::engine::Mode;
use crate::rating::Rating;

use super::UnixTime;
use super::keys::{Challenge, Nonce, PublicKey, ServerId};
use super::names::{Name, fold};
use super::store::{
    Account, AccountId, Database, GameId, GameWrites, HistoryEntry, LadderRow, Meeting, RatedGame,
    RatingChange, SeatRecord, Standing, Store, StoreError, count_opponents_sql, meetings_sql,
    unexpired, write_game,
};

/// Written in the file's header (`PRAGMA application_id`, "SPAD"): a
/// SQLite file of another program is told apart from a ladder.
const APPLICATION_ID: i64 = 0x5350_4144;

/// The schema, step by step: step `n` (from 1) takes a file at version
/// `n - 1` to `n`. Never edit a step once released; add one.
pub(crate) const MIGRATIONS: &[&str] = &[
    // 1: accounts, challenges, rated games and ratings.
    "CREATE TABLE accounts (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        folded TEXT NOT NULL UNIQUE,
        public_key BLOB NOT NULL UNIQUE,
        registered BIGINT NOT NULL
    );
    CREATE TABLE challenges (
        nonce BLOB PRIMARY KEY,
        server BLOB NOT NULL,
        expires BIGINT NOT NULL
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        mode TEXT NOT NULL,
        record_hash BLOB NOT NULL UNIQUE,
        finished BIGINT NOT NULL
    );
    CREATE TABLE seats (
        game INTEGER NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        account INTEGER REFERENCES accounts (id),
        bot TEXT,
        score INTEGER NOT NULL,
        left_early INTEGER NOT NULL,
        PRIMARY KEY (game, seat),
        CHECK ((account IS NULL) <> (bot IS NULL))
    );
    CREATE TABLE ratings (
        account INTEGER NOT NULL REFERENCES accounts (id),
        mode TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (account, mode)
    );
    CREATE TABLE rating_changes (
        game INTEGER NOT NULL REFERENCES games (id),
        account INTEGER NOT NULL REFERENCES accounts (id),
        before_rating DOUBLE PRECISION NOT NULL,
        before_deviation DOUBLE PRECISION NOT NULL,
        before_volatility DOUBLE PRECISION NOT NULL,
        after_rating DOUBLE PRECISION NOT NULL,
        after_deviation DOUBLE PRECISION NOT NULL,
        after_volatility DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game, account)
    );",
    // 2: key rotations are kept (who had which key when), and the ladder
    // and a player's history are read by index.
    "CREATE TABLE key_rotations (
        account INTEGER NOT NULL REFERENCES accounts (id),
        old_key BLOB NOT NULL,
        new_key BLOB NOT NULL,
        rotated BIGINT NOT NULL
    );
    CREATE INDEX ratings_by_mode ON ratings (mode, rating);
    CREATE INDEX rating_changes_by_account ON rating_changes (account);",
    // 3: how many different people each player met as opponents in a
    // mode, counted from the rated games kept, and the seats read by
    // account to count them.
    "CREATE INDEX seats_by_account ON seats (account);
    ALTER TABLE ratings ADD COLUMN opponents INTEGER NOT NULL DEFAULT 0;
    UPDATE ratings SET opponents = (
        SELECT COUNT(DISTINCT o.account)
        FROM seats s JOIN games g ON g.id = s.game JOIN seats o ON o.game = s.game
        WHERE s.account = ratings.account AND g.mode = ratings.mode
          AND o.account IS NOT NULL AND o.account <> s.account
          AND (g.mode <> 'partnership' OR (s.seat + o.seat) % 2 = 1));",
];

/// A ladder kept in one SQLite file.
pub struct SqliteStore {
    conn: Connection,
}

impl SqliteStore {
    /// The ladder in the file at `path`, made if there is none, and
    /// brought to the latest schema.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let conn = Connection::open(path).map_err(|e| not_a_database(path, &e))?;
        SqliteStore::prepared(conn, path)
    }

    /// A ladder in memory, gone when dropped: for tests.
    pub fn in_memory() -> Result<SqliteStore, StoreError> {
        let conn = Connection::open_in_memory().map_err(backend)?;
        SqliteStore::prepared(conn, Path::new(":memory:"))
    }

    fn prepared(mut conn: Connection, path: &Path) -> Result<SqliteStore, StoreError> {
        // The first read of the file: a file that is not a database fails
        // here, and is named.
        let version: i64 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(|e| not_a_database(path, &e))?;
        check_ours(&conn, path, version)?;
        check_whole(&conn, path)?;
        conn.busy_timeout(Duration::from_secs(5)).map_err(backend)?;
        conn.pragma_update(None, "foreign_keys", true)
            .map_err(backend)?;
        // In memory there is no WAL; the answer says which mode it is.
        let _: String = conn
            .pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))
            .map_err(|e| not_a_database(path, &e))?;
        migrate(&mut conn, version)?;
        Ok(SqliteStore { conn })
    }
}

fn backend(e: rusqlite::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

fn not_a_database(path: &Path, e: &rusqlite::Error) -> StoreError {
    StoreError::NotADatabase {
        at: Database::File(path.to_path_buf()),
        detail: e.to_string(),
    }
}

/// Refuses a file of another program, or of a newer spades.
fn check_ours(conn: &Connection, path: &Path, version: i64) -> Result<(), StoreError> {
    let id: i64 = conn
        .pragma_query_value(None, "application_id", |r| r.get(0))
        .map_err(|e| not_a_database(path, &e))?;
    let tables: i64 = conn
        .query_row("SELECT COUNT(*) FROM sqlite_master", [], |r| r.get(0))
        .map_err(|e| not_a_database(path, &e))?;
    let empty = version == 0 && id == 0 && tables == 0;
    if !empty && id != APPLICATION_ID {
        return Err(StoreError::Foreign(Database::File(path.to_path_buf())));
    }
    let known = MIGRATIONS.len() as i64;
    if version > known {
        return Err(StoreError::Newer {
            at: Database::File(path.to_path_buf()),
            found: version,
            known,
        });
    }
    Ok(())
}

/// Refuses a damaged file before anything is written to it. The quick
/// check reads every page; the full integrity check also matches every
/// index to its table, several times the work, growing with the ladder: a
/// cost paid at each start for damage the quick check mostly finds too.
fn check_whole(conn: &Connection, path: &Path) -> Result<(), StoreError> {
    // The first few problems say enough: the check stops there.
    const SAID: usize = 3;
    let mut statement = conn
        .prepare(&format!("PRAGMA quick_check({SAID})"))
        .map_err(|e| not_a_database(path, &e))?;
    let problems = statement
        .query_map([], |r| r.get::<_, String>(0))
        .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
        .map_err(|e| damaged(path, &e.to_string()))?;
    if problems.len() == 1 && problems[0] == "ok" {
        return Ok(());
    }
    let detail: Vec<String> = problems.iter().map(|p| crate::outside::clean(p)).collect();
    Err(damaged(path, &detail.join("; ")))
}

fn damaged(path: &Path, detail: &str) -> StoreError {
    StoreError::Damaged {
        at: Database::File(path.to_path_buf()),
        detail: detail.to_string(),
    }
}

/// Applies the steps after `version`, each in its own transaction with
/// the version it brings the file to.
fn migrate(conn: &mut Connection, version: i64) -> Result<(), StoreError> {
    for (done, step) in MIGRATIONS.iter().enumerate().skip(version.max(0) as usize) {
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(backend)?;
        tx.execute_batch(step).map_err(backend)?;
        tx.pragma_update(None, "application_id", APPLICATION_ID)
            .map_err(backend)?;
        tx.pragma_update(None, "user_version", done as i64 + 1)
            .map_err(backend)?;
        tx.commit().map_err(backend)?;
    }
    Ok(())
}

const ACCOUNT_COLUMNS: &str = "id, name, public_key, registered";

fn account(row: &Row) -> rusqlite::Result<Account> {
    let key: Vec<u8> = row.get(2)?;
    let key = PublicKey::from_bytes(&key).ok_or_else(|| {
        rusqlite::Error::FromSqlConversionFailure(
            2,
            rusqlite::types::Type::Blob,
            "a key of 32 bytes".into(),
        )
    })?;
    Ok(Account {
        id: AccountId(row.get(0)?),
        name: Name::stored(row.get(1)?),
        key,
        registered: UnixTime(row.get(3)?),
    })
}

/// Three columns from `first` on as a rating.
fn rating_at(row: &Row, first: usize) -> rusqlite::Result<Rating> {
    Ok(Rating {
        rating: row.get(first)?,
        deviation: row.get(first + 1)?,
        volatility: row.get(first + 2)?,
    })
}

impl SqliteStore {
    fn one_account(
        &mut self,
        filter: &str,
        value: &dyn rusqlite::ToSql,
    ) -> Result<Option<Account>, StoreError> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE {filter} = ?1");
        self.conn
            .query_row(&sql, [value], account)
            .optional()
            .map_err(backend)
    }
}

impl Store for SqliteStore {
    fn register(
        &mut self,
        name: &Name,
        key: &PublicKey,
        now: UnixTime,
    ) -> Result<Account, StoreError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(backend)?;
        let exists = |sql: &str, value: &dyn rusqlite::ToSql| {
            tx.query_row(sql, [value], |_| Ok(()))
                .optional()
                .map(|found| found.is_some())
                .map_err(backend)
        };
        if exists("SELECT 1 FROM accounts WHERE folded = ?1", &name.folded())? {
            return Err(StoreError::NameTaken(name.shown().to_string()));
        }
        let key_bytes = key.as_bytes().as_slice();
        if exists("SELECT 1 FROM accounts WHERE public_key = ?1", &key_bytes)? {
            return Err(StoreError::KeyTaken);
        }
        let id = tx
            .query_row(
                "INSERT INTO accounts (name, folded, public_key, registered)
                 VALUES (?1, ?2, ?3, ?4) RETURNING id",
                params![name.shown(), name.folded(), key_bytes, now.0],
                |r| r.get(0),
            )
            .map_err(backend)?;
        tx.commit().map_err(backend)?;
        Ok(Account {
            id: AccountId(id),
            name: name.clone(),
            key: *key,
            registered: now,
        })
    }

    fn account_by_name(&mut self, name: &str) -> Result<Option<Account>, StoreError> {
        self.one_account("folded", &fold(name))
    }

    fn account_by_key(&mut self, key: &PublicKey) -> Result<Option<Account>, StoreError> {
        self.one_account("public_key", &key.as_bytes().as_slice())
    }

    fn rotate_key(
        &mut self,
        account: AccountId,
        new: &PublicKey,
        now: UnixTime,
    ) -> Result<(), StoreError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(backend)?;
        let old: Vec<u8> = tx
            .query_row(
                "SELECT public_key FROM accounts WHERE id = ?1",
                [account.0],
                |r| r.get(0),
            )
            .optional()
            .map_err(backend)?
            .ok_or(StoreError::NoAccount)?;
        let new = new.as_bytes().as_slice();
        tx.execute(
            "UPDATE accounts SET public_key = ?1 WHERE id = ?2",
            params![new, account.0],
        )
        .map_err(|e| match e.sqlite_error_code() {
            Some(ErrorCode::ConstraintViolation) => StoreError::KeyTaken,
            _ => backend(e),
        })?;
        tx.execute(
            "INSERT INTO key_rotations (account, old_key, new_key, rotated) VALUES (?1, ?2, ?3, ?4)",
            params![account.0, old, new, now.0],
        )
        .map_err(backend)?;
        tx.commit().map_err(backend)
    }

    fn issue_challenge(&mut self, challenge: &Challenge, now: UnixTime) -> Result<(), StoreError> {
        // Challenges never answered would pile up: each new one sweeps the
        // expired away.
        self.conn
            .execute("DELETE FROM challenges WHERE expires < ?1", [now.0])
            .map_err(backend)?;
        self.conn
            .execute(
                "INSERT INTO challenges (nonce, server, expires) VALUES (?1, ?2, ?3)",
                params![
                    challenge.nonce.0.as_slice(),
                    challenge.server.0.as_slice(),
                    challenge.expires.0
                ],
            )
            .map_err(backend)?;
        Ok(())
    }

    fn spend_challenge(
        &mut self,
        server: &ServerId,
        nonce: &Nonce,
        now: UnixTime,
    ) -> Result<Challenge, StoreError> {
        // One statement takes it out and says what it was: two answers to
        // one challenge cannot both find it.
        let expires: i64 = self
            .conn
            .query_row(
                "DELETE FROM challenges WHERE nonce = ?1 AND server = ?2 RETURNING expires",
                params![nonce.0.as_slice(), server.0.as_slice()],
                |r| r.get(0),
            )
            .optional()
            .map_err(backend)?
            .ok_or(StoreError::UnknownChallenge)?;
        unexpired(server, nonce, UnixTime(expires), now)
    }

    fn standing(&mut self, account: AccountId, mode: Mode) -> Result<Standing, StoreError> {
        let found = self
            .conn
            .query_row(
                "SELECT rating, deviation, volatility, games, opponents FROM ratings
                 WHERE account = ?1 AND mode = ?2",
                params![account.0, mode.name()],
                |r| {
                    Ok(Standing {
                        rating: rating_at(r, 0)?,
                        games: r.get(3)?,
                        opponents: r.get(4)?,
                    })
                },
            )
            .optional()
            .map_err(backend)?;
        Ok(found.unwrap_or_else(Standing::new_player))
    }

    fn record_game(&mut self, game: &RatedGame) -> Result<GameId, StoreError> {
        let mut tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(backend)?;
        let id = write_game(&mut tx, game)?;
        // Dropped before this, the transaction rolls back: all or nothing.
        tx.commit().map_err(backend)?;
        Ok(id)
    }

    fn meetings(
        &mut self,
        account: AccountId,
        mode: Mode,
        since: UnixTime,
    ) -> Result<Vec<Meeting>, StoreError> {
        let mut statement = self
            .conn
            .prepare(&meetings_sql(["?1", "?2", "?3"]))
            .map_err(backend)?;
        let rows = statement
            .query_map(params![account.0, mode.name(), since.0], |r| {
                Ok(Meeting {
                    opponent: AccountId(r.get(0)?),
                    games: r.get(1)?,
                })
            })
            .map_err(backend)?;
        rows.collect::<Result<_, _>>().map_err(backend)
    }

    fn ladder(&mut self, mode: Mode) -> Result<Vec<LadderRow>, StoreError> {
        let mut statement = self
            .conn
            .prepare(
                "SELECT a.name, r.rating, r.deviation, r.volatility, r.games, r.opponents
                 FROM ratings r JOIN accounts a ON a.id = r.account
                 WHERE r.mode = ?1 ORDER BY r.rating DESC, a.name ASC",
            )
            .map_err(backend)?;
        let rows = statement
            .query_map([mode.name()], |r| {
                Ok(LadderRow {
                    rank: 0,
                    name: r.get(0)?,
                    rating: rating_at(r, 1)?,
                    games: r.get(4)?,
                    opponents: r.get(5)?,
                })
            })
            .map_err(backend)?;
        rows.enumerate()
            .map(|(i, row)| row.map(|row| LadderRow { rank: i + 1, ..row }))
            .collect::<Result<_, _>>()
            .map_err(backend)
    }

    fn history(&mut self, account: AccountId, mode: Mode) -> Result<Vec<HistoryEntry>, StoreError> {
        let mut statement = self
            .conn
            .prepare(
                "SELECT g.id, g.finished, c.before_rating, c.before_deviation,
                        c.before_volatility, c.after_rating, c.after_deviation,
                        c.after_volatility
                 FROM rating_changes c JOIN games g ON g.id = c.game
                 WHERE c.account = ?1 AND g.mode = ?2 ORDER BY g.finished, g.id",
            )
            .map_err(backend)?;
        let rows = statement
            .query_map(params![account.0, mode.name()], |r| {
                Ok(HistoryEntry {
                    game: GameId(r.get(0)?),
                    mode,
                    finished: UnixTime(r.get(1)?),
                    before: rating_at(r, 2)?,
                    after: rating_at(r, 5)?,
                })
            })
            .map_err(backend)?;
        rows.collect::<Result<_, _>>().map_err(backend)
    }
}

/// A rated game's statements in SQLite's words (see `write_game`).
impl GameWrites for rusqlite::Transaction<'_> {
    fn add_game(&mut self, game: &RatedGame) -> Result<GameId, StoreError> {
        let hash = game.record.0.as_slice();
        let rated = self
            .query_row("SELECT 1 FROM games WHERE record_hash = ?1", [hash], |_| {
                Ok(())
            })
            .optional()
            .map_err(backend)?;
        if rated.is_some() {
            return Err(StoreError::AlreadyRated);
        }
        self.query_row(
            "INSERT INTO games (mode, record_hash, finished) VALUES (?1, ?2, ?3) RETURNING id",
            params![game.mode.name(), hash, game.finished.0],
            |r| r.get(0).map(GameId),
        )
        .map_err(backend)
    }

    fn add_seat(&mut self, game: GameId, seat: &SeatRecord) -> Result<(), StoreError> {
        let (account, bot) = seat.occupant.columns();
        self.execute(
            "INSERT INTO seats (game, seat, account, bot, score, left_early)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                game.0,
                seat.seat.index() as i64,
                account,
                bot,
                seat.score,
                seat.left
            ],
        )
        .map_err(|e| match e.sqlite_error_code() {
            // A seat's account the ladder does not have (the only
            // constraint a fresh game's seat can break): never to be rated.
            Some(ErrorCode::ConstraintViolation) => StoreError::NoAccount,
            _ => backend(e),
        })?;
        Ok(())
    }

    fn move_rating(&mut self, mode: Mode, change: &RatingChange) -> Result<bool, StoreError> {
        let a = change.after;
        let moved = self
            .execute(
                "UPDATE ratings SET rating = ?1, deviation = ?2, volatility = ?3, games = games + 1
                 WHERE account = ?4 AND mode = ?5 AND games = ?6",
                params![
                    a.rating,
                    a.deviation,
                    a.volatility,
                    change.account.0,
                    mode.name(),
                    change.games_before
                ],
            )
            .map_err(backend)?;
        Ok(moved > 0)
    }

    fn first_rating(&mut self, mode: Mode, change: &RatingChange) -> Result<(), StoreError> {
        let a = change.after;
        self.execute(
            "INSERT INTO ratings (account, mode, rating, deviation, volatility, games)
             VALUES (?1, ?2, ?3, ?4, ?5, 1)",
            params![
                change.account.0,
                mode.name(),
                a.rating,
                a.deviation,
                a.volatility
            ],
        )
        .map_err(|e| match e.sqlite_error_code() {
            // A row was there after all, with games of its own.
            Some(ErrorCode::ConstraintViolation) if has_rating(self, change, mode) => {
                StoreError::Stale
            }
            _ => backend(e),
        })?;
        Ok(())
    }

    fn add_change(&mut self, game: GameId, change: &RatingChange) -> Result<(), StoreError> {
        let (a, b) = (change.after, change.before);
        self.execute(
            "INSERT INTO rating_changes (game, account, before_rating, before_deviation,
                before_volatility, after_rating, after_deviation, after_volatility)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                game.0,
                change.account.0,
                b.rating,
                b.deviation,
                b.volatility,
                a.rating,
                a.deviation,
                a.volatility
            ],
        )
        .map_err(backend)?;
        Ok(())
    }

    fn count_opponents(&mut self, account: AccountId, mode: Mode) -> Result<(), StoreError> {
        self.execute(
            &count_opponents_sql("account = ?1 AND mode = ?2"),
            params![account.0, mode.name()],
        )
        .map_err(backend)?;
        Ok(())
    }
}

fn has_rating(tx: &rusqlite::Transaction, change: &RatingChange, mode: Mode) -> bool {
    tx.query_row(
        "SELECT 1 FROM ratings WHERE account = ?1 AND mode = ?2",
        params![change.account.0, mode.name()],
        |_| Ok(()),
    )
    .is_ok()
}
