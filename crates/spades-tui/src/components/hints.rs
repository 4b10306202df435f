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

use super::super::hint::{hint_lines, looks};
use super::super::theme::Theme;
use super::DecisionKey;

/// The hint being worked out for the player's decision, if any, and
/// whether the player has asked for hints in this game.
#[derive(Default)]
pub struct Hints {
    job: Option<HintJob>,
    /// Each decision's hint is worked out as it comes.
    asked: bool,
}

/// What a hint has the table show: the notice's lines, and the choice the
/// selection goes to, when it moves.
#[derive(Debug, Clone, PartialEq)]
pub struct Shown {
    pub notice: String,
    pub select: Option<Action>,
}

/// A hint being worked out for one decision.
pub struct HintJob {
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

impl HintJob {
    /// Starts working out the hint for `decision` (`turn`, as `view` sees
    /// it) on a thread of its own, each look in turn up to `effort`.
    pub fn start(
        decision: DecisionKey,
        view: PlayerView,
        turn: Decision,
        effort: Effort,
    ) -> HintJob {
        let cancel = Cancel::default();
        let answers = think_hint(view, turn, effort, &cancel);
        HintJob::of(decision, answers, cancel)
    }

    /// A job whose answers come on `answers`.
    fn of(decision: DecisionKey, answers: Receiver<Advice>, cancel: Cancel) -> HintJob {
        HintJob {
            decision,
            cancel,
            answers,
            wanted: false,
            latest: None,
            first_shown: None,
            done: false,
        }
    }

    /// The answers that have come since last asked; `done` once the
    /// thread has given its last.
    fn take_answers(&mut self) -> Vec<Advice> {
        let mut came = Vec::new();
        loop {
            match self.answers.try_recv() {
                Ok(advice) => came.push(advice),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    self.done = true;
                    break;
                }
            }
        }
        came
    }

    /// The latest answer as shown, if the player asked: the cursor goes
    /// to it the first time, and after that only when the choice changes.
    fn shown(&mut self, theme: &Theme) -> Option<Shown> {
        let advice = self.latest.as_ref().filter(|_| self.wanted)?;
        let chosen = advice.weighing.chosen;
        let changed = self.first_shown.is_some_and(|first| first != chosen);
        let moves = self.first_shown.is_none() || changed;
        let notice = hint_lines(advice, changed, theme).join("\n");
        self.first_shown.get_or_insert(chosen);
        Some(Shown {
            notice,
            select: moves.then_some(chosen),
        })
    }
}

impl Hints {
    /// `h` at `decision`: from now on each decision's hint is worked out
    /// as it comes. `start` starts this one's, unless it is being worked
    /// out already. Says what to show: the hint, or that it is coming.
    pub fn ask(
        &mut self,
        decision: DecisionKey,
        start: impl FnOnce(DecisionKey) -> Option<HintJob>,
        theme: &Theme,
    ) -> Vec<Shown> {
        self.asked = true;
        if self.job.as_ref().is_none_or(|job| job.decision != decision) {
            self.job = start(decision);
        }
        let Some(job) = &mut self.job else {
            return Vec::new();
        };
        job.wanted = true;
        // Asked again, the cursor goes back to the hint.
        job.first_shown = None;
        let thinking = job.latest.is_none().then(|| Shown {
            notice: "Hint: thinking it over...".into(),
            select: None,
        });
        thinking.into_iter().chain(job.shown(theme)).collect()
    }

    /// Keeps the hint in step with the player's decision now: a stale one
    /// is dropped, one is started ahead (by `start`) for a new decision
    /// once the player has asked for hints, and answers that came are
    /// shown, each in turn.
    pub fn follow(
        &mut self,
        decision: Option<DecisionKey>,
        start: impl FnOnce(DecisionKey) -> Option<HintJob>,
        theme: &Theme,
    ) -> Vec<Shown> {
        if self
            .job
            .as_ref()
            .is_some_and(|j| Some(j.decision) != decision)
        {
            self.job = None;
        }
        if self.job.is_none()
            && self.asked
            && let Some(decision) = decision
        {
            self.job = start(decision);
        }
        let Some(job) = &mut self.job else {
            return Vec::new();
        };
        // Each answer in turn, even when several came between two draws
        // (a loaded machine): the notice says "on a longer look" when the
        // longer look changed the choice, however fast the looks were.
        let mut shown = Vec::new();
        for advice in job.take_answers() {
            job.latest = Some(advice);
            shown.extend(job.shown(theme));
        }
        shown
    }

