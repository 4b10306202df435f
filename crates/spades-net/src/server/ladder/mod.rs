//! The server's ladder: its store, on a thread of its own, so that no task
//! of the server ever waits on the disk. Requests are taken in the order
//! they come: a game rated before someone asks for the ladder is in the
//! answer. The store is SQLite's or PostgreSQL's, whichever `--db` named.

use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

use tokio::sync::oneshot;

mod farewell;
mod keeper;

pub(crate) use farewell::Farewell;
use keeper::Keeper;

use crate::engine::Mode;
use crate::ladder::keys::{Challenge, Rotation, ServerId, SignIn};
use crate::ladder::names::{Name, NameError};
use crate::ladder::store::{Account, AccountId, Database, Standing, Store, StoreError};
use crate::ladder::{self, FinishedGame, LadderError, UnixTime, farming};
use crate::protocol::ErrorCode;
use crate::protocol::account::{MAX_ROWS, ModeRating, Rated, Rung};

type Job = Box<dyn FnOnce(&mut dyn Store) + Send>;

/// What the ladder's thread is asked to do.
enum Work {
    Job(Job),
    /// Rate a game, then tell its players what became of it.
    Rate(FinishedGame, Farewell),
}

/// Where the games the store could not write wait, and how often they are
/// tried again.
#[derive(Debug, Clone)]
pub(crate) struct Keeping {
    /// `None`: beside a SQLite file (`<file>.outbox`); none for PostgreSQL.
    pub outbox: Option<PathBuf>,
    pub retry_every: Duration,
}

/// How often the games waiting in the outbox are tried again.
pub(crate) const RETRY_EVERY: Duration = Duration::from_secs(30);

impl Default for Keeping {
    fn default() -> Keeping {
        Keeping {
            outbox: None,
            retry_every: RETRY_EVERY,
        }
    }
}

impl Keeping {
    /// The outbox's file for the store `db`.
    fn outbox_for(&self, db: &Database) -> Option<PathBuf> {
        match (&self.outbox, db) {
            (Some(path), _) => Some(path.clone()),
            (None, Database::File(file)) => {
                let mut name = file.as_os_str().to_owned();
                name.push(".outbox");
                Some(PathBuf::from(name))
            }
            (None, Database::Postgres(_)) => None,
        }
    }
}

/// The ladder a server keeps, and the id its players sign for.
pub(crate) struct Ladder {
    jobs: mpsc::Sender<Work>,
    pub(crate) server: ServerId,
}

/// A request refused: the error the client is sent, and whether it spent
/// the connection's challenge (then a fresh one follows).
#[derive(Debug)]
pub(crate) struct Refused {
    pub code: ErrorCode,
    pub message: String,
    pub spent: bool,
}

/// Who signed in, and their standing in every mode.
pub(crate) struct Signed {
    pub account: Account,
    pub ratings: Vec<ModeRating>,
}

impl Ladder {
    /// Opens the store `db` names (here, so a bad one is said at start)
    /// and starts its thread. The store is opened on that thread, which
    /// keeps it for good: a database client is used by one thread.
    pub(crate) fn open(
        db: &Database,
        server: ServerId,
        keeping: &Keeping,
    ) -> Result<Ladder, StoreError> {
        // The data folder may be new: the default file's folder is made.
        if let Database::File(path) = db
            && let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        {
            let _ = std::fs::create_dir_all(dir);
        }
        let (jobs, queue) = mpsc::channel::<Work>();
        let (opened, open_result) = mpsc::channel();
        let outbox = keeping.outbox_for(db);
        let retry_every = keeping.retry_every;
        let db = db.clone();
        std::thread::Builder::new()
            .name("spades-ladder".into())
            .spawn(move || {
                let opening = ladder::open(&db)
                    .and_then(|store| Keeper::new(store, outbox.as_deref(), retry_every));
                let keeper = match opening {
                    Ok(keeper) => {
                        let _ = opened.send(Ok(()));
                        keeper
                    }
                    Err(e) => {
                        let _ = opened.send(Err(e));
                        return;
                    }
                };
                work(keeper, &queue);
            })
            .map_err(|e| StoreError::Backend(format!("cannot start the ladder's thread: {e}")))?;
        open_result.recv().map_err(|_| {
            StoreError::Backend("the ladder's thread stopped while opening".into())
        })??;
        Ok(Ladder { jobs, server })
    }

