//! The passing of time at the table: pauses before the others' moves, a
//! finished trick held for a moment, a card played for the player when it
//! is the only one, the other seats' moves once their pause is over (their
//! timing and thinking kept by `ComputerTurns`), and a shared table's news
//! let out at the player's pace.

use std::time::Instant;

use crate::engine::{Action, Card, Decision, Phase};
use crate::table::Thought;

use super::{App, sentence};

impl App {
    /// Lets time pass: finished tricks clear and bots act, each after the
    /// pause the speed asks for.
    pub(super) fn tick(&mut self, now: Instant) {
        // The app's clock never runs back, so a pause is measured one way.
        self.now = self.now.max(now);
        let now = self.now;
        // A shared table's messages are read as they come, even under a
        // window: the time an ask gives counts from its reading.
        if let Some(remote) = self.table.remote() {
            remote.pump(now);
        }
        // The game just played, read aside, opens in the viewer once read.
        self.open_looked_back();
        // The review's analysis runs aside; its news is taken in here.
        if let Some(review) = &mut self.review {
            review.poll();
        }
        // A claim's verdict is told on the tick it comes, before anything
        // else moves: until then the table waits on it.
        if self.settle_claim() || self.claiming.pending() {
            return;
        }
        // Nothing moves under a window or a review.
        if self.windows.open().is_some()
            || self.computer_turns.has_failed()
            || self.review.is_some()
        {
            return;
        }
        let pace = self.speed.pace();
        loop {
            if let Some(held) = &mut self.held {
                match held.until {
                    None => held.until = Some(now + pace.trick),
                    Some(until) if now >= until => self.end_pause(),
                    Some(_) => return,
                }
                continue;
            }
            if self.summary.is_some() {
                return;
            }
            if let Some(card) = self.forced_card() {
                let turn = self.decision_now(&self.view());
                match self.auto_due {
                    Some((of, due)) if Some(of) == turn && now >= due => {
                        self.auto_due = None;
                        self.act(Action::Play(card));
                        continue;
                    }
                    Some((of, _)) if Some(of) == turn => return,
                    // None yet, or one left from a turn the player answered
                    // themselves: this turn waits its own pause.
                    _ => self.auto_due = turn.map(|t| (t, now + pace.bot)),
                }
            }
            if self.table.is_remote() {
                if !self.remote_step(now) {
                    return;
                }
                continue;
            }
            if self.table.bot_turn().is_none() {
                return;
            }
            // The bot starts thinking at once, on a thread of its own, so
            // the table keeps drawing and answering keys while it thinks;
            // its answer shows once the pause is over.
            let think = || self.table.think();
            let Some(thought) = self.computer_turns.decision(now, pace.bot, think) else {
                return;
            };
            self.notice.someone_moved();
            if !self.answer(thought) {
                return;
            }
        }
    }

    /// Shows the next move at a table on a server, once its pause is over:
    /// another seat's move waits as a bot's would here. False when there
    /// is nothing to show yet.
    pub(super) fn remote_step(&mut self, now: Instant) -> bool {
        let pace = self.speed.pace();
        if let Some(remote) = self.table.remote() {
            remote.pump(now);
        }
        self.show_news();
        let Some(remote) = self.table.remote() else {
            return false;
        };
        if !remote.has_waiting() {
            return false;
        }
        if remote.next_is_others_move() && !self.computer_turns.others_move_shows(now, pace.bot) {
            return false;
        }
        remote.step();
        let closed = remote.closed().map(str::to_string);
        // The ladder's word comes with the goodbye, after the game's end
        // was shown: it takes the place of the note worked out here.
        if remote.ladder_rating().is_some() {
            self.start_rating_note();
        }
        if !self.show_news() {
            self.notice.someone_moved();
        }
        self.hear_timed_out();
        let events = self.table.take_events(self.you);
        self.absorb(events);
        if let Some(why) = closed
            && self.table.phase() != Phase::Over
        {
            let leave = self.leave_words();
            self.notice
                .table_gone(sentence(&format!("the table is gone: {why}; {leave}")));
            return false;
        }
        true
    }

    /// Puts a shared table's latest news (chat, seats changing hands,
    /// refusals) in the notice line; says whether there was any.
    pub(super) fn show_news(&mut self) -> bool {
        let latest = self.table.remote().and_then(|r| r.take_news().pop());
        let Some(news) = latest else {
            return false;
        };
        self.notice.stays(news);
        true
    }

    /// Seats the bot's answer at the table; false when it broke a rule.
    pub(super) fn answer(&mut self, thought: Thought) -> bool {
        match self.table.answer(thought) {
            Ok(()) => {
                // A program at a seat that failed is said once, as sim does.
                for (seat, why) in self.computer_turns.untold(self.table.replaced()) {
                    self.notice.stays(format!(
                        "{}'s program was replaced by {why}",
                        self.names.seat(seat)
                    ));
                }
                let events = self.table.take_events(self.you);
                self.absorb(events);
                true
            }
            Err(error) => {
                self.computer_turns.fail(error);
                false
            }
        }
    }

    /// Is a computer player thinking right now?
    pub fn is_thinking(&self) -> bool {
        self.computer_turns.is_thinking()
    }

    /// Is the table waiting on a bot's answer, its pause over?
    pub fn waits_for_bot(&self) -> bool {
        self.computer_turns.waits(self.now)
    }

    /// A finished trick leaves the table; keys that follow at once were
    /// meant for the pause, not for the next turn.
    pub(super) fn end_pause(&mut self) {
        self.held = None;
        self.guard.start(self.now, self.speed.pace().guard);
    }

    pub(super) fn guarded(&self) -> bool {
        self.guard.is_on(self.now)
    }

    /// A key the guard holds back: it does nothing, but is seen.
    pub(super) fn hold_back(&mut self) {
        self.guard.hold_back();
    }

    /// The card auto-play plays: the player's only legal one, when it is
    /// their turn to play and auto-play is on.
    pub(super) fn forced_card(&self) -> Option<Card> {
        if !self.auto_play || self.human_turn().map(|t| t.decision) != Some(Decision::Play) {
            return None;
        }
        let legal = self.hand_view().legal_plays();
        (legal.len() == 1).then(|| legal.lowest()).flatten()
    }
}
