//! A local game from its start to its end, with no screen in it: the
//! table, the game's record and its save. Starting a game, resuming one,
//! giving one up and closing one happen here, whatever plays it (the
//! terminal's table, or a test), and so does the note its end leaves on
//! the player's rating.

mod claim;
mod end_note;

use std::path::{Path, PathBuf};

use crate::appending::WholeLines;
use crate::bots::{BotSpec, Effort};
use crate::engine::{Rules, Seat};
use crate::fairness::Dealing;
use crate::look::Look;
use crate::naming::Names;
use crate::record::{create_record_file, now_secs};
use crate::save::SaveAbout;
use crate::save::Saved;
use crate::table::{ResumeError, Table, player_and_bots};

pub use claim::ClaimRefused;
pub use end_note::end_note;

/// The player's seat at a local table.
pub const YOU: Seat = Seat::new(0);

/// What a local game is: its rules and deals, who plays it, and where it
/// is recorded and saved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSetup {
    pub rules: Rules,
    /// A seed given openly (`--seed`): the deals are known. `None` deals
    /// from a secret seed, committed to at the start and revealed at the end.
    pub seed: Option<u64>,
    /// The player's name, shown at their seat.
    pub name: String,
    /// Every computer player: a level, or a program of one's own.
    pub difficulty: BotSpec,
    /// How long a searching bot thinks per decision.
    pub effort: Effort,
    /// Where the rules came from, for the rules window and the record.
    pub rules_source: String,
    /// A practice game: the player's last move may be taken back, and the
    /// game is kept out of the rating.
    pub practice: bool,
    /// The folder each game's record is written to; `None` writes none.
    pub records: Option<PathBuf>,
    /// The folder each game's save is kept in, to resume it; `None` keeps
    /// none (a game left is then abandoned).
    pub saves: Option<PathBuf>,
}

impl GameSetup {
    /// The given rules and open seed against the default bots, unrecorded
    /// and unsaved.
    pub fn new(rules: Rules, seed: u64) -> GameSetup {
        GameSetup {
            rules,
            seed: Some(seed),
            name: "You".to_string(),
            difficulty: BotSpec::DEFAULT,
            effort: Effort::Usual,
            rules_source: "the built-in classic rules".to_string(),
            practice: false,
            records: None,
            saves: None,
        }
    }

    /// The setup of a saved game: its own rules, names, level and whether
    /// it is practice, with this session's folders and effort.
    fn for_saved(saved: &Saved, session: &GameSetup) -> GameSetup {
        let header = &saved.header;
        GameSetup {
            rules: header.rules,
            seed: None,
            name: header.name.clone(),
            difficulty: header.difficulty.clone(),
            rules_source: header.rules_source.clone(),
            practice: header.practice,
            ..session.clone()
        }
    }

    /// The next game of a session after one dealt from `open_seed`: an open
    /// seed leads to the next open seed, so a session replays; a secret one
    /// to a fresh secret.
    pub fn next(&self, open_seed: Option<u64>) -> GameSetup {
        GameSetup {
            seed: open_seed.map(next_seed),
            ..self.clone()
        }
    }

    /// The player at seat 0, bots as the setup names them at the others.
    fn players(&self) -> Vec<crate::table::Player> {
        player_and_bots(self.rules.mode, &self.difficulty, self.effort)
    }
}

