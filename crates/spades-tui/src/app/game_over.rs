//! The end of a game at the table: play again, or look back at the game
//! just played, read from its record: its replay (`r`) or its review (`a`,
//! the replay with the analysis started on a thread of its own), in the
//! viewer `spades replay` shows. Leaving the viewer comes back here. The
//! record is read on a thread of its own too: no update reads the disk.

use std::path::PathBuf;

use crate::bots::Effort;

use super::super::components::aside::Aside;
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

    /// Starts reading the game just played for the replay viewer, its
    /// analysis to start when `analyse`; or says why it cannot be.
    pub(super) fn look_back(&mut self, analyse: bool) {
        if self.looking_back.is_some() {
            return;
        }
        match self.record_to_look_back_at() {
            Ok((path, effort)) => {
                self.notice.stays(READING);
                let viewer = Aside::start(move || viewer_of(path, effort));
                self.looking_back = Some(LookingBack { analyse, viewer });
            }
            Err(why) => self.notice.brief(why),
        }
    }

    /// Opens the viewer once the record has been read: a tick's work.
    pub(super) fn open_looked_back(&mut self) {
        let Some(LookingBack { analyse, viewer }) = self.looking_back.take() else {
            return;
        };
        let answer = match viewer.into_answer(|| Err("The game's record could not be read.".into()))
        {
            Ok(answer) => answer,
            Err(viewer) => {
                self.looking_back = Some(LookingBack { analyse, viewer });
                return;
            }
        };
        self.notice.clear();
        match answer {
            Ok(mut viewer) => {
                if analyse {
                    viewer.start_analysis();
                }
                self.review = Some(viewer);
            }
            Err(why) => self.notice.brief(why),
        }
    }

    /// Is the game just played being read for the viewer?
    pub fn reading_game(&self) -> bool {
        self.looking_back.is_some()
    }

    /// The game just played, as the replay viewer shows it (from its
    /// record); or why it cannot be. It reads the record where it is
    /// called: the screen reader's loop, which waits on a line anyway.
    pub fn game_just_played(&self) -> Result<Viewer, String> {
        let (path, effort) = self.record_to_look_back_at()?;
        viewer_of(path, effort)
    }

    /// The record of the game just played and the review's budget; or
    /// why there is none to look back at.
    fn record_to_look_back_at(&self) -> Result<(PathBuf, Effort), String> {
        if self.table.is_remote() {
            return Err("A shared table's game: spades replay shows its record.".into());
        }
        let Some(path) = self.record_path() else {
            return Err("This game is not recorded: there is nothing to replay.".into());
        };
        Ok((path.to_path_buf(), review_effort(self.config.game.effort)))
    }
}

/// The notice while the record is read.
const READING: &str = "Reading the game's record…";

/// The game just played being read aside for the viewer.
#[derive(Debug)]
pub(super) struct LookingBack {
    analyse: bool,
    viewer: Aside<Result<Viewer, String>>,
}

/// The last game of the record at `path` in the replay viewer.
fn viewer_of(path: PathBuf, effort: Effort) -> Result<Viewer, String> {
    let last = LastGame::in_file(&path).map_err(|e| sentence(&e.to_string()))?;
    let (text, number, game) = (last.text, last.number, last.game);
    Viewer::of_record(Source::GameJustPlayed, path, text, number, game, effort)
        .map_err(|e| sentence(&format!("the game's record does not replay: {e}")))
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
