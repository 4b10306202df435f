//! What the server said, kept in arrival order and let out one change at a
//! time, so that the others' moves show at the pace the player chose, as at
//! a local table. Each message keeps when it was read: an ask's time left
//! counts from then, not from when the player is shown it.

use std::collections::VecDeque;
use std::time::Instant;

use crate::engine::{Seat, SeatEvent};
use crate::protocol::ServerMessage;

/// The server's messages not shown yet, each with when it was read.
#[derive(Debug, Default)]
pub struct Pacing {
    waiting: VecDeque<(ServerMessage, Instant)>,
}

impl Pacing {
    /// What came with the start, all read `now`.
    pub fn new(queued: Vec<ServerMessage>, now: Instant) -> Pacing {
        Pacing {
            waiting: queued.into_iter().map(|m| (m, now)).collect(),
        }
    }

    /// A message read at `read`, to be shown after those before it.
    pub fn push(&mut self, message: ServerMessage, read: Instant) {
        self.waiting.push_back((message, read));
    }

    pub fn is_empty(&self) -> bool {
        self.waiting.is_empty()
    }

    /// Is the next change a move (a bid or a card) by a seat `others`
    /// says is someone else's, to be shown after a pause?
    pub fn next_is_move_by(&self, others: impl Fn(Seat) -> bool) -> bool {
        self.waiting.iter().find_map(|(m, _)| match m {
            ServerMessage::Event { event } => Some(match event {
                SeatEvent::Bid { seat, .. } | SeatEvent::Play { seat, .. } => others(*seat),
                _ => false,
            }),
            ServerMessage::View { .. } | ServerMessage::Ask { .. } => Some(false),
            _ => None,
        }) == Some(true)
    }

    /// The next change to show, each message with when it was read: the
    /// events up to the view (or ask) they lead to, and what follows it at
    /// once, up to the next event or view. A goodbye ends it: what comes
    /// after is left for the next change.
    pub fn next_change(&mut self) -> Vec<(ServerMessage, Instant)> {
        let mut change = Vec::new();
        let mut viewed = false;
        while let Some((message, _)) = self.waiting.front() {
            let is_move = matches!(
                message,
                ServerMessage::Event { .. } | ServerMessage::View { .. }
            );
            if viewed && is_move {
                break;
            }
            viewed |= matches!(
                message,
                ServerMessage::View { .. } | ServerMessage::Ask { .. }
            );
            let bye = matches!(message, ServerMessage::Bye { .. });
            change.extend(self.waiting.pop_front());
            if bye {
                break;
            }
        }
        change
    }

    /// When the first ask not shown yet is answered by a bot of the table:
    /// its time left from when it was read. `None` without an ask waiting,
    /// or when that ask has no timer.
    pub fn next_ask_deadline(&self) -> Option<Instant> {
        self.waiting.iter().find_map(|(m, read)| match m {
            ServerMessage::Ask { time_left, .. } => Some(time_left.map(|l| *read + l.duration())),
            _ => None,
        })?
    }

