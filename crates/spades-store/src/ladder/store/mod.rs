//! What the ladder keeps, whatever keeps it: accounts, challenges, rated
//! games and ratings. SQLite (`ladder::sqlite`) is the embedded default; a
//! PostgreSQL store for servers sharing one ladder implements the same
//! trait and must pass the same tests (`ladder::tests::store_keeps_its_word`).
//! Each is built in by the crate's feature of its name (`Backend`).

// Without PostgreSQL, a type with no values stands for its address.
#[cfg(feature = "postgres")]
pub(crate) mod postgres_url;
#[cfg(not(feature = "postgres"))]
mod without_postgres;
#[cfg(feature = "postgres")]
pub use postgres_url::PostgresUrl;
#[cfg(not(feature = "postgres"))]
pub use without_postgres::PostgresUrl;

use std::fmt;
use std::path::PathBuf;

use crate::bots::Level;
use crate::engine::{Mode, Seat};
use crate::rating::Rating;

use super::UnixTime;
use super::keys::{Challenge, Nonce, PublicKey, ServerId};
use super::names::Name;

/// An account's number in the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AccountId(pub i64);

/// A rated game's number in the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(pub i64);

/// The SHA-256 of a game's record: a record is rated once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RecordHash(pub [u8; 32]);

/// A registered player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    pub id: AccountId,
    pub name: Name,
    pub key: PublicKey,
    pub registered: UnixTime,
}

/// Who sat in one seat of a rated game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Occupant {
    Player(AccountId),
    Bot(Level),
}

impl Occupant {
    /// The seat's `account` and `bot` columns: one of the two is set.
    pub fn columns(self) -> (Option<i64>, Option<&'static str>) {
        match self {
            Occupant::Player(account) => (Some(account.0), None),
            Occupant::Bot(level) => (None, Some(level.name())),
        }
    }
}

/// One seat of a rated game as kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeatRecord {
    pub seat: Seat,
    pub occupant: Occupant,
    /// The seat's side's final score.
    pub score: i32,
    /// Left before the end (and so lost).
    pub left: bool,
}

/// What a game did to one player's rating. `games_before` is how many
/// rated games the player had in the mode when `before` was read: the
/// store refuses the change if another game was rated for them since
/// (`StoreError::Stale`), so two servers sharing a ladder cannot both
/// rate from the same old rating.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatingChange {
    pub account: AccountId,
    pub games_before: u32,
    pub before: Rating,
    pub after: Rating,
}

/// A finished, rated game as it is written: all of it or none.
#[derive(Debug, Clone, PartialEq)]
pub struct RatedGame {
    pub mode: Mode,
    pub record: RecordHash,
    pub finished: UnixTime,
    pub seats: Vec<SeatRecord>,
    pub changes: Vec<RatingChange>,
}

/// A player's rating in one mode, how many rated games made it, and how
/// many different people they met as opponents in them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Standing {
    pub rating: Rating,
    pub games: u32,
    pub opponents: u32,
}

impl Standing {
    /// Where every player starts.
    pub fn new_player() -> Standing {
        Standing {
            rating: Rating::new_player(),
            games: 0,
            opponents: 0,
        }
    }
}

/// One line of the ladder.
#[derive(Debug, Clone, PartialEq)]
pub struct LadderRow {
    /// From 1, by rating, ties by name.
    pub rank: usize,
    pub name: String,
    pub rating: Rating,
    pub games: u32,
    /// Different people met as opponents.
    pub opponents: u32,
}

impl LadderRow {
    pub fn standing(&self) -> Standing {
        Standing {
            rating: self.rating,
            games: self.games,
            opponents: self.opponents,
        }
    }
}

/// A person met as an opponent in rated games, and in how many.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Meeting {
    pub opponent: AccountId,
    pub games: u32,
}

/// One rated game in a player's history.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryEntry {
    pub game: GameId,
    pub mode: Mode,
    pub finished: UnixTime,
    pub before: Rating,
    pub after: Rating,
}

/// Why the store could not do what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{at} is not a database (or it is damaged): {detail}")]
    NotADatabase { at: Database, detail: String },
    #[error(
        "{at} is damaged (SQLite's quick check: {detail}): restore it from a backup, \
         or give another"
    )]
    Damaged { at: Database, detail: String },
    #[error("{0} is a database of another program, not a spades ladder: give another")]
    Foreign(Database),
    #[error(
        "{at} was written by a newer spades (schema {found}, this one knows up to {known}): \
         update spades"
    )]
    Newer {
        at: Database,
        found: i64,
        known: i64,
    },
    #[error("{0}")]
    BadAddress(String),
    /// A database of a kind this build was made without.
    #[error(
        "this spades was built without {}: build it with `--features {}`",
        .0.name(),
        .0.feature()
    )]
    NotBuiltIn(Backend),
    #[error("cannot open {at}: {detail}")]
    CannotOpen { at: Database, detail: String },
    #[error("the name `{0}` is taken, or too like one that is: choose another")]
    NameTaken(String),
    #[error("this key already has an account")]
    KeyTaken,
    #[error("no such account")]
    NoAccount,
    #[error("the challenge was never given, or was already used: ask for a new one")]
    UnknownChallenge,
    #[error("the challenge has expired: ask for a new one")]
    ExpiredChallenge,
    #[error("this game's record was already rated")]
    AlreadyRated,
    #[error("another game was rated for a player meanwhile: rate this one again")]
    Stale,
    #[error("the store failed: {0}")]
    Backend(String),
}

