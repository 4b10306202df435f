//! The ladder of a `spades serve`: accounts (a name and a public key, no
//! password), signing in by signing the server's challenge, and rated
//! games with a Glicko-2 rating per player per mode, kept in a `Store`
//! (SQLite by default, PostgreSQL for servers sharing one ladder; each
//! built in by the crate's feature of its name). No networking here: the
//! server calls these.

pub mod farming;
#[cfg(test)]
mod farming_tests;
pub mod glicko;
pub mod keyring;
pub mod keys;
pub mod names;
pub mod outbox;
// What both stores share goes unused in a build with neither (one made
// for the screen alone, `spades-tui`'s own).
#[cfg_attr(not(any(feature = "sqlite", feature = "postgres")), allow(dead_code))]
pub mod store;
#[cfg(test)]
mod test_accounts;
#[cfg(test)]
mod tests;
mod weak_keys;

// Each database is built in by the feature of its name (`store::Backend`).
#[cfg(feature = "sqlite")]
pub mod sqlite;
#[cfg(all(test, feature = "sqlite"))]
mod sqlite_tests;
// A child process of the test's own.
#[cfg(all(test, unix, feature = "sqlite"))]
mod crash_tests;

#[cfg(feature = "postgres")]
pub mod fleet;
#[cfg(feature = "postgres")]
pub mod pgpass;
#[cfg(feature = "postgres")]
pub mod postgres;
// A PostgreSQL server of the test's own.
#[cfg(all(test, unix, feature = "postgres"))]
mod postgres_tests;
#[cfg(all(unix, feature = "postgres", any(test, feature = "test-postgres")))]
pub mod temp_postgres;

use crate::engine::{Mode, Seat};

use crate::rating::period::{self, SeatResult, Sitter, Unratable};
use keys::{Challenge, KeyError, Rotation, ServerId, SignIn};
use names::{Name, NameError};
use store::{
    Account, Database, GameId, Occupant, RatedGame, RatingChange, RecordHash, SeatRecord, Store,
    StoreError,
};

/// Seconds since the Unix epoch: the server's clock, passed in, so that
/// tests can set it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UnixTime(pub i64);

impl UnixTime {
    pub fn now() -> UnixTime {
        let since = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        UnixTime(i64::try_from(since.as_secs()).unwrap_or(i64::MAX))
    }

    pub fn plus(self, seconds: i64) -> UnixTime {
        UnixTime(self.0.saturating_add(seconds))
    }
}

/// The store `db` names, opened and brought to the latest schema; a
/// database of a kind this build lacks is refused, naming the feature
/// that builds it in.
pub fn open(db: &Database) -> Result<Box<dyn Store + Send>, StoreError> {
    match db {
        #[cfg(feature = "sqlite")]
        Database::File(path) => Ok(Box::new(sqlite::SqliteStore::open(path)?)),
        #[cfg(not(feature = "sqlite"))]
        Database::File(_) => Err(StoreError::NotBuiltIn(store::Backend::Sqlite)),
        #[cfg(feature = "postgres")]
        Database::Postgres(url) => Ok(Box::new(self::postgres::PostgresStore::open(url)?)),
        // Never made in such a build: `Database::given` refuses the address.
        #[cfg(not(feature = "postgres"))]
        Database::Postgres(url) => match *url {},
    }
}

/// How long a sign-in challenge may be answered: long enough for a slow
/// link, short enough that one seen in passing is soon worthless.
pub const CHALLENGE_SECONDS: i64 = 60;