    /// Is a hint the player asked for still being worked out?
    pub fn pending(&self) -> bool {
        self.job.as_ref().is_some_and(|job| job.wanted && !job.done)
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

#[cfg(test)]
mod tests {
    use std::sync::mpsc::{Sender, channel};

    use super::*;
    use crate::bots::advice::Reason;
    use crate::bots::hard::Weighing;
    use crate::engine::Bid;

    const FIRST: DecisionKey = (1, 0, Decision::Bid);
    const LATER: DecisionKey = (1, 4, Decision::Play);

    fn advising(bid: u8) -> Advice {
        Advice {
            weighing: Weighing {
                chosen: Action::Bid(Bid::Tricks(bid)),
                ranked: Vec::new(),
            },
            reason: Reason::Usual,
        }
    }

    /// A job whose answers the test sends, and its cancel to look at.
    fn job(decision: DecisionKey) -> (HintJob, Sender<Advice>, Cancel) {
        let (send, answers) = channel();
        let cancel = Cancel::default();
        (HintJob::of(decision, answers, cancel.clone()), send, cancel)
    }

    fn notices(shown: &[Shown]) -> Vec<&str> {
        shown.iter().map(|s| s.notice.as_str()).collect()
    }

    #[test]
    fn asked_before_an_answer_it_says_it_is_thinking_then_shows_the_answer_once() {
        let mut hints = Hints::default();
        let (job, send, _) = job(FIRST);
        let shown = hints.ask(FIRST, |_| Some(job), &Theme::PLAIN);
        assert_eq!(notices(&shown), ["Hint: thinking it over..."]);
        assert_eq!(shown[0].select, None);
        assert!(hints.pending());
        send.send(advising(3)).unwrap();
        let shown = hints.follow(Some(FIRST), |_| panic!("one job"), &Theme::PLAIN);
        assert_eq!(shown.len(), 1, "{shown:?}");
        assert!(shown[0].notice.starts_with("Hint: bid 3"), "{shown:?}");
        assert_eq!(shown[0].select, Some(Action::Bid(Bid::Tricks(3))));
        let again = hints.follow(Some(FIRST), |_| panic!("one job"), &Theme::PLAIN);
        assert!(again.is_empty(), "an answer is shown once");
        drop(send);
        hints.follow(Some(FIRST), |_| panic!("one job"), &Theme::PLAIN);
        assert!(!hints.pending(), "every look has answered");
    }

    #[test]
    fn the_cursor_moves_again_only_when_a_longer_look_changes_the_choice() {
        let mut hints = Hints::default();
        let (job, send, _) = job(FIRST);
        hints.ask(FIRST, |_| Some(job), &Theme::PLAIN);
        for bid in [3, 3, 4] {
            send.send(advising(bid)).unwrap();
        }
        let shown = hints.follow(Some(FIRST), |_| None, &Theme::PLAIN);
        let selected: Vec<_> = shown.iter().map(|s| s.select).collect();
        let four = Some(Action::Bid(Bid::Tricks(4)));
        assert_eq!(selected, [Some(Action::Bid(Bid::Tricks(3))), None, four]);
        assert!(shown[2].notice.starts_with("Hint, on a longer look:"));
        // Asked again, the cursor goes back to the hint, as a first answer.
        let shown = hints.ask(FIRST, |_| panic!("still the same job"), &Theme::PLAIN);
        assert_eq!(shown.len(), 1, "the answer is there: no thinking line");
        assert_eq!(shown[0].select, four);
        assert!(shown[0].notice.starts_with("Hint: bid 4"), "{shown:?}");
    }

    #[test]
    fn answers_not_asked_for_are_kept_quiet_until_asked() {
        let mut hints = Hints::default();
        let (job, send, _) = job(FIRST);
        hints.asked = true;
        let shown = hints.follow(Some(FIRST), |_| Some(job), &Theme::PLAIN);
        assert!(shown.is_empty());
        assert!(!hints.pending(), "worked out ahead, not waited for");
        send.send(advising(2)).unwrap();
        assert!(
            hints
                .follow(Some(FIRST), |_| None, &Theme::PLAIN)
                .is_empty()
        );
        let shown = hints.ask(FIRST, |_| panic!("worked out ahead"), &Theme::PLAIN);
        assert_eq!(shown.len(), 1);
        assert_eq!(shown[0].select, Some(Action::Bid(Bid::Tricks(2))));
    }

    #[test]
    fn a_hint_for_a_decision_passed_is_cancelled_and_the_next_started_once_asked() {
        let mut hints = Hints::default();
        assert!(
            hints
                .follow(Some(FIRST), |_| panic!("never asked"), &Theme::PLAIN)
                .is_empty()
        );
        let (first, _send, cancel) = job(FIRST);
        hints.ask(FIRST, |_| Some(first), &Theme::PLAIN);
        let (later, _later_send, later_cancel) = job(LATER);
        hints.follow(Some(LATER), |_| Some(later), &Theme::PLAIN);
        assert!(cancel.is_cancelled(), "the passed decision's search stops");
        assert!(!later_cancel.is_cancelled());
        assert!(!hints.pending(), "the new one was not asked for yet");
        hints.follow(None, |_| panic!("not the player's turn"), &Theme::PLAIN);
        assert!(later_cancel.is_cancelled());
    }
}