    /// Everything not shown, in order, leaving nothing.
    pub fn take_all(&mut self) -> impl Iterator<Item = ServerMessage> + use<> {
        std::mem::take(&mut self.waiting)
            .into_iter()
            .map(|(m, _)| m)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::bots::random::RandomBot;
    use crate::engine::{Bid, Mode, Rules};
    use crate::fairness::Dealing;
    use crate::protocol::Legal;
    use crate::protocol::timer::TimeLeft;
    use crate::table::{Player, Table};

    fn bid(seat: usize) -> ServerMessage {
        ServerMessage::Event {
            event: SeatEvent::Bid {
                hand: 1,
                seat: Seat::new(seat),
                bid: Bid::Tricks(3),
            },
        }
    }

    fn chat(text: &str) -> ServerMessage {
        ServerMessage::Chat {
            from: "Ann".into(),
            text: text.into(),
            guest: false,
        }
    }

    fn bye() -> ServerMessage {
        ServerMessage::Bye {
            reason: "over".into(),
            rating: None,
        }
    }

    /// A real view and what the table asks of seat 0 in it.
    fn view_and_ask(time_left: Option<Duration>) -> (ServerMessage, ServerMessage) {
        let players = (0..4)
            .map(|i| match i {
                0 => Player::Human,
                _ => Player::Bot(Box::new(RandomBot)),
            })
            .collect();
        let mut table = Table::new(Rules::classic(Mode::Partnership), Dealing::Open(1), players);
        table.run_bots().unwrap();
        let turn = table.human_turn().expect("seat 0 is asked");
        let view = table.view(turn.seat);
        let ask = ServerMessage::Ask {
            seat: turn.seat,
            decision: turn.decision,
            legal: Legal::of(&view, turn.decision),
            time_left: time_left.map(TimeLeft::new),
            view: Box::new(view.clone()),
        };
        let shown = ServerMessage::View {
            view: Box::new(view),
            timed_out: None,
        };
        (shown, ask)
    }

    fn messages(change: Vec<(ServerMessage, Instant)>) -> Vec<ServerMessage> {
        change.into_iter().map(|(m, _)| m).collect()
    }

    /// A change is the events up to their view and what follows it at
    /// once; the next event waits for the next change, in arrival order.
    #[test]
    fn a_change_runs_to_its_view_and_the_next_move_waits() {
        let (view, _) = view_and_ask(None);
        let now = Instant::now();
        let mut pacing = Pacing::new(vec![bid(1), chat("hi")], now);
        for message in [view.clone(), chat("gl"), bid(2), view.clone()] {
            pacing.push(message, now);
        }
        assert_eq!(
            messages(pacing.next_change()),
            [bid(1), chat("hi"), view.clone(), chat("gl")]
        );
        assert_eq!(messages(pacing.next_change()), [bid(2), view]);
        assert!(pacing.is_empty());
        assert!(pacing.next_change().is_empty());
    }

    #[test]
    fn a_goodbye_ends_a_change_and_what_follows_waits() {
        let now = Instant::now();
        let mut pacing = Pacing::new(vec![chat("a"), bye(), chat("b")], now);
        assert_eq!(messages(pacing.next_change()), [chat("a"), bye()]);
        assert_eq!(messages(pacing.next_change()), [chat("b")]);
    }

    #[test]
    fn only_anothers_bid_or_card_next_is_paused_for() {
        let (view, ask) = view_and_ask(None);
        let now = Instant::now();
        let others = |seat: Seat| seat != Seat::new(0);
        let pacing = Pacing::new(vec![chat("a"), bid(1)], now);
        assert!(pacing.next_is_move_by(others));
        let pacing = Pacing::new(vec![chat("a"), bid(0)], now);
        assert!(!pacing.next_is_move_by(others));
        for first in [view, ask] {
            let pacing = Pacing::new(vec![first, bid(1)], now);
            assert!(!pacing.next_is_move_by(others));
        }
        assert!(!Pacing::new(vec![chat("a")], now).next_is_move_by(others));
    }

    /// An ask's time runs from when it was read, however long it waits to
    /// be shown; the clock is the one handed in.
    #[test]
    fn an_asks_deadline_counts_from_when_it_was_read() {
        let (view, ask) = view_and_ask(Some(Duration::from_secs(15)));
        let start = Instant::now();
        let mut pacing = Pacing::new(vec![view.clone()], start);
        assert_eq!(pacing.next_ask_deadline(), None);
        let read = start + Duration::from_secs(4);
        pacing.push(ask.clone(), read);
        pacing.push(bid(1), read);
        pacing.push(view, read);
        pacing.push(ask, start + Duration::from_secs(9));
        assert_eq!(
            pacing.next_ask_deadline(),
            Some(read + Duration::from_secs(15))
        );
        // The view, and the ask that follows it at once.
        let change = pacing.next_change();
        assert_eq!(change.len(), 2);
        assert_eq!(change[1].1, read);
        assert_eq!(
            pacing.next_ask_deadline(),
            Some(start + Duration::from_secs(24))
        );

        let (_, untimed) = view_and_ask(None);
        let pacing = Pacing::new(vec![untimed], start);
        assert_eq!(pacing.next_ask_deadline(), None);
    }

    #[test]
    fn taking_all_leaves_nothing_in_order() {
        let now = Instant::now();
        let mut pacing = Pacing::new(vec![chat("a"), bid(1)], now);
        pacing.push(bye(), now);
        assert_eq!(
            pacing.take_all().collect::<Vec<_>>(),
            [chat("a"), bid(1), bye()]
        );
        assert!(pacing.is_empty());
    }
}
