//! The table's save: kept step by step as the game goes, read back to
//! resume a game where it was left, and rewound to take a card or a bid
//! back. Each is the game rebuilt from its seed and the steps, so a
//! resumed or rewound game is the one that was played.

use std::io;
use std::path::{Path, PathBuf};

use crate::appending::WholeLines;
use crate::engine::{Action, Game, Rules, Seat};
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

    /// Is there a move of `seat`'s that `take_back` would take back? (A
    /// quick look, for the key bar: only `take_back` passes over the cards
    /// that were the only ones.)
    pub fn can_take_back(&self, seat: Seat) -> bool {
        self.save.as_ref().is_some_and(|save| {
            save.steps
                .iter()
                .any(|s| matches!(s, Step::Act { seat: s, .. } if *s == seat))
        })
    }

    /// Takes back `seat`'s last decision and everything after it (a
    /// practice game's undo): the table is set again from the save's steps
    /// before it. A card that was the only one `seat` could play is no
    /// decision, and is passed over; the dummy's cards its declarer chose
    /// are the declarer's decisions. False when there is nothing to take
    /// back, or no save to take it from.
    pub fn take_back(&mut self, seat: Seat) -> Result<bool, ResumeError> {
        let Some(save) = &self.save else {
            return Ok(false);
        };
        let Some((last, keep)) =
            last_decision(*self.game.rules(), self.dealing.seed(), &save.steps, seat)
        else {
            return Ok(false);
        };
        let steps = save.steps[..last].to_vec();
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
        let keep = keep as u32;
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

/// Where `seat`'s last decision stands among `steps` of the game dealt
/// from `seed`, and how many hands were scored before it (they stay in the
/// record). Found by playing the steps again: who decided a card, and
/// whether it was the only one, is known only from the game as it stood.
fn last_decision(rules: Rules, seed: u64, steps: &[Step], seat: Seat) -> Option<(usize, usize)> {
    let mut game = Game::new(rules, seed);
    let mut last = None;
    for (i, &step) in steps.iter().enumerate() {
        match step {
            Step::Act { seat: at, action } => {
                let forced =
                    matches!(action, Action::Play(_)) && game.hand_state().legal().len() == 1;
                if game.teams().player_for(at) == seat && !forced {
                    last = Some((i, game.results().len()));
                }
                // A step the engine refuses ends the game's steps here, as
                // it stops a resumed game.
                if game.apply(at, action).is_err() {
                    break;
                }
            }
            Step::Deal => {
                game.deal_next_hand();
            }
        }
    }
    last
}
