//! What the player's seat has been told, in order, and the trick as those
//! events showed it: the cards played to it so far and who led, and the
//! last trick taken.

use crate::engine::{Card, Mode, PerSeat, Seat, SeatEvent, TrickDone};

/// Every event the player has been told, and the tricks they tell of.
#[derive(Debug)]
pub(super) struct Told {
    events: Vec<SeatEvent>,
    /// The cards of the trick being played, and who led it.
    so_far: PerSeat<Option<Card>>,
    leader: Seat,
    last_trick: Option<TrickDone>,
}

impl Told {
    /// Nothing told yet, at a table of `mode`.
    pub(super) fn new(mode: Mode, leader: Seat) -> Told {
        Told {
            events: Vec::new(),
            so_far: PerSeat::filled(mode, None),
            leader,
            last_trick: None,
        }
    }

    /// Takes `event` in; returns the trick it ended, if it ended one.
    pub(super) fn hear(&mut self, event: SeatEvent) -> Option<TrickDone> {
        let mut ended = None;
        match &event {
            SeatEvent::Play { seat, card, .. } => {
                if self.so_far.iter().all(Option::is_none) {
                    self.leader = *seat;
                }
                self.so_far[*seat] = Some(*card);
            }
            SeatEvent::Trick { winner, .. } => {
                let trick = TrickDone {
                    leader: self.leader,
                    cards: self.so_far,
                    winner: *winner,
                };
                self.so_far = self.so_far.map(|_| None);
                self.last_trick = Some(trick);
                ended = Some(trick);
            }
            _ => {}
        }
        self.events.push(event);
        ended
    }

    /// The game is told again from its start (a move taken back).
    pub(super) fn forget(&mut self, mode: Mode) {
        *self = Told::new(mode, self.leader);
    }

    pub(super) fn events(&self) -> &[SeatEvent] {
        &self.events
    }

    pub(super) fn last_trick(&self) -> Option<&TrickDone> {
        self.last_trick.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trick_told_card_by_card_ends_with_its_leader_and_winner() {
        let mode = Mode::Partnership;
        let mut told = Told::new(mode, Seat::new(0));
        let play = |seat: usize, card: &str| SeatEvent::Play {
            hand: 1,
            seat: Seat::new(seat),
            card: card.parse().unwrap(),
        };
        for (seat, card) in [(2, "4H"), (3, "KH"), (0, "2H")] {
            assert_eq!(told.hear(play(seat, card)), None);
        }
        assert_eq!(told.hear(play(1, "9H")), None);
        let winner = Seat::new(3);
        let trick = told.hear(SeatEvent::Trick {
            hand: 1,
            trick: 1,
            winner,
        });
        let trick = trick.expect("the trick ended");
        assert_eq!((trick.leader, trick.winner), (Seat::new(2), winner));
        assert_eq!(trick.cards[Seat::new(3)], Some("KH".parse().unwrap()));
        assert_eq!(told.last_trick(), Some(&trick));
        assert_eq!(told.events().len(), 5);
        told.forget(mode);
        assert_eq!((told.events().len(), told.last_trick()), (0, None));
    }
}
