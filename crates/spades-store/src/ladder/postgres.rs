//! The ladder in a PostgreSQL database, for several servers sharing one
//! ladder. The tables mean what SQLite's do (`sqlite.rs`); the schema's
//! version is kept in a table of its own (`spades_schema`), and the steps
//! are applied under an advisory lock, so two servers starting at once do
//! not both apply them.
//!
//! The connection is plain (no TLS): the database must be on this machine
//! (loopback) or on a private network the servers alone reach.
//!
//! Two servers rating from the same old rating: the rating's update
//! carries the game count it was worked from (`WHERE games = n`). Under
//! READ COMMITTED an update that waited for another writer's row lock
//! checks its condition again on the row that writer committed, so the
//! second finds no row and the game is refused as `Stale`, whole; a first
//! rating inserted twice meets the primary key, and is `Stale` too.

use std::time::Duration;

use postgres::error::SqlState;
use postgres::{Client, NoTls, Row, Transaction};

use crate::engine::Mode;
use crate::rating::Rating;

use super::UnixTime;
use super::keys::{Challenge, Nonce, PublicKey, ServerId};
use super::names::{Name, fold};
use super::store::postgres_url::with_cause;
use super::store::{
    Account, AccountId, Database, GameId, GameWrites, HistoryEntry, LadderRow, Meeting,
    PostgresUrl, RatedGame, RatingChange, SeatRecord, Standing, Store, StoreError,
    count_opponents_sql, meetings_sql, unexpired, write_game,
};

/// The schema, step by step: step `n` (from 1) takes a database at version
/// `n - 1` to `n`. Never edit a step once released; add one. The first is
/// SQLite's first two in one.
pub(crate) const MIGRATIONS: &[&str] = &[
    "CREATE TABLE accounts (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name TEXT NOT NULL,
        folded TEXT NOT NULL CONSTRAINT accounts_folded_unique UNIQUE,
        public_key BYTEA NOT NULL CONSTRAINT accounts_key_unique UNIQUE,
        registered BIGINT NOT NULL
    );
    CREATE TABLE challenges (
        nonce BYTEA PRIMARY KEY,
        server BYTEA NOT NULL,
        expires BIGINT NOT NULL
    );
    CREATE INDEX challenges_by_expiry ON challenges (expires);
    CREATE TABLE games (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        mode TEXT NOT NULL,
        record_hash BYTEA NOT NULL CONSTRAINT games_record_unique UNIQUE,
        finished BIGINT NOT NULL
    );
    CREATE TABLE seats (
        game BIGINT NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        account BIGINT REFERENCES accounts (id),
        bot TEXT,
        score INTEGER NOT NULL,
        left_early BOOLEAN NOT NULL,
        PRIMARY KEY (game, seat),
        CHECK ((account IS NULL) <> (bot IS NULL))
    );
    CREATE TABLE ratings (
        account BIGINT NOT NULL REFERENCES accounts (id),
        mode TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        CONSTRAINT ratings_once PRIMARY KEY (account, mode)
    );
    CREATE TABLE rating_changes (
        game BIGINT NOT NULL REFERENCES games (id),
        account BIGINT NOT NULL REFERENCES accounts (id),
        before_rating DOUBLE PRECISION NOT NULL,
        before_deviation DOUBLE PRECISION NOT NULL,
        before_volatility DOUBLE PRECISION NOT NULL,
        after_rating DOUBLE PRECISION NOT NULL,
        after_deviation DOUBLE PRECISION NOT NULL,
        after_volatility DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game, account)
    );
    CREATE TABLE key_rotations (
        account BIGINT NOT NULL REFERENCES accounts (id),
        old_key BYTEA NOT NULL,
        new_key BYTEA NOT NULL,
        rotated BIGINT NOT NULL
    );
    CREATE INDEX ratings_by_mode ON ratings (mode, rating);
    CREATE INDEX rating_changes_by_account ON rating_changes (account);",
    // 2: SQLite's third.
    "CREATE INDEX seats_by_account ON seats (account);
    ALTER TABLE ratings ADD COLUMN opponents INTEGER NOT NULL DEFAULT 0;
    UPDATE ratings SET opponents = (
        SELECT COUNT(DISTINCT o.account)
        FROM seats s JOIN games g ON g.id = s.game JOIN seats o ON o.game = s.game
        WHERE s.account = ratings.account AND g.mode = ratings.mode
          AND o.account IS NOT NULL AND o.account <> s.account
          AND (g.mode <> 'partnership' OR (s.seat + o.seat) % 2 = 1));",
    // 3: the fleet's public tables (`fleet.rs`). Unlogged: a listing of
    // tables that live in the nodes' memory is worth nothing after a
    // crash of the database, and each node writes its own again.
    "CREATE UNLOGGED TABLE fleet_nodes (
        node TEXT PRIMARY KEY,
        server TEXT NOT NULL,
        joined TIMESTAMPTZ NOT NULL,
        heard TIMESTAMPTZ NOT NULL
    );
    CREATE UNLOGGED TABLE fleet_tables (
        node TEXT NOT NULL REFERENCES fleet_nodes (node) ON DELETE CASCADE,
        table_id TEXT NOT NULL,
        opened BIGINT NOT NULL,
        listing TEXT NOT NULL,
        PRIMARY KEY (node, table_id)
    );",
];

