//! What the finished game did to the player's rating, for the game-over
//! window. A server's ladder says it with its goodbye; else it is worked
//! out from the records folder, which can be large: that read runs aside,
//! started when the game ends, so no update of the screen waits on the
//! disk. Until it answers, the window says so.

use std::path::PathBuf;

use super::super::components::aside::Aside;
use super::super::link::TableLink;
use super::App;

/// The rating's word on the game: `None` until the game is over.
pub(super) type RatingNote = Option<Aside<Vec<String>>>;

impl App {
    /// Starts working out the note, once the game is over. The ladder's
    /// word is known at once, as is a game's that nothing on disk rates (a
    /// practice game, or one not recorded); a rated game's is read from
    /// the records aside.
    pub(super) fn start_rating_note(&mut self) {
        let setup = match &self.table {
            TableLink::Remote(remote) => {
                if let Some(rating) = remote.ladder_rating() {
                    let note = vec![super::windows::ladder_note(rating)];
                    self.rating_note = Some(Aside::Done(note));
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
            self.rating_note = Some(Aside::Done(lines));
            return;
        }
        self.rating_note = Some(Aside::start(move || {
            let records = setup.records.as_deref();
            crate::session::end_note(records, record.as_deref(), &setup, quick)
        }));
    }

    /// Takes the note in once it has been read.
    pub(super) fn take_rating_note(&mut self) {
        if let Some(note) = &mut self.rating_note {
            note.take_answer(|| vec!["Rating unknown: the records could not be read.".into()]);
        }
    }

    /// Is the note on the player's rating still being read from the records?
    pub fn rating_pending(&self) -> bool {
        self.rating_note.as_ref().is_some_and(Aside::is_working)
    }

    /// Are the records being read aside, for the rating's note, the
    /// statistics window or the viewer of the game just played? The
    /// screen says so until they come.
    pub fn reading_records(&self) -> bool {
        self.rating_pending() || self.windows.reading_stats() || self.reading_game()
    }
}