/// Why a ladder's request was refused.
#[derive(Debug, thiserror::Error)]
pub enum LadderError {
    #[error(transparent)]
    Name(#[from] NameError),
    #[error(transparent)]
    Key(#[from] KeyError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the signature does not match the key: sign in again")]
    BadSignature,
    /// A key or signature no honest player has, refused before it is
    /// checked.
    #[error("{0}: make a key with spades")]
    Weak(#[from] keys::Weakness),
    #[error("no account has this key: register first")]
    NoAccount,
    #[error(transparent)]
    Unratable(#[from] Unratable),
}

/// A fresh challenge for a player to sign, kept until answered or expired.
pub fn challenge<S: Store + ?Sized>(
    store: &mut S,
    server: ServerId,
    now: UnixTime,
) -> Result<Challenge, LadderError> {
    let challenge = Challenge::fresh(server, now.plus(CHALLENGE_SECONDS))?;
    store.issue_challenge(&challenge, now)?;
    Ok(challenge)
}

/// Spends the answer's challenge (once, whether the signature holds or
/// not: a wrong answer cannot be tried again) and checks the signature.
fn check_answer<S: Store + ?Sized>(
    store: &mut S,
    server: &ServerId,
    answer: &SignIn,
    now: UnixTime,
) -> Result<(), LadderError> {
    let challenge = store.spend_challenge(server, &answer.nonce, now)?;
    if let Some(weak) = answer.key.weakness().or(answer.signature.weakness()) {
        return Err(LadderError::Weak(weak));
    }
    if !answer.key.verifies(&challenge.message(), &answer.signature) {
        return Err(LadderError::BadSignature);
    }
    Ok(())
}

/// A new account for the key that signed `answer`, under the name `raw`
/// (cleaned, and refused if taken, too like a taken one, or a bot's).
pub fn register<S: Store + ?Sized>(
    store: &mut S,
    server: &ServerId,
    raw: &str,
    answer: &SignIn,
    now: UnixTime,
) -> Result<Account, LadderError> {
    // The name first: a name refused leaves the challenge to try another.
    let name = Name::new(raw)?;
    check_answer(store, server, answer, now)?;
    Ok(store.register(&name, &answer.key, now)?)
}

/// The account of the key that signed `answer`.
pub fn sign_in<S: Store + ?Sized>(
    store: &mut S,
    server: &ServerId,
    answer: &SignIn,
    now: UnixTime,
) -> Result<Account, LadderError> {
    check_answer(store, server, answer, now)?;
    store
        .account_by_key(&answer.key)?
        .ok_or(LadderError::NoAccount)
}

/// Moves the old key's account to the new key, if the old key signed it.
pub fn rotate<S: Store + ?Sized>(
    store: &mut S,
    rotation: &Rotation,
    now: UnixTime,
) -> Result<Account, LadderError> {
    if let Some(weak) = (rotation.new.weakness())
        .or(rotation.old.weakness())
        .or(rotation.signature.weakness())
    {
        return Err(LadderError::Weak(weak));
    }
    if !rotation.is_signed() {
        return Err(LadderError::BadSignature);
    }
    let account = store
        .account_by_key(&rotation.old)?
        .ok_or(LadderError::NoAccount)?;
    store.rotate_key(account.id, &rotation.new, now)?;
    Ok(Account {
        key: rotation.new,
        ..account
    })
}

/// A finished game to rate: the record's hash, and each seat in order.
#[derive(Debug, Clone, PartialEq)]
pub struct FinishedGame {
    pub mode: Mode,
    pub record: RecordHash,
    pub finished: UnixTime,
    /// Who sat in each seat, their side's final score, whether they left.
    pub seats: Vec<(Occupant, i32, bool)>,
}

/// Rates a finished game from the players' ratings now, damped by who
/// the opponents were (`farming`), and keeps the game, its seats and every
/// rating change in one transaction.
pub fn rate_game<S: Store + ?Sized>(
    store: &mut S,
    game: &FinishedGame,
) -> Result<GameId, LadderError> {
    rate_game_telling(store, game).map(|(id, _)| id)
}

/// `rate_game`, saying too how each player's rating changed.
pub fn rate_game_telling<S: Store + ?Sized>(
    store: &mut S,
    game: &FinishedGame,
) -> Result<(GameId, Vec<RatingChange>), LadderError> {
    let mut seats = Vec::with_capacity(game.seats.len());
    let mut games_before = Vec::new();
    for &(occupant, score, left) in &game.seats {
        let sitter = match occupant {
            Occupant::Player(account) => {
                let standing = store.standing(account, game.mode)?;
                games_before.push((account, standing.games));
                Sitter::Player(account, standing.rating)
            }
            Occupant::Bot(level) => Sitter::Bot(level),
        };
        seats.push(SeatResult {
            sitter,
            score,
            left,
        });
    }
    // The ladder is told the final scores, not the game's winner: a
    // partnership's result is by the score.
    let mut rated = period::rate(game.mode, None, &seats)?;
    farming::damp(store, game, &mut rated)?;
    let changes = rated
        .iter()
        .map(|new| RatingChange {
            account: new.player,
            games_before: games_before
                .iter()
                .find(|(a, _)| *a == new.player)
                .map_or(0, |&(_, games)| games),
            before: new.before,
            after: new.after,
        })
        .collect();
    let record = RatedGame {
        mode: game.mode,
        record: game.record,
        finished: game.finished,
        seats: game
            .seats
            .iter()
            .enumerate()
            .map(|(i, &(occupant, score, left))| SeatRecord {
                seat: Seat::new(i),
                occupant,
                score,
                left,
            })
            .collect(),
        changes,
    };
    let id = store.record_game(&record)?;
    Ok((id, record.changes))
}