    /// Runs `work` on the store's thread and waits for its answer without
    /// blocking the runtime; `None` if the thread is gone.
    async fn ask<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut dyn Store) -> T + Send + 'static,
    ) -> Option<T> {
        let (answer, answered) = oneshot::channel();
        let job: Job = Box::new(move |store| {
            let _ = answer.send(work(store));
        });
        self.jobs.send(Work::Job(job)).ok()?;
        answered.await.ok()
    }

    /// A fresh challenge for a connection to sign.
    pub(crate) async fn challenge(&self) -> Option<Challenge> {
        let server = self.server;
        self.ask(move |store| ladder::challenge(store, server, UnixTime::now()).ok())
            .await
            .flatten()
    }

    /// Whether someone not signed in may sit under `name` (as `hello`
    /// gave it, cleaned): not when an account holds it or a name it could
    /// pass for, so no guest plays or chats as a registered player.
    pub(crate) async fn guest_may_use(&self, name: String) -> Result<(), Refused> {
        self.ask(move |store| {
            let holder = store
                .account_by_name(&name)
                .map_err(|e| refused(&e.into()))?;
            match holder {
                None => Ok(()),
                Some(account) => Err(name_held(
                    &Name::stored(name),
                    &account.name,
                    "sign in as its player, or say hello under another name",
                )),
            }
        })
        .await
        .unwrap_or_else(|| Err(store_gone()))
    }

    /// A new account under `name` for the key that signed `answer`.
    pub(crate) async fn register(&self, name: String, answer: SignIn) -> Result<Signed, Refused> {
        let server = self.server;
        self.ask(move |store| {
            // A name taken is refused before the challenge is spent, as
            // one the name rules refuse: the player may try another.
            taken(store, &name)?;
            let account = ladder::register(store, &server, &name, &answer, UnixTime::now())
                .map_err(|e| refused(&e))?;
            signed(store, account)
        })
        .await
        .unwrap_or_else(|| Err(store_gone()))
    }

    /// The account of the key that signed `answer`.
    pub(crate) async fn sign_in(&self, answer: SignIn) -> Result<Signed, Refused> {
        let server = self.server;
        self.ask(move |store| {
            let account = ladder::sign_in(store, &server, &answer, UnixTime::now())
                .map_err(|e| refused(&e))?;
            signed(store, account)
        })
        .await
        .unwrap_or_else(|| Err(store_gone()))
    }

    /// Moves an account to a new key.
    pub(crate) async fn rotate(&self, rotation: Rotation) -> Result<Account, Refused> {
        self.ask(move |store| {
            ladder::rotate(store, &rotation, UnixTime::now()).map_err(|e| refused(&e))
        })
        .await
        .unwrap_or_else(|| Err(store_gone()))
    }

    /// The ladder of `mode`, cut to its first rows, and `you`'s own rated
    /// games in it (the latest).
    pub(crate) async fn standings(
        &self,
        mode: Mode,
        you: Option<AccountId>,
    ) -> Result<(Vec<Rung>, Option<Vec<Rated>>), Refused> {
        self.ask(move |store| {
            let rows = store.ladder(mode).map_err(|e| refused(&e.into()))?;
            let rungs = rows.into_iter().take(MAX_ROWS).map(|row| Rung {
                rank: u32::try_from(row.rank).unwrap_or(u32::MAX),
                provisional: farming::provisional(&row.standing()),
                name: row.name,
                rating: rounded(row.rating.rating),
                deviation: rounded(row.rating.deviation),
                games: row.games,
            });
            let history = match you {
                None => None,
                Some(account) => {
                    let games = store
                        .history(account, mode)
                        .map_err(|e| refused(&e.into()))?;
                    let skip = games.len().saturating_sub(MAX_ROWS);
                    let rated = games.into_iter().skip(skip).map(|game| Rated {
                        finished: game.finished.0,
                        before: rounded(game.before.rating),
                        after: rounded(game.after.rating),
                        deviation: rounded(game.after.deviation),
                    });
                    Some(rated.collect())
                }
            };
            Ok((rungs.collect(), history))
        })
        .await
        .unwrap_or_else(|| Err(store_gone()))
    }

    /// Rates a finished game, once (a record rated already is left as
    /// it was), then `farewell` tells its players their new ratings, or
    /// that the result is pending: the store could not take it, and it
    /// waits in the outbox to be written. Nobody waits for it; what went
    /// wrong is said on the server's standard error.
    pub(crate) fn rate(&self, game: FinishedGame, farewell: Farewell) {
        let _ = self.jobs.send(Work::Rate(game, farewell));
    }

    /// Rates a game and waits for it: for tests.
    #[cfg(test)]
    pub(crate) async fn rate_now(
        &self,
        game: FinishedGame,
    ) -> Result<crate::ladder::store::GameId, String> {
        self.ask(move |store| ladder::rate_game(store, &game).map_err(|e| e.to_string()))
            .await
            .unwrap_or_else(|| Err("gone".into()))
    }
}

