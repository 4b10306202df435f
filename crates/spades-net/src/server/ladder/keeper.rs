//! The ladder's thread keeps its word on rated games: a game the store
//! cannot write now goes to the outbox file, and is written later, in the
//! order the games ended, before any game that ended after it.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::engine::Mode;
use crate::ladder::outbox::Outbox;
use crate::ladder::store::{RatingChange, Store, StoreError};
use crate::ladder::{self, FinishedGame, LadderError, farming};

/// How often a game is rated again when another server rated one of its
/// players meanwhile (a ladder shared through PostgreSQL).
const STALE_TRIES: usize = 3;

/// What became of a game handed to the ladder.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Outcome {
    /// Written: each player's rating before and after, and whether their
    /// standing after it is still provisional.
    Recorded(Vec<(RatingChange, bool)>),
    /// Kept in the outbox, to be written once the store can be.
    Pending,
    /// Rated before (the same record handed over again), or lost: nothing
    /// to tell.
    Untold,
}

/// The store and the outbox of games waiting for it.
pub(super) struct Keeper {
    pub store: Box<dyn Store + Send>,
    outbox: Option<Outbox>,
    retry_every: Duration,
    next_retry: Instant,
}

/// Why a game could not be written: for now (the store is down, or busy),
/// or for good (nothing will ever rate it).
enum Failed {
    ForNow(LadderError),
    ForGood(LadderError),
}

impl Keeper {
    /// The store, and the outbox at `outbox` read back (its damaged lines
    /// reported and set aside); the games waiting in it are tried at once.
    pub fn new(
        store: Box<dyn Store + Send>,
        outbox: Option<&Path>,
        retry_every: Duration,
    ) -> Result<Keeper, StoreError> {
        let outbox = match outbox {
            None => None,
            Some(path) => Some(open_outbox(path)?),
        };
        let mut keeper = Keeper {
            store,
            outbox,
            retry_every,
            next_retry: Instant::now(),
        };
        keeper.retry();
        Ok(keeper)
    }

    /// How long until the games waiting are tried again; `None` when none
    /// wait.
    pub fn until_retry(&self) -> Option<Duration> {
        let waiting = self
            .outbox
            .as_ref()
            .is_some_and(|o| !o.waiting().is_empty());
        waiting.then(|| self.next_retry.saturating_duration_since(Instant::now()))
    }

    /// Tries the games waiting, if it is time.
    pub fn retry_if_due(&mut self) {
        if self.until_retry() == Some(Duration::ZERO) {
            self.retry();
        }
    }

    /// Each change with whether the player's standing after it is still
    /// provisional (by the ladder's whole rule, not the deviation alone);
    /// a standing the store cannot read now is said provisional.
    fn told(&mut self, mode: Mode, changes: Vec<RatingChange>) -> Vec<(RatingChange, bool)> {
        changes
            .into_iter()
            .map(|change| {
                let provisional = self
                    .store
                    .standing(change.account, mode)
                    .map_or(true, |standing| farming::provisional(&standing));
                (change, provisional)
            })
            .collect()
    }

    /// Rates `game`, after the games still waiting; kept for later when
    /// the store cannot take it.
    pub fn rate(&mut self, game: FinishedGame) -> Outcome {
        self.retry();
        if self.until_retry().is_none() {
            match write(self.store.as_mut(), &game) {
                Ok(Some(changes)) => return Outcome::Recorded(self.told(game.mode, changes)),
                Ok(None) => return Outcome::Untold,
                Err(Failed::ForGood(e)) => {
                    eprintln!("spades serve: a game cannot be rated: {e}");
                    return Outcome::Untold;
                }
                Err(Failed::ForNow(e)) => {
                    eprintln!("spades serve: a game could not be rated now: {e}");
                }
            }
        }
        self.keep(game)
    }

    /// Puts `game` in the outbox.
    fn keep(&mut self, game: FinishedGame) -> Outcome {
        let Some(outbox) = &mut self.outbox else {
            eprintln!("spades serve: a game was not rated, and there is no outbox to keep it");
            return Outcome::Untold;
        };
        let path = outbox.path().display().to_string();
        match outbox.push(game) {
            Ok(()) => {
                eprintln!(
                    "spades serve: the game is kept in {path}, to be rated once the store is back"
                );
                Outcome::Pending
            }
            Err(e) => {
                eprintln!("spades serve: a game was not rated, nor kept in {path}: {e}");
                Outcome::Untold
            }
        }
    }

