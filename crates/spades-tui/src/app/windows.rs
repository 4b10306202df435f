//! The windows and screens the player opens and closes: the hand's review,
//! the statistics, taking a move back, the next game; and the
//! settings a key changes (speed, auto-play).

use crate::story::Story;

use super::super::components::aside::Aside;
use super::super::replay::analysis::Analyser;
use super::super::replay::{Source, Viewer};
use super::{App, PlayConfig, sentence};

impl App {
    /// What the server said of a shared table, for the rules window: its
    /// code, who plays where, its bots' level, its rules' origin (`None`
    /// at home).
    pub fn table_facts(&self) -> Option<&crate::net::client::table_facts::TableFacts> {
        self.table.facts()
    }

    /// Takes back the player's last bid or card, and what the bots did
    /// after it: practice games only.
    pub(super) fn take_back(&mut self) {
        if !self.config.game.practice {
            self.notice
                .brief("Moves can be taken back only in a practice game (--practice).");
            return;
        }
        // A bot thinking now answers first: what it does is taken back too.
        if let Some(thought) = self.computer_turns.finish_thinking() {
            self.answer(thought);
        }
        match self.table.take_back(self.you) {
            Ok(true) => {
                self.told.forget(self.config.game.rules.mode);
                let events = self.table.take_events(self.you);
                self.absorb(events);
                self.settle_after_replay();
                self.notice.brief("Taken back.".to_string());
            }
            Ok(false) => {
                self.notice.brief("Nothing to take back.".to_string());
            }
            Err(e) => self.notice.stays(format!("Cannot take back: {e}.")),
        }
    }

    pub(super) fn toggle_auto_play(&mut self) {
        self.auto_play = !self.auto_play;
        self.auto_due = None;
        self.notice.brief(if self.auto_play {
            "Auto-play on: a card you have no choice about is played for you.".to_string()
        } else {
            "Auto-play off: you play every card yourself.".to_string()
        });
    }

    /// One step faster (`up` > 0) or slower along slow, normal, fast, instant.
    pub(super) fn change_speed(&mut self, up: i32) {
        self.speed = self.speed.step(up);
        self.notice.brief(format!("Speed: {}.", self.speed));
    }

    /// Opens the review of the hand summed up: built from the events the
    /// player's seat was told, which once a hand is over show every card,
    /// and the engine's result. The table is not asked for anything more.
    pub(super) fn open_review(&mut self) {
        let Some(result) = &self.summary else {
            return;
        };
        let rules = self.config.game.rules;
        let names = rules
            .mode
            .each_seat()
            .map(|s| self.names.seat(s).to_string())
            .collect();
        match Story::of_hand(rules, names, self.you, self.told.events(), result) {
            Ok(story) => {
                let analyser = match self.record_path() {
                    Some(path) => Analyser::of_hand_in(
                        path.to_path_buf(),
                        self.you,
                        self.config.game.effort,
                        u16::try_from(result.hand).unwrap_or(u16::MAX),
                    ),
                    None => Analyser::Unavailable(
                        "This game is not recorded, so it cannot be analysed.".into(),
                    ),
                };
                let viewer = Viewer::new(story, Source::HandReview).with_analyser(analyser);
                self.review = Some(viewer);
            }
            Err(why) => {
                self.notice
                    .brief(sentence(&format!("the hand cannot be reviewed: {why}")));
            }
        }
    }

    /// Opens the review of the hand summed up with its analysis started.
    pub(super) fn analyse_hand(&mut self) {
        self.open_review();
        if let Some(review) = &mut self.review {
            review.start_analysis();
        }
    }

    /// The player has read the hand's summary: the next hand is dealt.
    pub(super) fn close_summary(&mut self) {
        self.summary = None;
        self.guard.start(self.now, self.speed.pace().guard);
        if self.table.deal_next_hand() {
            let events = self.table.take_events(self.you);
            self.absorb(events);
        }
    }

    /// Opens the statistics window on the player's records as they stand,
    /// read aside: the window says so until they are.
    pub(super) fn open_stats(&mut self) {
        let stats = match self.config.game.records.clone() {
            Some(dir) => Aside::start(move || {
                crate::stats::summary_of(&dir)
                    .unwrap_or_else(|e| vec![format!("The records cannot be read: {e}.")])
            }),
            None => Aside::Done(vec![
                "Statistics come from the games' records, and no game is recorded here.".into(),
            ]),
        };
        self.windows.show_stats(stats);
    }

    pub(super) fn play_again(&mut self) {
        if self.table.is_remote() {
            let leave = self.leave_words();
            self.notice
                .brief(format!("This table's game is over: {leave}."));
            return;
        }
        let config = PlayConfig {
            game: self.config.game.next(self.open_seed()),
            ..self.config.clone()
        };
        match App::new(config, self.theme) {
            Ok(mut fresh) => {
                fresh.hits = std::mem::take(&mut self.hits);
                fresh.memory = std::mem::take(&mut self.memory);
                fresh.earlier = self.close();
                *self = fresh;
            }
            Err(error) => self.notice.stays(sentence(&error.to_string())),
        }
    }
}

/// The server's ladder's word on the game: the rating it recorded, or that
/// the result waits to be recorded (never a figure it does not hold).
pub(super) fn ladder_note(rating: &crate::protocol::account::GameRating) -> String {
    use crate::protocol::account::GameRating;
    match rating {
        GameRating::Recorded {
            before,
            after,
            deviation,
            provisional,
            ..
        } => format!(
            "Ladder rating {after}{} ± {deviation} ({} from {before})",
            if *provisional { "?" } else { "" },
            crate::rating::signed(f64::from(after - before)),
        ),
        GameRating::Pending { .. } => "Ladder rating pending: the server keeps this game \
             and rates it once its database is back."
            .into(),
    }
}

#[cfg(test)]
mod ladder_note_tests {
    use super::ladder_note;
    use crate::engine::Mode;
    use crate::protocol::account::GameRating;

    #[test]
    fn the_ladders_word_is_its_figure_or_pending_and_no_figure() {
        let recorded = GameRating::Recorded {
            mode: Mode::Partnership,
            before: 1759,
            after: 1846,
            deviation: 213,
            provisional: false,
        };
        assert_eq!(
            ladder_note(&recorded),
            "Ladder rating 1846 ± 213 (+87 from 1759)"
        );
        let pending = ladder_note(&GameRating::Pending {
            mode: Mode::Partnership,
        });
        assert!(pending.starts_with("Ladder rating pending"), "{pending}");
        assert!(!pending.chars().any(|c| c.is_ascii_digit()), "{pending}");
    }
}
