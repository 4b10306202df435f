//! The passing of time at the table: pauses before the others' moves, a
//! finished trick held for a moment, a card played for the player when it
//! is the only one, bots thinking on threads of their own, and a shared
//! table's news let out at the player's pace.

use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::engine::{Action, Card, Decision, Phase};
use crate::table::{Thinking, Thought};

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
        // The review's analysis runs aside; its news is taken in here.
        if let Some(review) = &mut self.review {
            review.poll();
        }
        // Nothing moves under a window or a review.
        if self.windows.open().is_some() || self.failure.is_some() || self.review.is_some() {
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
            if self.thinking.is_none() {
                let Some(thinking) = self.table.think() else {
                    return;
                };
                self.thinking = Some(think_aside(thinking));
                self.bot_due = Some(now + pace.bot);
            }
            if self.bot_due.is_some_and(|due| now < due) {
                return;
            }
            let Some(thought) = self.thought(THINK_WAIT) else {
                return;
            };
            self.bot_due = None;
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
        if remote.next_is_others_move() {
            match self.bot_due {
                None => {
                    self.bot_due = Some(now + pace.bot);
                    return false;
                }
                Some(due) if now < due => return false,
                Some(_) => self.bot_due = None,
            }
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

    /// The thinking bot's answer, waiting for it up to `wait`.
    pub(super) fn thought(&mut self, wait: Duration) -> Option<Thought> {
        let answer = self.thinking.as_ref()?.recv_timeout(wait);
        match answer {
            Ok(thought) => {
                self.thinking = None;
                Some(thought)
            }
            Err(RecvTimeoutError::Timeout) => None,
            // A bot that panics is a bug: it is not hidden.
            Err(RecvTimeoutError::Disconnected) => {
                panic!("a computer player failed while thinking")
            }
        }
    }

    /// Seats the bot's answer at the table; false when it broke a rule.
    pub(super) fn answer(&mut self, thought: Thought) -> bool {
        match self.table.answer(thought) {
            Ok(()) => {
                // A program at a seat that failed is said once, as sim does.
                for (seat, why) in self.table.replaced() {
                    if !self.replaced_told.contains(&seat) {
                        self.replaced_told.push(seat);
                        self.notice.stays(format!(
                            "{}'s program was replaced by {why}",
                            self.names.seat(seat)
                        ));
                    }
                }
                let events = self.table.take_events(self.you);
                self.absorb(events);
                true
            }
            Err(error) => {
                self.failure = Some(error);
                false
            }
        }
    }

    /// Is a computer player thinking right now?
    pub fn is_thinking(&self) -> bool {
        self.thinking.is_some()
    }

    /// Is the table waiting on a bot's answer, its pause over?
    pub fn waits_for_bot(&self) -> bool {
        self.thinking.is_some() && self.bot_due.is_none_or(|due| self.now >= due)
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

/// How long a tick waits for a bot whose pause is over: long enough that
/// a quick bot's answer shows on the tick it is due, short enough that the
/// table never seems to stall while a slow one thinks.
const THINK_WAIT: Duration = Duration::from_millis(5);

/// Thinks `thinking` out on a thread of its own; the answer comes back on
/// the channel. Nobody waits for the thread: a game left while a bot
/// thinks simply drops its answer.
fn think_aside(thinking: Thinking) -> Receiver<Thought> {
    let (answer, thought) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = answer.send(thinking.think());
    });
    thought
}