    /// Writes the games waiting, oldest first, until the store fails; the
    /// ones written leave the outbox.
    fn retry(&mut self) {
        self.next_retry = Instant::now() + self.retry_every;
        let Some(outbox) = &mut self.outbox else {
            return;
        };
        let mut done = 0;
        for game in outbox.waiting() {
            match write(self.store.as_mut(), game) {
                Ok(_) => done += 1,
                Err(Failed::ForGood(e)) => {
                    eprintln!(
                        "spades serve: a game in the outbox cannot be rated, and is dropped: {e}"
                    );
                    done += 1;
                }
                Err(Failed::ForNow(_)) => break,
            }
        }
        if done == 0 {
            return;
        }
        let written: Vec<_> = outbox.waiting()[..done].iter().map(|g| g.record).collect();
        if let Err(e) = outbox.remove_written(|g| written.contains(&g.record)) {
            // Still in the file: rated again later, they are found rated.
            eprintln!(
                "spades serve: cannot take the games rated out of {}: {e}",
                outbox.path().display()
            );
        }
        if outbox.waiting().is_empty() {
            eprintln!("spades serve: every game kept in the outbox is rated now");
        }
    }
}

fn open_outbox(path: &Path) -> Result<Outbox, StoreError> {
    let (outbox, damaged) = Outbox::open(path).map_err(|e| {
        StoreError::Backend(format!("cannot read the outbox {}: {e}", path.display()))
    })?;
    for bad in damaged {
        eprintln!(
            "spades serve: line {} of {} is damaged ({}): moved to {}",
            bad.line,
            path.display(),
            bad.why,
            outbox.damaged_path().display()
        );
    }
    if !outbox.waiting().is_empty() {
        eprintln!(
            "spades serve: {} game(s) wait in {} to be rated",
            outbox.waiting().len(),
            path.display()
        );
    }
    Ok(outbox)
}

/// Rates one game, once: `None` when its record was rated already.
fn write(store: &mut dyn Store, game: &FinishedGame) -> Result<Option<Vec<RatingChange>>, Failed> {
    let mut last = None;
    for _ in 0..STALE_TRIES {
        match ladder::rate_game_telling(store, game) {
            Ok((_, changes)) => return Ok(Some(changes)),
            Err(LadderError::Store(StoreError::AlreadyRated)) => return Ok(None),
            Err(e @ LadderError::Store(StoreError::Stale)) => last = Some(e),
            Err(e @ LadderError::Store(StoreError::Backend(_) | StoreError::CannotOpen { .. })) => {
                return Err(Failed::ForNow(e));
            }
            Err(e) => return Err(Failed::ForGood(e)),
        }
    }
    Err(Failed::ForNow(
        last.unwrap_or(LadderError::Store(StoreError::Stale)),
    ))
}

// On a SQLite store in memory.
#[cfg(all(test, feature = "sqlite"))]
mod tests {
    use super::*;
    use crate::bots::Level;
    use crate::engine::Mode;
    use crate::ladder::UnixTime;
    use crate::ladder::keys::Identity;
    use crate::ladder::names::Name;
    use crate::ladder::sqlite::SqliteStore;
    use crate::ladder::store::{AccountId, Occupant, RecordHash};

    fn game(n: u8, player: AccountId) -> FinishedGame {
        let bot = Occupant::Bot(Level::Normal);
        FinishedGame {
            mode: Mode::Partnership,
            record: RecordHash([n; 32]),
            finished: UnixTime(i64::from(n)),
            seats: vec![
                (Occupant::Player(player), 250, false),
                (bot, 100, false),
                (bot, 250, false),
                (bot, 100, false),
            ],
        }
    }

    /// A game the store will never take (its player has no account in
    /// this ladder: another ladder's outbox) is let go, said, and does
    /// not hold back the games after it.
    #[test]
    fn a_game_that_can_never_be_written_does_not_hold_back_the_others() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ladder.outbox");
        let mut store = SqliteStore::in_memory().unwrap();
        let key = Identity::generate().unwrap().public_key();
        let ann = store
            .register(&Name::new("Ann").unwrap(), &key, UnixTime(1))
            .unwrap();
        let (mut outbox, _) = Outbox::open(&path).unwrap();
        outbox.push(game(1, AccountId(999))).unwrap();
        outbox.push(game(2, ann.id)).unwrap();
        drop(outbox);
        let mut keeper = Keeper::new(Box::new(store), Some(&path), RETRY_TEST).unwrap();
        assert_eq!(keeper.until_retry(), None, "nothing waits");
        assert!(!path.exists());
        let standing = keeper.store.standing(ann.id, Mode::Partnership).unwrap();
        assert_eq!(standing.games, 1);
    }

    const RETRY_TEST: Duration = Duration::from_secs(3600);
}