/// The table that says a database is a ladder, and at which version.
const SCHEMA_TABLE: &str = "spades_schema";

/// The advisory lock the schema's steps are applied under ("SPAD").
const MIGRATION_LOCK: i64 = 0x5350_4144;

/// How long a connection may take, and one statement: a database gone
/// quiet fails the request instead of holding the ladder's thread.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
const STATEMENT_TIMEOUT_MS: u32 = 10_000;

/// A ladder kept in a PostgreSQL database.
pub struct PostgresStore {
    url: PostgresUrl,
    client: Client,
}

impl PostgresStore {
    /// The ladder in the database at `url`, its tables made if it has
    /// none, and brought to the latest schema.
    pub fn open(url: &PostgresUrl) -> Result<PostgresStore, StoreError> {
        let mut client = connect(url)?;
        prepare(&mut client, url)?;
        Ok(PostgresStore {
            url: url.clone(),
            client,
        })
    }

    /// The connection, made again if the database closed it (restarted,
    /// or a network between them broke).
    fn client(&mut self) -> Result<&mut Client, StoreError> {
        if self.client.is_closed() {
            self.client = connect(&self.url)?;
        }
        Ok(&mut self.client)
    }

    fn one_account(
        &mut self,
        filter: &str,
        value: &(dyn postgres::types::ToSql + Sync),
    ) -> Result<Option<Account>, StoreError> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE {filter} = $1");
        let row = self.client()?.query_opt(&sql, &[value]).map_err(backend)?;
        row.as_ref().map(account).transpose()
    }
}

pub(crate) fn connect(url: &PostgresUrl) -> Result<Client, StoreError> {
    let mut config = url.config().clone();
    // Read at each connection, as libpq does: a password changed in the
    // file is taken at the next reconnection.
    if config.get_password().is_none()
        && let Some(password) = libpq_password(&config)
    {
        config.password(password);
    }
    // The address's own options are kept, the bound added after them.
    let options = format!(
        "{} -c statement_timeout={STATEMENT_TIMEOUT_MS}",
        config.get_options().unwrap_or_default()
    );
    config
        .connect_timeout(CONNECT_TIMEOUT)
        .application_name("spades serve")
        .options(options.trim_start());
    config.connect(NoTls).map_err(|e| StoreError::CannotOpen {
        at: Database::Postgres(url.clone()),
        detail: detail(&e),
    })
}

/// The password libpq would find for `config`'s first host (see `pgpass`).
fn libpq_password(config: &postgres::Config) -> Option<String> {
    let host = match config.get_hosts().first() {
        Some(postgres::config::Host::Tcp(name)) => name.as_str(),
        // A socket's folder is matched as `localhost`, as libpq does.
        _ => "localhost",
    };
    let os_user = std::env::var("USER").unwrap_or_default();
    let user = config.get_user().unwrap_or(&os_user);
    super::pgpass::password(&super::pgpass::Wanted {
        host,
        port: config.get_ports().first().copied().unwrap_or(5432),
        database: config.get_dbname().unwrap_or(user),
        user,
    })
}

/// Refuses a database of another program or of a newer spades, and
/// applies the steps after its version, under the lock, in one
/// transaction: a step half applied is never seen.
fn prepare(client: &mut Client, url: &PostgresUrl) -> Result<(), StoreError> {
    let mut tx = client.transaction().map_err(backend)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .map_err(backend)?;
    let version = version(&mut tx, url)?;
    let known = MIGRATIONS.len() as i64;
    if version > known {
        return Err(StoreError::Newer {
            at: Database::Postgres(url.clone()),
            found: version,
            known,
        });
    }
    if version == known {
        return Ok(());
    }
    if version == 0 {
        tx.batch_execute(&format!(
            "CREATE TABLE {SCHEMA_TABLE} (version BIGINT NOT NULL);
             INSERT INTO {SCHEMA_TABLE} (version) VALUES (0);"
        ))
        .map_err(backend)?;
    }
    for step in MIGRATIONS.iter().skip(version.max(0) as usize) {
        tx.batch_execute(step).map_err(backend)?;
    }
    tx.execute(
        &format!("UPDATE {SCHEMA_TABLE} SET version = $1"),
        &[&known],
    )
    .map_err(backend)?;
    tx.commit().map_err(backend)
}