/// The ladder's thread: requests in the order they come, and between them
/// the games waiting in the outbox, when it is time to try them again.
fn work(mut keeper: Keeper, queue: &mpsc::Receiver<Work>) {
    loop {
        let next = match keeper.until_retry() {
            Some(wait) => queue.recv_timeout(wait),
            None => queue
                .recv()
                .map_err(|_| mpsc::RecvTimeoutError::Disconnected),
        };
        match next {
            Ok(Work::Job(job)) => job(keeper.store.as_mut()),
            Ok(Work::Rate(game, farewell)) => {
                let mode = game.mode;
                farewell.tell(mode, &keeper.rate(game));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
        }
        keeper.retry_if_due();
    }
}

/// Refuses a name registered already, telling the same name from one
/// only like it.
fn taken(store: &mut dyn Store, raw: &str) -> Result<(), Refused> {
    let Ok(name) = Name::new(raw) else {
        // The name rules refuse it in `register`, the challenge unspent.
        return Ok(());
    };
    let holder = store
        .account_by_name(name.shown())
        .map_err(|e| refused(&e.into()))?;
    match holder {
        None => Ok(()),
        Some(account) => Err(name_taken(&name, &account.name)),
    }
}

fn name_taken(asked: &Name, holder: &Name) -> Refused {
    name_held(asked, holder, "choose another")
}

/// `asked` is `holder`'s, or could pass for it: what to do, `advice`.
fn name_held(asked: &Name, holder: &Name, advice: &str) -> Refused {
    let (code, message) = if asked.shown().to_lowercase() == holder.shown().to_lowercase() {
        (
            ErrorCode::NameTaken,
            format!("the name `{asked}` is taken: {advice}"),
        )
    } else {
        (
            ErrorCode::NameLookAlike,
            format!("the name `{asked}` is too like `{holder}`, taken: {advice}"),
        )
    };
    Refused {
        code,
        message,
        spent: false,
    }
}

/// The signed-in account and its standing in every mode.
fn signed(store: &mut dyn Store, account: Account) -> Result<Signed, Refused> {
    let mut ratings = Vec::new();
    for mode in Mode::ALL {
        let standing = store
            .standing(account.id, mode)
            .map_err(|e| refused(&e.into()))?;
        ratings.push(mode_rating(mode, &standing));
    }
    Ok(Signed { account, ratings })
}

fn mode_rating(mode: Mode, standing: &Standing) -> ModeRating {
    ModeRating {
        mode,
        rating: rounded(standing.rating.rating),
        deviation: rounded(standing.rating.deviation),
        games: standing.games,
        provisional: farming::provisional(standing),
    }
}

/// A rating as the wire carries it: to the nearest point.
fn rounded(value: f64) -> i32 {
    // A rating is a few thousand at most: the cast cannot overflow.
    #[allow(clippy::cast_possible_truncation)]
    let point = value.round() as i32;
    point
}

/// A ladder's refusal as the client is told it.
fn refused(e: &LadderError) -> Refused {
    let (code, spent) = match e {
        LadderError::Name(NameError::Empty) => (ErrorCode::BadName, false),
        LadderError::Name(NameError::LooksLikeABot(_)) => (ErrorCode::BotName, false),
        LadderError::Store(StoreError::NameTaken(_)) => (ErrorCode::NameTaken, true),
        LadderError::Store(StoreError::KeyTaken) => (ErrorCode::KeyTaken, true),
        LadderError::NoAccount | LadderError::Store(StoreError::NoAccount) => {
            (ErrorCode::NoAccount, true)
        }
        LadderError::BadSignature
        | LadderError::Weak(_)
        | LadderError::Key(_)
        | LadderError::Store(StoreError::UnknownChallenge | StoreError::ExpiredChallenge) => {
            (ErrorCode::BadSignature, true)
        }
        _ => (ErrorCode::NoLadder, true),
    };
    Refused {
        code,
        message: e.to_string(),
        spent,
    }
}

fn store_gone() -> Refused {
    Refused {
        code: ErrorCode::NoLadder,
        message: "the server's ladder has stopped".into(),
        spent: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::Level;
    use crate::ladder::keys::Identity;
    use crate::ladder::names::Name;
    use crate::ladder::store::{Occupant, RecordHash};

    /// The same record handed to the ladder twice is rated once: the
    /// player's standing counts one game.
    #[cfg(feature = "sqlite")]
    #[test]
    fn a_record_handed_over_twice_is_rated_once() {
        let dir = tempfile::tempdir().unwrap();
        rated_once(&Database::File(dir.path().join("l.sqlite")));
    }

    /// The same, the ladder in PostgreSQL.
    #[cfg(all(unix, feature = "postgres"))]
    #[test]
    fn a_record_handed_over_twice_is_rated_once_in_postgres() {
        let Some(mut server) = crate::ladder::temp_postgres::TempPostgres::start() else {
            return;
        };
        rated_once(&Database::Postgres(server.fresh_database()));
    }

    fn rated_once(db: &Database) {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let ladder = Ladder::open(db, ServerId([7; 32]), &Keeping::default()).unwrap();
        let key = Identity::generate().unwrap().public_key();
        let account = runtime
            .block_on(ladder.ask(move |store| {
                store
                    .register(&Name::new("Ann").unwrap(), &key, UnixTime(1))
                    .unwrap()
            }))
            .unwrap();
        let bot = Occupant::Bot(Level::Normal);
        let game = FinishedGame {
            mode: Mode::Partnership,
            record: RecordHash([1; 32]),
            finished: UnixTime(2),
            seats: vec![
                (Occupant::Player(account.id), 250, false),
                (bot, 100, false),
                (bot, 250, false),
                (bot, 100, false),
            ],
        };
        ladder.rate(game.clone(), Farewell::new(Vec::new(), "over"));
        ladder.rate(game.clone(), Farewell::new(Vec::new(), "over"));
        assert!(runtime.block_on(ladder.rate_now(game)).is_err());
        let (rows, you) = runtime
            .block_on(ladder.standings(Mode::Partnership, Some(account.id)))
            .unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].games, 1);
        assert!(rows[0].rating > 1500, "a win raises the rating");
        assert_eq!(you.map(|h| h.len()), Some(1));
    }

    /// PostgreSQL stops while games end: each is kept and written once it
    /// is back, by the running server's retry, and by the next server's
    /// start when the first stopped meanwhile.
    #[cfg(all(unix, feature = "postgres"))]
    #[test]
    fn games_ended_while_postgres_is_down_are_written_once_it_is_back() {
        use keeper::{Keeper, Outcome};
        use std::time::Duration;
        let Some(mut postgres) = crate::ladder::temp_postgres::TempPostgres::start() else {
            return;
        };
        let db = Database::Postgres(postgres.fresh_database());
        let dir = tempfile::tempdir().unwrap();
        let outbox = dir.path().join("ladder.outbox");
        let mut store = ladder::open(&db).unwrap();
        let key = Identity::generate().unwrap().public_key();
        let ann = store
            .register(&Name::new("Ann").unwrap(), &key, UnixTime(1))
            .unwrap();
        let game = |n: u8| {
            let bot = Occupant::Bot(Level::Normal);
            FinishedGame {
                mode: Mode::Partnership,
                record: RecordHash([n; 32]),
                finished: UnixTime(i64::from(n)),
                seats: vec![
                    (Occupant::Player(ann.id), 250, false),
                    (bot, 100, false),
                    (bot, 250, false),
                    (bot, 100, false),
                ],
            }
        };
        let games = |keeper: &mut Keeper| {
            keeper
                .store
                .standing(ann.id, Mode::Partnership)
                .unwrap()
                .games
        };

        // Down while the server runs: pending, then written by the retry.
        let mut keeper = Keeper::new(store, Some(&outbox), Duration::ZERO).unwrap();
        postgres.stop();
        assert_eq!(keeper.rate(game(1)), Outcome::Pending);
        assert!(outbox.exists());
        postgres.resume();
        keeper.retry_if_due();
        assert_eq!(keeper.until_retry(), None, "nothing waits");
        assert!(!outbox.exists());
        assert_eq!(games(&mut keeper), 1);

        // Down, and the server restarts before it is back.
        postgres.stop();
        assert_eq!(keeper.rate(game(2)), Outcome::Pending);
        drop(keeper);
        postgres.resume();
        let store = ladder::open(&db).unwrap();
        let mut keeper = Keeper::new(store, Some(&outbox), Duration::from_secs(3600)).unwrap();
        assert_eq!(keeper.until_retry(), None, "written at start");
        assert!(!outbox.exists());
        assert_eq!(games(&mut keeper), 2);
        // Handed over again, a game written is not rated twice.
        assert_eq!(keeper.rate(game(2)), Outcome::Untold);
        assert_eq!(games(&mut keeper), 2);
    }
}
