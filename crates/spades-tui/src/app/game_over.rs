//! The end of a game at the table: play again, or look back at the game
//! just played, read from its record: its replay (`r`) or its review (`a`,
//! the replay with the analysis started on a thread of its own), in the
//! viewer `spades replay` shows. Leaving the viewer comes back here.

use crate::bots::Effort;

use super::super::input::Key;
use super::super::replay::analysis::LastGame;
use super::super::replay::{Source, Viewer};
use super::{App, sentence};

impl App {
    /// A key on the game-over window, once the guard after the last pause
    /// is over.
    pub(super) fn game_over_key(&mut self, key: Key) {
        match key {
            Key::Char('n') | Key::Enter => self.play_again(),
            Key::Char('a') => self.look_back(true),
            Key::Char('r') => self.look_back(false),
            _ => {}
        }
    }

    /// Opens the game just played in the replay viewer, its analysis
    /// started when `analyse`; or says why it cannot be.
    pub(super) fn look_back(&mut self, analyse: bool) {
        match self.game_just_played() {
            Ok(mut viewer) => {
                if analyse {
                    viewer.start_analysis();
                }
                self.notice.clear();
                self.review = Some(viewer);
            }
            Err(why) => {
                self.notice.brief(why);
            }
        }
    }

    /// The game just played, as the replay viewer shows it (from its
    /// record); or why it cannot be.
    pub fn game_just_played(&self) -> Result<Viewer, String> {
        if self.table.is_remote() {
            return Err("A shared table's game: spades replay shows its record.".into());
        }
        let Some(path) = self.record_path() else {
            return Err("This game is not recorded: there is nothing to replay.".into());
        };
        let last = LastGame::in_file(path).map_err(|e| sentence(&e.to_string()))?;
        let effort = review_effort(self.config.game.effort);
        let (text, number, game) = (last.text, last.number, last.game);
        Viewer::of_record(
            Source::GameJustPlayed,
            path.to_path_buf(),
            text,
            number,
            game,
            effort,
        )
        .map_err(|e| sentence(&format!("the game's record does not replay: {e}")))
    }
}

/// The review's budget: the game's own when it is a number of deals (a
/// quick game is reviewed quickly); else the usual one, whose review is
/// kept beside the record and shared with `spades analyze` and `spades
/// replay` (a timed budget's verdicts depend on the machine: never kept).
fn review_effort(game: Effort) -> Effort {
    match game {
        Effort::Deals(n) => Effort::Deals(n),
        Effort::Usual | Effort::Time(_) => Effort::Usual,
    }
}