/// What the ladder keeps. Every method takes `&mut self`: a database
/// client is one connection, used by one caller at a time.
pub trait Store {
    /// A new account; the name must be unique by its folded form, and the
    /// key unique too.
    fn register(
        &mut self,
        name: &Name,
        key: &PublicKey,
        now: UnixTime,
    ) -> Result<Account, StoreError>;
    /// The account whose name folds as `name` does.
    fn account_by_name(&mut self, name: &str) -> Result<Option<Account>, StoreError>;
    fn account_by_key(&mut self, key: &PublicKey) -> Result<Option<Account>, StoreError>;
    /// The account's key is now `new` (the rotation was checked before).
    fn rotate_key(
        &mut self,
        account: AccountId,
        new: &PublicKey,
        now: UnixTime,
    ) -> Result<(), StoreError>;

    /// Keeps a challenge until it is spent or expires.
    fn issue_challenge(&mut self, challenge: &Challenge, now: UnixTime) -> Result<(), StoreError>;
    /// Takes the challenge out, once: a second call for it finds nothing.
    /// Refused when unknown, spent, for another server, or expired.
    fn spend_challenge(
        &mut self,
        server: &ServerId,
        nonce: &Nonce,
        now: UnixTime,
    ) -> Result<Challenge, StoreError>;

    /// The player's rating in `mode` (a new player's if none).
    fn standing(&mut self, account: AccountId, mode: Mode) -> Result<Standing, StoreError>;
    /// Writes the game, its seats and its rating changes in one
    /// transaction; a record already rated is refused.
    fn record_game(&mut self, game: &RatedGame) -> Result<GameId, StoreError>;
    /// The people `account` met as opponents (the other side in
    /// partnership, every other seat otherwise) in its rated games in
    /// `mode` finished at or after `since`, each with how many.
    fn meetings(
        &mut self,
        account: AccountId,
        mode: Mode,
        since: UnixTime,
    ) -> Result<Vec<Meeting>, StoreError>;
    /// Everyone with a rated game in `mode`: by rating, ties by name.
    fn ladder(&mut self, mode: Mode) -> Result<Vec<LadderRow>, StoreError>;
    /// The player's rated games in `mode`, oldest first.
    fn history(&mut self, account: AccountId, mode: Mode) -> Result<Vec<HistoryEntry>, StoreError>;
}

/// The challenge a store just took out (`Store::spend_challenge`), if it
/// has not expired: the one rule for every store.
pub(crate) fn unexpired(
    server: &ServerId,
    nonce: &Nonce,
    expires: UnixTime,
    now: UnixTime,
) -> Result<Challenge, StoreError> {
    if now > expires {
        return Err(StoreError::ExpiredChallenge);
    }
    Ok(Challenge {
        server: *server,
        nonce: *nonce,
        expires,
    })
}

/// The statements that write a rated game, each store in its own SQL,
/// all inside the one transaction its `record_game` opened. What they add
/// up to (`write_game`) is written once, for every store.
pub(crate) trait GameWrites {
    /// Adds the game; a record already rated is `AlreadyRated`.
    fn add_game(&mut self, game: &RatedGame) -> Result<GameId, StoreError>;
    /// Adds a seat; an account the ladder does not have is `NoAccount`.
    fn add_seat(&mut self, game: GameId, seat: &SeatRecord) -> Result<(), StoreError>;
    /// Sets the player's rating in `mode` to `change.after` if it still
    /// counts `change.games_before` games; whether it did.
    fn move_rating(&mut self, mode: Mode, change: &RatingChange) -> Result<bool, StoreError>;
    /// The player's first rating in `mode`; a rating there already (one
    /// written meanwhile) is `Stale`.
    fn first_rating(&mut self, mode: Mode, change: &RatingChange) -> Result<(), StoreError>;
    /// The change in the player's history.
    fn add_change(&mut self, game: GameId, change: &RatingChange) -> Result<(), StoreError>;
    /// Counts again the people the player met as opponents in `mode`
    /// (`count_opponents_sql`).
    fn count_opponents(&mut self, account: AccountId, mode: Mode) -> Result<(), StoreError>;
}

