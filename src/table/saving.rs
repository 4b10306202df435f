//! The table's save: kept step by step as the game goes, read back to
//! resume a game where it was left, and rewound to take a card or a bid
//! back. Each is the game rebuilt from its seed and the steps, so a
//! resumed or rewound game is the one that was played.

use std::io;
use std::path::{Path, PathBuf};

use crate::appending::WholeLines;
use crate::engine::{Game, Seat};
use crate::record::{self, RecordWriter};
use crate::save::{self, Journal, SaveAbout, SaveError, SaveHeader, Saved, Step};

use super::{Player, RecordSink, ResumeError, SaveState, Table};

impl Table {
    /// Keeps this game's save in `dir` from now on: its seed and salt, and
    /// each step as it happens. Call before the first action.
    pub fn save_to(&mut self, dir: &Path, about: SaveAbout) -> io::Result<PathBuf> {
        let reveal = self.dealing.reveal();
        let header = SaveHeader {
            save: save::FORMAT,
            version: env!("CARGO_PKG_VERSION").to_string(),
            id: about.id,
            started: about.started,
            rules: *self.game.rules(),
            name: about.name,
            difficulty: about.difficulty,
            rules_source: about.rules_source,
            practice: about.practice,
            seed: self.dealing.seed(),
            salt: reveal.map(|r| r.salt),
            record: about.record,
            look: Some(about.look),
        };
        let journal = Journal::create(dir, &header)?;
        let path = journal.path().to_path_buf();
        self.save = Some(SaveState {
            journal,
            header,
            steps: Vec::new(),
        });
        // A header the disk refused is held, and said, like any step.
        self.catch_up();
        Ok(path)
    }

    /// Sets a saved game's table again: the same deals, and every saved step
    /// replayed through the engine, so the game is exactly as it was. Its
    /// record is written on from its last whole hand, and its save goes on.
    /// The record is the one named by the game's id in `records`
    /// (`SaveHeader::record_in`), whatever path the save holds.
    pub fn resume(
        saved: &Saved,
        records: Option<&Path>,
        players: Vec<Player>,
        names: Vec<String>,
    ) -> Result<Table, ResumeError> {
        let mut header = saved.header.clone();
        header.record = header.record_in(records);
        Table::rebuild(&saved.path, &header, &saved.steps, players, names, u32::MAX)
    }

    /// A new table for `header`'s game after `steps`, writing its record
    /// (keeping at most `keep` hands already in it) and its save anew.
    fn rebuild(
        path: &Path,
        header: &SaveHeader,
        steps: &[Step],
        players: Vec<Player>,
        names: Vec<String>,
        keep: u32,
    ) -> Result<Table, ResumeError> {
        let dealing = header.dealing()?;
        let reveal = dealing.reveal();
        let mut table = Table::new(header.rules, dealing, players);
        if let Some(record) = &header.record {
            match record::open_to_continue(record, keep)? {
                Some((file, written)) => {
                    let out: RecordSink = Box::new(WholeLines::at_end(file)?);
                    table.record = Some(RecordWriter::continuing(out, reveal, written));
                    let first = table.game.deal_event();
                    table.record_event(&first);
                }
                None => {
                    let file = std::fs::File::create(record)?;
                    let info = header.about().info();
                    // A `game` line the disk refuses is held and said.
                    let _ = table.record_to(Box::new(WholeLines::at_end(file)?), names, info);
                }
            }
        }
        for (i, &step) in steps.iter().enumerate() {
            table.apply_step(step).map_err(|problem| SaveError::Bad {
                line: i + 2,
                problem,
            })?;
        }
        table.save = Some(SaveState {
            journal: Journal::rewrite(path, header, steps)?,
            header: header.clone(),
            steps: steps.to_vec(),
        });
        Ok(table)
    }

    /// Is there a move of `seat`'s that `take_back` would take back?
    pub fn can_take_back(&self, seat: Seat) -> bool {
        self.last_act_of(seat).is_some()
    }

    /// Where `seat`'s last action stands among the saved steps.
    fn last_act_of(&self, seat: Seat) -> Option<usize> {
        self.save
            .as_ref()?
            .steps
            .iter()
            .rposition(|s| matches!(s, Step::Act { seat: s, .. } if *s == seat))
    }

    /// Takes back `seat`'s last action and everything after it (a practice
    /// game's undo): the table is set again from the save's steps before it.
    /// False when there is nothing to take back, or no save to take it from.
    pub fn take_back(&mut self, seat: Seat) -> Result<bool, ResumeError> {
        let (Some(save), Some(last)) = (&self.save, self.last_act_of(seat)) else {
            return Ok(false);
        };
        let steps = save.steps[..last].to_vec();
        // Hands over before the action taken back stay in the record.
        let mut scratch = Game::new(*self.game.rules(), self.dealing.seed());
        for &step in &steps {
            match step {
                Step::Act { seat, action } => {
                    let _ = scratch.apply(seat, action);
                }
                Step::Deal => {
                    scratch.deal_next_hand();
                }
            }
        }
        let keep = scratch.results().len() as u32;
        let players = self
            .players
            .iter()
            .map(|p| match p {
                Player::Human => Player::Human,
                Player::Dummy => Player::Dummy,
                // Fresh bots of the same level and budget: nothing they
                // remember of the hand taken back survives.
                Player::Bot(bot) | Player::Away(bot) => Player::Bot(bot.fresh()),
            })
            .collect();
        let header = save.header.clone();
        let path = save.journal.path().to_path_buf();
        let names = Vec::new();
        // The save's lock passes to the new table's journal.
        if let Some(old) = self.save.take() {
            drop(old.journal);
        }
        self.record = None;
        *self = Table::rebuild(&path, &header, &steps, players, names, keep)?;
        Ok(true)
    }

    pub fn is_saved(&self) -> bool {
        self.save.is_some()
    }

    /// Why the save's last steps are not on the disk yet, if they are not.
    pub fn save_problem(&self) -> Option<&str> {
        self.save_problem.as_deref()
    }
}
