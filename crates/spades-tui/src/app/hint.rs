//! Hints worked out on a thread of their own, so the table keeps drawing
//! and answering keys: a quick look first, shown at once, then a longer
//! one that refines it. The cursor goes to the first answer, and moves
//! again only if the longer look changes the choice (and the notice says
//! so). Once the player has asked for a hint in a game, each of their
//! decisions is worked out as soon as it comes, so the next hint is there
//! when asked. A hint for a decision that has passed is cancelled.

use std::sync::mpsc::{Receiver, TryRecvError};

use crate::bots::advice::{Advice, advise};
use crate::bots::hard::Cancel;
use crate::bots::{self, Effort};
use crate::engine::{Action, Decision, PlayerView};

use super::super::hand::hand_order;
use super::super::hint::{hint_lines, looks};
use super::{App, DecisionKey};

/// A hint being worked out for one decision.
pub(super) struct HintJob {
    decision: DecisionKey,
    cancel: Cancel,
    answers: Receiver<Advice>,
    /// The player asked for it: answers are shown as they come.
    wanted: bool,
    /// The latest answer, and the choice the player was first shown.
    latest: Option<Advice>,
    first_shown: Option<Action>,
    /// Every look has answered.
    done: bool,
}

impl Drop for HintJob {
    /// Nobody will read the answer: the search stops.
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

impl App {
    /// `h`: says what `hard` would do at the player's turn, from the
    /// player's own view of the table (nothing else is given to it).
    pub(super) fn hint(&mut self) {
        let view = self.view();
        let Some(decision) = self.decision_now(&view) else {
            self.notice.brief("A hint is for your turn.");
            return;
        };
        self.hints_asked = true;
        if self
            .hint
            .as_ref()
            .is_none_or(|job| job.decision != decision)
        {
            self.hint = self.start_hint(decision);
        }
        let Some(job) = &mut self.hint else {
            return;
        };
        job.wanted = true;
        // Asked again, the cursor goes back to the hint.
        job.first_shown = None;
        if job.latest.is_none() {
            self.notice.brief("Hint: thinking it over...");
        }
        self.show_hint();
    }

    /// Is a hint the player asked for still being worked out?
    pub fn hint_pending(&self) -> bool {
        self.hint
            .as_ref()
            .is_some_and(|job| job.wanted && !job.done)
    }

    /// Keeps the hint in step with the table: a stale one is dropped, one
    /// is started ahead for a new decision once the player has asked for
    /// hints, and answers that came are shown.
    pub(super) fn follow_hint(&mut self) {
        let decision = self.decision_now(&self.view());
        if self
            .hint
            .as_ref()
            .is_some_and(|j| Some(j.decision) != decision)
        {
            self.hint = None;
        }
        if self.hint.is_none()
            && self.hints_asked
            && let Some(decision) = decision
        {
            self.hint = self.start_hint(decision);
        }
        let Some(job) = &mut self.hint else {
            return;
        };
        let mut came = Vec::new();
        loop {
            match job.answers.try_recv() {
                Ok(advice) => came.push(advice),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    job.done = true;
                    break;
                }
            }
        }
        // Each answer in turn, even when several came between two draws
        // (a loaded machine): the notice says "on a longer look" when the
        // longer look changed the choice, however fast the looks were.
        for advice in came {
            if let Some(job) = &mut self.hint {
                job.latest = Some(advice);
            }
            self.show_hint();
        }
    }

    /// Starts working out the hint for `decision` on a thread of its own.
    fn start_hint(&self, decision: DecisionKey) -> Option<HintJob> {
        let turn = self.human_turn()?;
        let view = self.hand_view();
        let cancel = Cancel::default();
        let answers = think_hint(view, turn.decision, self.config.game.effort, &cancel);
        Some(HintJob {
            decision,
            cancel,
            answers,
            wanted: false,
            latest: None,
            first_shown: None,
            done: false,
        })
    }

    /// Shows the latest answer, if the player asked: the cursor goes to it
    /// the first time, and after that only when the choice changes.
    fn show_hint(&mut self) {
        let Some(job) = &mut self.hint else {
            return;
        };
        let Some(advice) = job.latest.clone().filter(|_| job.wanted) else {
            return;
        };
        let chosen = advice.weighing.chosen;
        let changed = job.first_shown.is_some_and(|first| first != chosen);
        let moves = job.first_shown.is_none() || changed;
        if job.first_shown.is_none() {
            job.first_shown = Some(chosen);
        }
        self.notice
            .brief(hint_lines(&advice, changed, &self.theme).join("\n"));
        if moves {
            self.select(chosen, &self.hand_view());
        }
    }

    /// Puts the selection on `action`, for the player to make: the card,
    /// the bid, the answer to the blind offer, or the cards to pass.
    fn select(&mut self, action: Action, view: &PlayerView) {
        match action {
            Action::Play(card) => self.hand.place_on(card, &hand_order(view.cards())),
            Action::Bid(_) | Action::Look
                if self.human_turn().map(|t| t.decision) == Some(Decision::BlindNil) =>
            {
                self.offer.select(action);
            }
            Action::Bid(bid) => self.bids.choose(bid, view),
            Action::Look => {}
            Action::Exchange(cards) => self.exchange.set(cards),
        }
    }
}

/// Works a hint out on a thread of its own, each look in turn; every
/// answer comes back on the channel. Seeded from where the game stands:
/// the same question, the same hint. The thread stops when cancelled.
fn think_hint(
    view: PlayerView,
    decision: Decision,
    effort: Effort,
    cancel: &Cancel,
) -> Receiver<Advice> {
    let (answer, answers) = std::sync::mpsc::channel();
    let cancel = cancel.clone();
    std::thread::spawn(move || {
        let seed = u64::from(view.hand_no) << 8 | u64::from(view.play.played.len());
        for effort in looks(effort) {
            let mut rng = bots::bot_rng(seed, view.seat);
            let advice = advise(&view, decision, effort, &cancel, &mut rng);
            if cancel.is_cancelled() || answer.send(advice).is_err() {
                return;
            }
        }
    });
    answers
}
