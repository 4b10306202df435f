//! What the finished game did to the player's rating, for the game-over
//! window. A server's ladder says it with its goodbye; else it is worked
//! out from the records folder, which can be large: that read runs on a
//! thread of its own, started when the game ends, so no update of the
//! screen waits on the disk. Until it answers, the window says so.

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, TryRecvError};

use crate::session::GameSetup;

use super::super::link::TableLink;
use super::App;

/// The rating's word on the game, as far as it is known.
#[derive(Debug, Default)]
pub(super) enum RatingNote {
    /// The game is not over yet.
    #[default]
    NotYet,
    /// The records are being read on a thread of its own.
    Reading(Receiver<Vec<String>>),
    Read(Vec<String>),
}

impl RatingNote {
    /// The note's lines once known; none while the game goes on or the
    /// records are read.
    pub(super) fn lines(&self) -> &[String] {
        match self {
            RatingNote::Read(lines) => lines,
            RatingNote::NotYet | RatingNote::Reading(_) => &[],
        }
    }

    pub(super) fn is_reading(&self) -> bool {
        matches!(self, RatingNote::Reading(_))
    }

    /// Takes the thread's answer if it has come, without waiting for it.
    pub(super) fn take_answer(&mut self) {
        let RatingNote::Reading(answer) = self else {
            return;
        };
        *self = match answer.try_recv() {
            Ok(lines) => RatingNote::Read(lines),
            Err(TryRecvError::Empty) => return,
            // A thread that dies is a bug: it is said, not hidden.
            Err(TryRecvError::Disconnected) => RatingNote::Read(vec![
                "Rating unknown: the records could not be read.".into(),
            ]),
        };
    }
}

impl App {
    /// Starts working out the note, once the game is over. The ladder's
    /// word is known at once, as is a game's that nothing on disk rates (a
    /// practice game, or one not recorded); a rated game's is read from
    /// the records on a thread of its own.
    pub(super) fn start_rating_note(&mut self) {
        let setup = match &self.table {
            TableLink::Remote(remote) => {
                if let Some(rating) = remote.ladder_rating() {
                    self.rating_note = RatingNote::Read(vec![super::windows::ladder_note(rating)]);
                    return;
                }
                self.config.game.clone()
            }
            TableLink::Local(game) => game.setup().clone(),
        };
        let record = self.record_path().map(PathBuf::from);
        let quick = self.table.rules().is_quick();
        if setup.practice || setup.records.is_none() || record.is_none() {
            // Nothing on disk to read: the note says so at once.
            let lines = crate::session::end_note(None, None, &setup, quick);
            self.rating_note = RatingNote::Read(lines);
            return;
        }
        self.rating_note = RatingNote::Reading(read_aside(setup, record, quick));
    }

    /// Is the note on the player's rating still being read from the records?
    pub fn rating_pending(&self) -> bool {
        self.rating_note.is_reading()
    }
}

/// Reads the note from the records folder on a thread of its own; the
/// answer comes back on the channel. Nobody waits for the thread: a game
/// left meanwhile drops its answer.
fn read_aside(setup: GameSetup, record: Option<PathBuf>, quick: bool) -> Receiver<Vec<String>> {
    let (answer, note) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let records = setup.records.as_deref();
        let lines = crate::session::end_note(records, record.as_deref(), &setup, quick);
        let _ = answer.send(lines);
    });
    note
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_is_empty_while_read_and_taken_once_it_comes() {
        let (answer, note) = std::sync::mpsc::channel();
        let mut rating = RatingNote::Reading(note);
        rating.take_answer();
        assert!(
            rating.is_reading(),
            "nothing has come: it is not waited for"
        );
        assert!(rating.lines().is_empty());
        answer.send(vec!["Rating 1600".to_string()]).unwrap();
        rating.take_answer();
        assert!(!rating.is_reading());
        assert_eq!(rating.lines(), ["Rating 1600"]);
    }

    #[test]
    fn a_reader_that_dies_says_the_rating_is_unknown() {
        let (answer, note) = std::sync::mpsc::channel::<Vec<String>>();
        drop(answer);
        let mut rating = RatingNote::Reading(note);
        rating.take_answer();
        assert!(
            rating.lines()[0].starts_with("Rating unknown"),
            "{rating:?}"
        );
    }
}