/// Writes a rated game by a store's statements: the game, its seats, and
/// every player's new rating, each only if the player's rating is still
/// the one the change was worked from (else `Stale`, and the store rolls
/// the whole game back).
pub(crate) fn write_game(
    store: &mut impl GameWrites,
    game: &RatedGame,
) -> Result<GameId, StoreError> {
    let id = store.add_game(game)?;
    for seat in &game.seats {
        store.add_seat(id, seat)?;
    }
    // The rows are locked in one order (by account) by every server, so
    // two games of the same players wait for each other, never lock each
    // other out.
    let mut changes: Vec<&RatingChange> = game.changes.iter().collect();
    changes.sort_by_key(|c| c.account);
    for change in changes {
        if !store.move_rating(game.mode, change)? {
            // No row moved: a new player's first game, or a rating
            // another game moved since it was read.
            if change.games_before != 0 {
                return Err(StoreError::Stale);
            }
            store.first_rating(game.mode, change)?;
        }
        store.add_change(id, change)?;
        store.count_opponents(change.account, game.mode)?;
    }
    Ok(id)
}

/// Where a ladder is kept: a SQLite file, or a PostgreSQL database that
/// several servers may share. Both are named in every build; a build
/// without one refuses it: a PostgreSQL address as it is read (`given`),
/// a file as it is opened (`ladder::open`).
#[derive(Debug, Clone)]
pub enum Database {
    File(PathBuf),
    Postgres(PostgresUrl),
}

impl Database {
    /// What `--db` names: a value starting `postgres://` or
    /// `postgresql://` is a PostgreSQL database (refused by a build
    /// without PostgreSQL), anything else a file.
    pub fn given(given: PathBuf) -> Result<Database, StoreError> {
        match given.to_str() {
            Some(text) if text.starts_with("postgres://") || text.starts_with("postgresql://") => {
                PostgresUrl::parse(text).map(Database::Postgres)
            }
            _ => Ok(Database::File(given)),
        }
    }
}

impl fmt::Display for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Database::File(path) => write!(f, "{}", path.display()),
            Database::Postgres(url) => write!(f, "the PostgreSQL database {url}"),
        }
    }
}

/// A kind of database the ladder is kept in, each built in by the
/// feature of its name: a build may lack one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Sqlite => "SQLite",
            Backend::Postgres => "PostgreSQL",
        }
    }

    /// The Cargo feature that builds it in.
    pub fn feature(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        }
    }
}

/// SQL, in both stores: seat row `o` is an opponent of seat row `s` in
/// game `g`: another person, and in partnership on the other side (seat
/// parity is the side: `partnership_sides_are_seat_parity` checks it).
const OPPONENT_SEAT: &str = "o.account IS NOT NULL AND o.account <> s.account
     AND (g.mode <> 'partnership' OR (s.seat + o.seat) % 2 = 1)";

/// SQL that sets `ratings.opponents` for the rows its `WHERE` (added by
/// the store, in its own placeholders) picks: derived from the rated
/// games, kept with the rating so that the ladder reads it at no cost.
pub(crate) fn count_opponents_sql(filter: &str) -> String {
    format!(
        "UPDATE ratings SET opponents = (
            SELECT COUNT(DISTINCT o.account)
            FROM seats s JOIN games g ON g.id = s.game JOIN seats o ON o.game = s.game
            WHERE s.account = ratings.account AND g.mode = ratings.mode AND {OPPONENT_SEAT})
         WHERE {filter}"
    )
}

/// SQL for `Store::meetings`, its three values (account, mode, since) in
/// the store's own placeholders.
pub(crate) fn meetings_sql([account, mode, since]: [&str; 3]) -> String {
    format!(
        "SELECT o.account, COUNT(DISTINCT g.id)
         FROM seats s JOIN games g ON g.id = s.game JOIN seats o ON o.game = s.game
         WHERE s.account = {account} AND g.mode = {mode} AND g.finished >= {since}
           AND {OPPONENT_SEAT}
         GROUP BY o.account ORDER BY o.account"
    )
}

#[cfg(test)]
mod tests {
    use crate::engine::{Mode, Seat};

    /// `OPPONENT_SEAT` takes a partnership's sides as the seats' parity
    /// and names the mode as the store writes it.
    #[test]
    fn partnership_sides_are_seat_parity() {
        assert_eq!(Mode::Partnership.name(), "partnership");
        for a in 0..4 {
            for b in 0..4 {
                let apart = Mode::Partnership.side_of(Seat::new(a))
                    != Mode::Partnership.side_of(Seat::new(b));
                assert_eq!(apart, (a + b) % 2 == 1, "seats {a} and {b}");
            }
        }
    }
}