/// The database's schema version: 0 for an empty one; a database with
/// tables of its own but no version is another program's.
fn version(tx: &mut Transaction, url: &PostgresUrl) -> Result<i64, StoreError> {
    let ours: bool = tx
        .query_one("SELECT to_regclass($1) IS NOT NULL", &[&SCHEMA_TABLE])
        .and_then(|r| r.try_get(0))
        .map_err(backend)?;
    if ours {
        let sql = format!("SELECT version FROM {SCHEMA_TABLE}");
        let row = tx.query_opt(&sql, &[]).map_err(backend)?;
        return match row {
            Some(row) => row.try_get(0).map_err(backend),
            None => Err(StoreError::Foreign(Database::Postgres(url.clone()))),
        };
    }
    let tables: i64 = tx
        .query_one(
            "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema()",
            &[],
        )
        .and_then(|r| r.try_get(0))
        .map_err(backend)?;
    if tables > 0 {
        return Err(StoreError::Foreign(Database::Postgres(url.clone())));
    }
    Ok(0)
}

/// The database's own words for what went wrong, where it said any.
fn detail(e: &postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => db.message().to_string(),
        None => with_cause(e),
    }
}

pub(crate) fn backend(e: postgres::Error) -> StoreError {
    // Two writers that locked each other's rows: one is refused, and its
    // game is rated again from the ratings the other wrote.
    let lost_a_race = [
        SqlState::T_R_DEADLOCK_DETECTED,
        SqlState::T_R_SERIALIZATION_FAILURE,
    ];
    if e.code().is_some_and(|code| lost_a_race.contains(code)) {
        return StoreError::Stale;
    }
    StoreError::Backend(detail(&e))
}

/// The unique constraint `e` broke, if that is what it was.
fn broken_unique(e: &postgres::Error) -> Option<&str> {
    e.as_db_error()
        .filter(|db| *db.code() == SqlState::UNIQUE_VIOLATION)
        .and_then(|db| db.constraint())
}

/// `e`, or `instead` when it broke the unique constraint `constraint`.
fn unique_or(constraint: &str, instead: StoreError) -> impl FnOnce(postgres::Error) -> StoreError {
    move |e| {
        if broken_unique(&e) == Some(constraint) {
            instead
        } else {
            backend(e)
        }
    }
}

const ACCOUNT_COLUMNS: &str = "id, name, public_key, registered";

fn account(row: &Row) -> Result<Account, StoreError> {
    let key: Vec<u8> = row.try_get(2).map_err(backend)?;
    let key = PublicKey::from_bytes(&key)
        .ok_or_else(|| StoreError::Backend("an account's key is not 32 bytes".into()))?;
    Ok(Account {
        id: AccountId(row.try_get(0).map_err(backend)?),
        name: Name::stored(row.try_get(1).map_err(backend)?),
        key,
        registered: UnixTime(row.try_get(3).map_err(backend)?),
    })
}

/// Three columns from `first` on as a rating.
fn rating_at(row: &Row, first: usize) -> Result<Rating, StoreError> {
    Ok(Rating {
        rating: row.try_get(first).map_err(backend)?,
        deviation: row.try_get(first + 1).map_err(backend)?,
        volatility: row.try_get(first + 2).map_err(backend)?,
    })
}

/// A count as PostgreSQL's INTEGER keeps it.
fn games_column(row: &Row, at: usize) -> Result<u32, StoreError> {
    let games: i32 = row.try_get(at).map_err(backend)?;
    u32::try_from(games).map_err(|_| StoreError::Backend(format!("a game count of {games}")))
}

fn as_integer(games: u32) -> Result<i32, StoreError> {
    i32::try_from(games).map_err(|_| StoreError::Backend(format!("a game count of {games}")))
}

