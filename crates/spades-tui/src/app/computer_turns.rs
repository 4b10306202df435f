//! The other seats' turns as the player sees them: when the next computer
//! player's move shows (after the pause the speed asks for), the decision
//! being thought out on a thread of its own meanwhile, the seats whose
//! failed program the player has been told of, and a computer player that
//! broke a rule, which ends the game.

use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::engine::Seat;
use crate::table::{BotError, Thinking, Thought};

/// How long a tick waits for a bot whose pause is over: long enough that
/// a quick bot's answer shows on the tick it is due, short enough that the
/// table never seems to stall while a slow one thinks.
const THINK_WAIT: Duration = Duration::from_millis(5);

#[derive(Debug, Default)]
pub(super) struct ComputerTurns {
    /// When the next move of another seat shows: a computer player's here,
    /// any other seat's at a table on a server.
    due: Option<Instant>,
    /// A computer player's decision being thought out on a thread of its
    /// own; nothing at the table waits on it.
    thinking: Option<Receiver<Thought>>,
    /// Seats whose failed program the player has been told of.
    told: Vec<Seat>,
    failure: Option<BotError>,
}

impl ComputerTurns {
    /// The computer player's decision, once its pause from `now` is over
    /// and it has been thought out. The thinking starts at once, on a
    /// thread of its own, with what `think` hands out (nothing: no
    /// computer player's turn), so the table keeps drawing and answering
    /// keys while it thinks.
    pub(super) fn decision(
        &mut self,
        now: Instant,
        pause: Duration,
        think: impl FnOnce() -> Option<Thinking>,
    ) -> Option<Thought> {
        if self.thinking.is_none() {
            self.thinking = Some(think_aside(think()?));
            self.due = Some(now + pause);
        }
        if self.due.is_some_and(|due| now < due) {
            return None;
        }
        let thought = self.wait(THINK_WAIT)?;
        self.due = None;
        Some(thought)
    }

    /// The decision being thought out, however long it takes: a move
    /// taken back takes what the computer player does after it too.
    pub(super) fn finish_thinking(&mut self) -> Option<Thought> {
        let thought = self.wait(Duration::MAX)?;
        self.due = None;
        Some(thought)
    }

    /// At a table on a server: may another seat's move show at `now`? The
    /// first time it is asked, its pause starts.
    pub(super) fn others_move_shows(&mut self, now: Instant, pause: Duration) -> bool {
        match self.due {
            None => {
                self.due = Some(now + pause);
                false
            }
            Some(due) if now < due => false,
            Some(_) => {
                self.due = None;
                true
            }
        }
    }

