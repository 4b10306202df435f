//! The notice line under the panel: one word from the game at a time (a
//! refusal, a wait, news from a shared table, a hint), and how long it
//! stays. Why a shared table is gone stays over anything said after it.

/// What the notice line says, and until when.
#[derive(Debug, Default)]
pub(super) struct Notice {
    text: Option<String>,
    /// A "wait" notice is stale once anyone moves; a refusal stays until
    /// the player acts.
    lasts_one_move: bool,
    /// Why the shared table is gone, once it is: shown in the notice's
    /// place until the player leaves.
    gone: Option<String>,
}

impl Notice {
    /// A word that stays until the player acts: a refusal, news.
    pub(super) fn stays(&mut self, text: impl Into<String>) {
        self.text = Some(text.into());
        self.lasts_one_move = false;
    }

    /// A word that is stale once anyone moves: a wait, a setting changed.
    pub(super) fn brief(&mut self, text: impl Into<String>) {
        self.text = Some(text.into());
        self.lasts_one_move = true;
    }

    /// The player acted, or chose anew: what was said no longer applies.
    pub(super) fn clear(&mut self) {
        self.text = None;
    }

    /// Another seat moved: a brief word is stale.
    pub(super) fn someone_moved(&mut self) {
        if self.lasts_one_move {
            self.text = None;
        }
    }

    /// The shared table is gone, and why: said until the player leaves.
    pub(super) fn table_gone(&mut self, why: String) {
        self.gone = Some(why);
    }

    /// The line as shown.
    pub(super) fn shown(&self) -> Option<&str> {
        self.gone.as_deref().or(self.text.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_brief_word_goes_when_anyone_moves_and_a_refusal_stays() {
        let mut notice = Notice::default();
        notice.brief("Wait: it is West's turn.");
        notice.someone_moved();
        assert_eq!(notice.shown(), None);
        notice.stays("You must follow hearts.");
        notice.someone_moved();
        assert_eq!(notice.shown(), Some("You must follow hearts."));
        notice.table_gone("The table is gone.".into());
        notice.brief("Speed: fast.");
        assert_eq!(
            notice.shown(),
            Some("The table is gone."),
            "over anything after"
        );
    }
}
