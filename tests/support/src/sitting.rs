//! A game at the real table with a person in seat 0 whose every decision
//! the test makes, the other seats played by random bots: what the table
//! asks and tells that person, and the record it writes, are the program's
//! own, and the same on every run (the seed seeds the bots too).

use spades::bots::random::RandomBot;
use spades::engine::{Action, Bid, Decision, Phase, PlayerView, Rules, Seat, SeatEvent};
use spades::fairness::{Dealing, SecretSeed};
use spades::protocol::Legal;
use spades::record::{GameInfo, MemoryRecord};
use spades::table::{Player, Table};

/// The person's seat.
pub const PERSON: Seat = Seat::new(0);

/// A secret seed with a salt of its own, as a game draws them.
pub fn secret(seed: u64) -> Dealing {
    let salt = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15).to_be_bytes();
    let mut both = [0u8; 16];
    both[..8].copy_from_slice(&salt);
    both[8..].copy_from_slice(&seed.to_le_bytes());
    Dealing::Secret(SecretSeed::from_parts(seed, both))
}

/// A decision the table asks of the person.
#[derive(Debug, Clone)]
pub struct Ask {
    /// The seat it is for: the person's, or the dummy's when they declare.
    pub seat: Seat,
    pub decision: Decision,
    pub legal: Legal,
    pub view: PlayerView,
}

impl Ask {
    pub fn hand(&self) -> u32 {
        self.view.hand_no
    }

    /// What the person does unless told otherwise: looks at the cards,
    /// bids the first bid allowed, passes the lowest cards, plays the
    /// lowest legal card.
    pub fn plainly(&self) -> Action {
        self.legal
            .first(self.view.cards())
            .expect("an ask allows something")
    }

    /// With a dummy: as `plainly`, but bidding 6, which random bots
    /// seldom top, so that the person declares (the highest bid does) and
    /// plays the dummy's cards too.
    pub fn declaring(&self) -> Action {
        match self.decision {
            Decision::Bid => Action::Bid(Bid::Tricks(6)),
            _ => self.plainly(),
        }
    }
}

pub struct Sitting {
    pub table: Table,
    record: MemoryRecord,
}

impl Sitting {
    /// A game under `rules` dealt by `dealing`, recorded with the players'
    /// `names` (the dummy's seat is named by the table) and `info`.
    pub fn new(rules: Rules, dealing: Dealing, names: Vec<String>, info: GameInfo) -> Sitting {
        let players = (0..rules.mode.players())
            .map(|i| {
                if i == PERSON.index() {
                    Player::Human
                } else {
                    Player::Bot(Box::new(RandomBot))
                }
            })
            .collect();
        let mut table = Table::new(rules, dealing, players);
        let record = MemoryRecord::default();
        table
            .record_to(Box::new(record.clone()), names, info)
            .expect("a record in memory");
        Sitting { table, record }
    }

    /// Plays on until the table asks the person something `stop` picks
    /// out (returned, not yet answered), or the game is over (`None`).
    /// The bots act at once; `person` answers every other ask.
    pub fn until(
        &mut self,
        person: &mut impl FnMut(&Ask) -> Action,
        mut stop: impl FnMut(&Ask) -> bool,
    ) -> Option<Ask> {
        loop {
            self.table.run_bots().expect("random bots play legally");
            match self.table.phase() {
                Phase::Over => return None,
                Phase::AwaitingDeal => {
                    self.table.deal_next_hand();
                    continue;
                }
                _ => {}
            }
            let turn = self.table.human_turn().expect("the person is asked");
            let view = self.table.view(turn.seat);
            let ask = Ask {
                seat: turn.seat,
                decision: turn.decision,
                legal: Legal::of(&view, turn.decision),
                view,
            };
            if stop(&ask) {
                return Some(ask);
            }
            let action = person(&ask);
            self.act(&ask, action);
        }
    }

    /// The person's answer to `ask`.
    pub fn act(&mut self, ask: &Ask, action: Action) {
        assert!(
            ask.legal.allows(&action, ask.view.cards()),
            "{action:?} is not among {:?}",
            ask.legal
        );
        self.table
            .act(ask.seat, action)
            .unwrap_or_else(|e| panic!("{action:?}: {e}"));
    }

    /// What the person has been told since last time.
    pub fn events(&mut self) -> Vec<SeatEvent> {
        self.table.take_events(PERSON)
    }

    /// The record written so far.
    pub fn record(&self) -> String {
        self.record.text()
    }

    /// Plays the game to its end; its whole record.
    pub fn finish(&mut self, person: &mut impl FnMut(&Ask) -> Action) -> String {
        assert!(self.until(person, |_| false).is_none());
        self.record.text()
    }

    /// Leaves the game where it is: its whole record, closed as abandoned.
    pub fn abandon(&mut self) -> String {
        self.table.abandon();
        self.record.text()
    }
}