    /// The thinking computer player's answer, waiting for it up to `wait`.
    fn wait(&mut self, wait: Duration) -> Option<Thought> {
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

    /// The seats among `replaced` (each with why) whose failed program the
    /// player has not been told of yet; each is told once.
    pub(super) fn untold(&mut self, replaced: Vec<(Seat, String)>) -> Vec<(Seat, String)> {
        let mut untold = Vec::new();
        for (seat, why) in replaced {
            if !self.told.contains(&seat) {
                self.told.push(seat);
                untold.push((seat, why));
            }
        }
        untold
    }

    /// A computer player broke a rule: the game cannot go on.
    pub(super) fn fail(&mut self, error: BotError) {
        self.failure = Some(error);
    }

    pub(super) fn has_failed(&self) -> bool {
        self.failure.is_some()
    }

    pub(super) fn take_failure(&mut self) -> Option<BotError> {
        self.failure.take()
    }

    pub(super) fn is_thinking(&self) -> bool {
        self.thinking.is_some()
    }

    /// Is the table waiting on a decision at `now`, its pause over?
    pub(super) fn waits(&self, now: Instant) -> bool {
        self.thinking.is_some() && self.due.is_none_or(|due| now >= due)
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::normal::NormalBot;
    use crate::engine::{Action, Bid, Mode, RuleError, Rules};
    use crate::fairness::Dealing;
    use crate::table::{Player, Table};

    const PAUSE: Duration = Duration::from_millis(300);

    /// A table of computer players only: every turn is theirs.
    fn bots_table() -> Table {
        let players = Mode::Partnership
            .each_seat()
            .map(|_| Player::Bot(Box::new(NormalBot::default())))
            .collect();
        Table::new(Rules::classic(Mode::Partnership), Dealing::Open(3), players)
    }

    /// Asks at `now` until the decision has come (its thread may be slow).
    fn decided(turns: &mut ComputerTurns, table: &mut Table, now: Instant) -> Thought {
        loop {
            if let Some(thought) = turns.decision(now, PAUSE, || table.think()) {
                return thought;
            }
            assert!(turns.is_thinking(), "still out being thought");
        }
    }

    #[test]
    fn a_decision_shows_after_its_pause_and_is_taken_once() {
        let mut table = bots_table();
        let mut turns = ComputerTurns::default();
        let start = Instant::now();
        let early = turns.decision(start, PAUSE, || table.think());
        assert!(early.is_none(), "not before its pause");
        assert!(turns.is_thinking());
        assert!(!turns.waits(start), "the pause is not over");
        assert!(turns.waits(start + PAUSE));
        let thought = decided(&mut turns, &mut table, start + PAUSE);
        assert!(!turns.is_thinking(), "taken, nothing is out");
        table.answer(thought).expect("a legal decision");
        // The next one has its own pause, from when it is handed out.
        let later = start + PAUSE;
        assert!(turns.decision(later, PAUSE, || table.think()).is_none());
        assert!(turns.is_thinking());
    }

    #[test]
    fn no_computer_players_turn_hands_nothing_out() {
        let mut turns = ComputerTurns::default();
        let now = Instant::now();
        assert!(turns.decision(now + PAUSE, PAUSE, || None).is_none());
        assert!(!turns.is_thinking() && !turns.waits(now));
        assert!(turns.finish_thinking().is_none(), "nothing to wait for");
    }

    #[test]
    fn a_move_taken_back_waits_for_the_decision_being_thought() {
        let mut table = bots_table();
        let mut turns = ComputerTurns::default();
        let start = Instant::now();
        assert!(turns.decision(start, PAUSE, || table.think()).is_none());
        let thought = turns.finish_thinking().expect("waited for, pause or not");
        assert!(!turns.is_thinking());
        table.answer(thought).expect("a legal decision");
        // The next decision waits a pause of its own.
        assert!(turns.decision(start, PAUSE, || table.think()).is_none());
    }

    #[test]
    fn another_seats_move_at_a_server_shows_once_its_pause_is_over() {
        let mut turns = ComputerTurns::default();
        let start = Instant::now();
        assert!(
            !turns.others_move_shows(start + PAUSE, PAUSE),
            "pause starts"
        );
        assert!(!turns.others_move_shows(start + PAUSE, PAUSE));
        assert!(turns.others_move_shows(start + PAUSE * 2, PAUSE));
        assert!(
            !turns.others_move_shows(start + PAUSE * 2, PAUSE),
            "the next move waits a pause of its own"
        );
    }

    #[test]
    fn a_failed_seat_is_told_once() {
        let mut turns = ComputerTurns::default();
        let why = |s: &str| s.to_string();
        let first = vec![(Seat::new(1), why("normal"))];
        assert_eq!(turns.untold(first.clone()), first);
        assert_eq!(turns.untold(first.clone()), []);
        let both = vec![(Seat::new(1), why("normal")), (Seat::new(3), why("easy"))];
        assert_eq!(turns.untold(both), [(Seat::new(3), why("easy"))]);
    }

    #[test]
    fn a_failure_stops_the_game_until_taken() {
        let mut turns = ComputerTurns::default();
        assert!(!turns.has_failed());
        turns.fail(BotError {
            bot: "normal",
            seat: Seat::new(2),
            action: Action::Bid(Bid::Tricks(14)),
            error: RuleError::NotYourTurn { turn: Seat::new(0) },
        });
        assert!(turns.has_failed());
        let failure = turns.take_failure().expect("the failure");
        assert_eq!(failure.seat, Seat::new(2));
        assert!(!turns.has_failed() && turns.take_failure().is_none());
    }
}