/// The next game's seed, derived so a session of games replays too.
fn next_seed(seed: u64) -> u64 {
    // SplitMix64's step: consecutive seeds give unrelated deals.
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What a session at a table left behind.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Played {
    /// The record files written, one per game.
    pub records: Vec<PathBuf>,
    /// The save of a game left undecided, to resume it.
    pub saved: Option<PathBuf>,
    /// Why records could not be written, when they could not: the games
    /// went on regardless.
    pub record_problem: Option<String>,
}

impl Played {
    /// This session's games, then `later`'s.
    pub fn then(mut self, later: Played) -> Played {
        self.records.extend(later.records);
        self.saved = later.saved;
        self.record_problem = self.record_problem.or(later.record_problem);
        self
    }
}

/// Why a local game cannot begin.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error("cannot deal: {0}")]
    Dealing(std::io::Error),
    #[error("cannot resume the game: {0}")]
    Resume(#[from] ResumeError),
    #[error("the record could not be closed: {0}")]
    Record(String),
}

/// A game at a table in this process, with its record and its save.
pub struct LocalGame {
    table: Table,
    setup: GameSetup,
    names: Names,
    /// The game's record file, when it is recorded.
    record: Option<PathBuf>,
    /// Why the record could not be started, if it could not.
    record_problem: Option<String>,
    /// Where the game is saved, when it is.
    save: Option<PathBuf>,
    /// Why the game could not be saved, to tell the player.
    save_problem: Option<String>,
}

impl LocalGame {
    /// A new game as `setup` says: dealt, recorded and saved in the
    /// setup's folders, its save keeping its `look`. A record or save that
    /// cannot be written does not stop the game; `record_problem` and
    /// `save_problem` say why.
    pub fn start(setup: GameSetup, look: Look) -> Result<LocalGame, SessionError> {
        let dealing = match setup.seed {
            Some(seed) => Dealing::Open(seed),
            None => Dealing::secret().map_err(SessionError::Dealing)?,
        };
        let mut table = Table::new(setup.rules, dealing, setup.players());
        let names = Names::new(setup.rules.mode, &setup.name);
        let started = now_secs();
        let (mut record, mut record_problem) = (None, None);
        let file = setup.records.as_deref().and_then(|dir| {
            create_record_file(dir)
                .map_err(|e| {
                    record_problem = Some(format!("cannot write in {}: {e}", dir.display()))
                })
                .ok()
        });
        let about = SaveAbout {
            id: file
                .as_ref()
                .and_then(|(_, path)| path.file_stem())
                .map_or_else(
                    || format!("game-{started}"),
                    |s| s.to_string_lossy().into_owned(),
                ),
            started,
            name: setup.name.clone(),
            difficulty: setup.difficulty.clone(),
            rules_source: setup.rules_source.clone(),
            practice: setup.practice,
            record: file.as_ref().map(|(_, path)| path.clone()),
            look,
        };
        if let Some((file, path)) = file {
            match WholeLines::at_end(file) {
                Ok(out) => {
                    // A `game` line the disk refuses is held: the table
                    // says so (`record_problem`) and writes it later.
                    let _ = table.record_to(Box::new(out), names.all(), about.info());
                    record = Some(path);
                }
                Err(e) => record_problem = Some(format!("cannot write {}: {e}", path.display())),
            }
        }
        let (mut save, mut save_problem) = (None, None);
        if let Some(dir) = &setup.saves {
            match table.save_to(dir, about) {
                Ok(path) => save = Some(path),
                Err(e) => {
                    save_problem = Some(format!(
                        "Saving is off ({e}): this game cannot be resumed if it is left."
                    ));
                }
            }
        }
        Ok(LocalGame {
            table,
            setup,
            names,
            record,
            record_problem,
            save,
            save_problem,
        })
    }

    /// A saved game, set at the table again exactly as it was left, with
    /// `session`'s folders and effort; its save now keeps `look`.
    pub fn resume(
        saved: &Saved,
        session: &GameSetup,
        look: Look,
    ) -> Result<LocalGame, SessionError> {
        let setup = GameSetup::for_saved(saved, session);
        let names = Names::new(setup.rules.mode, &setup.name);
        let mut saved = saved.clone();
        saved.header.look = Some(look);
        let records = setup.records.as_deref();
        let table = Table::resume(&saved, records, setup.players(), names.all())?;
        Ok(LocalGame {
            table,
            names,
            record: saved.header.record_in(records),
            record_problem: None,
            save: Some(saved.path.clone()),
            save_problem: None,
            setup,
        })
    }

    pub fn table(&self) -> &Table {
        &self.table
    }

    pub fn table_mut(&mut self) -> &mut Table {
        &mut self.table
    }

    pub fn setup(&self) -> &GameSetup {
        &self.setup
    }

    pub fn names(&self) -> &Names {
        &self.names
    }

    /// The game's record file, when it is recorded.
    pub fn record_path(&self) -> Option<&Path> {
        self.record.as_deref()
    }

    /// Why the game could not be saved at all (its steps the disk refused
    /// since are `unwritten`).
    pub fn save_problem(&self) -> Option<&str> {
        self.save_problem.as_deref()
    }

    /// Why the record is not being written, when it is not.
    pub fn record_problem(&self) -> Option<&str> {
        self.record_problem
            .as_deref()
            .or_else(|| self.table.record_problem())
    }

    /// The one line a screen shows while the disk refuses the game's save
    /// or record: the game goes on, kept in memory, and they are written
    /// at the next step the disk takes them.
    pub fn unwritten(&self) -> Option<String> {
        if !self.table.is_behind() {
            return None;
        }
        let (what, why) = match (self.table.save_problem(), self.table.record_problem()) {
            (Some(why), _) => ("saved", why),
            (None, Some(why)) => ("recorded", why),
            // Held behind the save, which is written now: next step.
            (None, None) => return None,
        };
        Some(format!(
            "Not {what}: {}. Kept, and written when the disk allows.",
            os_error_words(why)
        ))
    }

    /// Tries again to write what the disk refused, between steps (at the
    /// game's end, say, when no step comes).
    pub fn catch_up(&mut self) {
        self.table.catch_up();
    }

    /// The player leaves the table. A game not yet decided is kept to be
    /// resumed when it is saved, or else recorded as abandoned with its
    /// seed revealed. Says which record was finished and where the game is
    /// kept.
    pub fn close(&mut self) -> Played {
        self.table.leave();
        let saved = self.table.is_saved().then(|| self.save.clone()).flatten();
        // A kept game's record is not finished: it is not one to check yet.
        let records = match saved {
            Some(_) => Vec::new(),
            None => self.record.iter().cloned().collect(),
        };
        // Steps the disk still refuses are lost with this process: said.
        let held = self.table.is_behind().then(|| {
            let why = self.table.save_problem().or(self.table.record_problem());
            format!(
                "its last steps were never written ({}): the game's files end before them",
                why.map_or_else(|| "the disk refused them".to_string(), os_error_words)
            )
        });
        Played {
            records,
            saved,
            record_problem: held.or_else(|| self.record_problem().map(str::to_string)),
        }
    }

    /// What the finished game did to the player's rating, in a line or two.
    pub fn end_note(&self) -> Vec<String> {
        end_note(
            self.setup.records.as_deref(),
            self.record_path(),
            &self.setup,
            self.table.rules().is_quick(),
        )
    }
}

/// An I/O error as a player reads it: "no space left on device", without
/// the system's number.
fn os_error_words(why: &str) -> String {
    let words = why.split(" (os error").next().unwrap_or(why);
    let mut chars = words.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_lowercase().chain(chars).collect()
    })
}

/// Gives a saved game up: set at the table again, then abandoned, so its
/// record says so and reveals its seed, and its save is removed. Returns
/// the record it closed (the one named by its id in `records`), if the
/// game had one.
pub fn abandon(saved: &Saved, records: Option<&Path>) -> Result<Option<PathBuf>, SessionError> {
    let setup = GameSetup::for_saved(saved, &GameSetup::new(saved.header.rules, 0));
    let names = Names::new(setup.rules.mode, &setup.name);
    let mut table = Table::resume(saved, records, setup.players(), names.all())?;
    table.abandon();
    if let Some(problem) = table.record_problem() {
        return Err(SessionError::Record(problem.to_string()));
    }
    Ok(saved.header.record_in(records))
}