impl Store for PostgresStore {
    fn register(
        &mut self,
        name: &Name,
        key: &PublicKey,
        now: UnixTime,
    ) -> Result<Account, StoreError> {
        let key_bytes = key.as_bytes().as_slice();
        let folded = name.folded();
        // The constraints decide, so two servers registering one name at
        // once cannot both succeed.
        let row = self
            .client()?
            .query_one(
                "INSERT INTO accounts (name, folded, public_key, registered)
                 VALUES ($1, $2, $3, $4) RETURNING id",
                &[&name.shown(), &folded, &key_bytes, &now.0],
            )
            .map_err(|e| match broken_unique(&e) {
                Some("accounts_folded_unique") => StoreError::NameTaken(name.shown().to_string()),
                Some("accounts_key_unique") => StoreError::KeyTaken,
                _ => backend(e),
            })?;
        Ok(Account {
            id: AccountId(row.try_get(0).map_err(backend)?),
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
        let mut tx = self.client()?.transaction().map_err(backend)?;
        let old: Vec<u8> = tx
            .query_opt(
                "SELECT public_key FROM accounts WHERE id = $1 FOR UPDATE",
                &[&account.0],
            )
            .map_err(backend)?
            .ok_or(StoreError::NoAccount)?
            .try_get(0)
            .map_err(backend)?;
        let new = new.as_bytes().as_slice();
        tx.execute(
            "UPDATE accounts SET public_key = $1 WHERE id = $2",
            &[&new, &account.0],
        )
        .map_err(unique_or("accounts_key_unique", StoreError::KeyTaken))?;
        tx.execute(
            "INSERT INTO key_rotations (account, old_key, new_key, rotated)
             VALUES ($1, $2, $3, $4)",
            &[&account.0, &old, &new, &now.0],
        )
        .map_err(backend)?;
        tx.commit().map_err(backend)
    }

    fn issue_challenge(&mut self, challenge: &Challenge, now: UnixTime) -> Result<(), StoreError> {
        let client = self.client()?;
        // Challenges never answered would pile up: each new one sweeps the
        // expired away.
        client
            .execute("DELETE FROM challenges WHERE expires < $1", &[&now.0])
            .map_err(backend)?;
        client
            .execute(
                "INSERT INTO challenges (nonce, server, expires) VALUES ($1, $2, $3)",
                &[
                    &challenge.nonce.0.as_slice(),
                    &challenge.server.0.as_slice(),
                    &challenge.expires.0,
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
        // one challenge, even at two servers, cannot both find it.
        let expires: i64 = self
            .client()?
            .query_opt(
                "DELETE FROM challenges WHERE nonce = $1 AND server = $2 RETURNING expires",
                &[&nonce.0.as_slice(), &server.0.as_slice()],
            )
            .map_err(backend)?
            .ok_or(StoreError::UnknownChallenge)?
            .try_get(0)
            .map_err(backend)?;
        unexpired(server, nonce, UnixTime(expires), now)
    }

    fn standing(&mut self, account: AccountId, mode: Mode) -> Result<Standing, StoreError> {
        let row = self
            .client()?
            .query_opt(
                "SELECT rating, deviation, volatility, games, opponents FROM ratings
                 WHERE account = $1 AND mode = $2",
                &[&account.0, &mode.name()],
            )
            .map_err(backend)?;
        match row {
            None => Ok(Standing::new_player()),
            Some(row) => Ok(Standing {
                rating: rating_at(&row, 0)?,
                games: games_column(&row, 3)?,
                opponents: games_column(&row, 4)?,
            }),
        }
    }

    fn record_game(&mut self, game: &RatedGame) -> Result<GameId, StoreError> {
        let mut tx = self.client()?.transaction().map_err(backend)?;
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
        let rows = self
            .client()?
            .query(
                &meetings_sql(["$1", "$2", "$3"]),
                &[&account.0, &mode.name(), &since.0],
            )
            .map_err(backend)?;
        rows.iter()
            .map(|row| {
                let games: i64 = row.try_get(1).map_err(backend)?;
                Ok(Meeting {
                    opponent: AccountId(row.try_get(0).map_err(backend)?),
                    games: u32::try_from(games)
                        .map_err(|_| StoreError::Backend(format!("a game count of {games}")))?,
                })
            })
            .collect()
    }

    fn ladder(&mut self, mode: Mode) -> Result<Vec<LadderRow>, StoreError> {
        let rows = self
            .client()?
            .query(
                "SELECT a.name, r.rating, r.deviation, r.volatility, r.games, r.opponents
                 FROM ratings r JOIN accounts a ON a.id = r.account
                 WHERE r.mode = $1 ORDER BY r.rating DESC, a.name COLLATE \"C\" ASC",
                &[&mode.name()],
            )
            .map_err(backend)?;
        rows.iter()
            .enumerate()
            .map(|(i, row)| {
                Ok(LadderRow {
                    rank: i + 1,
                    name: row.try_get(0).map_err(backend)?,
                    rating: rating_at(row, 1)?,
                    games: games_column(row, 4)?,
                    opponents: games_column(row, 5)?,
                })
            })
            .collect()
    }

    fn history(&mut self, account: AccountId, mode: Mode) -> Result<Vec<HistoryEntry>, StoreError> {
        let rows = self
            .client()?
            .query(
                "SELECT g.id, g.finished, c.before_rating, c.before_deviation,
                        c.before_volatility, c.after_rating, c.after_deviation,
                        c.after_volatility
                 FROM rating_changes c JOIN games g ON g.id = c.game
                 WHERE c.account = $1 AND g.mode = $2 ORDER BY g.finished, g.id",
                &[&account.0, &mode.name()],
            )
            .map_err(backend)?;
        rows.iter()
            .map(|row| {
                Ok(HistoryEntry {
                    game: GameId(row.try_get(0).map_err(backend)?),
                    mode,
                    finished: UnixTime(row.try_get(1).map_err(backend)?),
                    before: rating_at(row, 2)?,
                    after: rating_at(row, 5)?,
                })
            })
            .collect()
    }
}

/// A rated game's statements in PostgreSQL's words (see `write_game`).
impl GameWrites for Transaction<'_> {
    fn add_game(&mut self, game: &RatedGame) -> Result<GameId, StoreError> {
        let row = self
            .query_one(
                "INSERT INTO games (mode, record_hash, finished) VALUES ($1, $2, $3) RETURNING id",
                &[
                    &game.mode.name(),
                    &game.record.0.as_slice(),
                    &game.finished.0,
                ],
            )
            .map_err(unique_or("games_record_unique", StoreError::AlreadyRated))?;
        row.try_get(0).map(GameId).map_err(backend)
    }

    fn add_seat(&mut self, game: GameId, seat: &SeatRecord) -> Result<(), StoreError> {
        let (account, bot) = seat.occupant.columns();
        let index = i32::try_from(seat.seat.index())
            .map_err(|_| StoreError::Backend("a seat past the table".into()))?;
        self.execute(
            "INSERT INTO seats (game, seat, account, bot, score, left_early)
             VALUES ($1, $2, $3, $4, $5, $6)",
            &[&game.0, &index, &account, &bot, &seat.score, &seat.left],
        )
        .map_err(|e| match e.code() {
            // A seat's account the ladder does not have: never to be rated.
            Some(&SqlState::FOREIGN_KEY_VIOLATION) => StoreError::NoAccount,
            _ => backend(e),
        })?;
        Ok(())
    }

    fn move_rating(&mut self, mode: Mode, change: &RatingChange) -> Result<bool, StoreError> {
        let a = change.after;
        let moved = self
            .execute(
                "UPDATE ratings SET rating = $1, deviation = $2, volatility = $3, games = games + 1
                 WHERE account = $4 AND mode = $5 AND games = $6",
                &[
                    &a.rating,
                    &a.deviation,
                    &a.volatility,
                    &change.account.0,
                    &mode.name(),
                    &as_integer(change.games_before)?,
                ],
            )
            .map_err(backend)?;
        Ok(moved > 0)
    }

    fn first_rating(&mut self, mode: Mode, change: &RatingChange) -> Result<(), StoreError> {
        let a = change.after;
        // A row there already (rated meanwhile) breaks the primary key.
        self.execute(
            "INSERT INTO ratings (account, mode, rating, deviation, volatility, games)
             VALUES ($1, $2, $3, $4, $5, 1)",
            &[
                &change.account.0,
                &mode.name(),
                &a.rating,
                &a.deviation,
                &a.volatility,
            ],
        )
        .map_err(unique_or("ratings_once", StoreError::Stale))?;
        Ok(())
    }

    fn add_change(&mut self, game: GameId, change: &RatingChange) -> Result<(), StoreError> {
        let (a, b) = (change.after, change.before);
        self.execute(
            "INSERT INTO rating_changes (game, account, before_rating, before_deviation,
                before_volatility, after_rating, after_deviation, after_volatility)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            &[
                &game.0,
                &change.account.0,
                &b.rating,
                &b.deviation,
                &b.volatility,
                &a.rating,
                &a.deviation,
                &a.volatility,
            ],
        )
        .map_err(backend)?;
        Ok(())
    }

    fn count_opponents(&mut self, account: AccountId, mode: Mode) -> Result<(), StoreError> {
        self.execute(
            &count_opponents_sql("account = $1 AND mode = $2"),
            &[&account.0, &mode.name()],
        )
        .map_err(backend)?;
        Ok(())
    }
}
