//! What a careful player keeps in mind during a hand: the cards played so
//! far, suit by suit, and the suits each seat has shown out of. Made from
//! one seat's `PlayerView` alone: every fact in it is public, so it tells
//! no more than the table showed everyone.

use super::card::Suit;
use super::cards::CardSet;
use super::seat::{PerSeat, Seat};
use super::view::PlayerView;

/// What a seat has seen played this hand: the cards gone, and who has shown out
/// of which suit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Memory {
    /// Every card played this hand, the trick on the table's included.
    pub played: CardSet,
    /// For each seat, by `Suit as usize`: has it failed to follow the suit?
    voids: PerSeat<[bool; 4]>,
}

impl Memory {
    /// The hand so far as `view`'s seat has seen it played.
    pub fn of(view: &PlayerView) -> Memory {
        let mut voids = PerSeat::filled(view.mode(), [false; 4]);
        for suit in Suit::ALL {
            for (seat, &void) in view.void_in(suit).pairs() {
                voids[seat][suit as usize] = void;
            }
        }
        Memory {
            played: view.play.played,
            voids,
        }
    }

    /// The cards of `suit` played so far (jokers count as spades).
    pub fn played_in(&self, suit: Suit) -> CardSet {
        self.played.suit(suit)
    }

    /// Has `seat` shown out of `suit` this hand?
    pub fn is_void(&self, seat: Seat, suit: Suit) -> bool {
        self.voids[seat][suit as usize]
    }

    /// The suits `seat` has shown out of, in the order of `order`.
    pub fn voids_of(&self, seat: Seat, order: [Suit; 4]) -> Vec<Suit> {
        order
            .into_iter()
            .filter(|&s| self.is_void(seat, s))
            .collect()
    }

    /// The seats that have shown out of anything, each with its suits.
    pub fn seats_void(&self, order: [Suit; 4]) -> Vec<(Seat, Vec<Suit>)> {
        self.voids
            .pairs()
            .map(|(seat, _)| (seat, self.voids_of(seat, order)))
            .filter(|(_, suits)| !suits.is_empty())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::game::{Action, Decision, Game};
    use crate::engine::notation::card;
    use crate::engine::{Bid, Event, Mode, Phase, Rules};

    /// Plays `game` on with bids of 3 and each seat's `choose` of its legal
    /// cards, until `cards` have been played in the hand; every event kept.
    fn play_on(
        game: &mut Game,
        cards: usize,
        choose: impl Fn(CardSet) -> crate::engine::Card,
    ) -> Vec<Event> {
        let mut events = Vec::new();
        while game.view(Seat::new(0)).play.played.len() < cards as u32 {
            let Some(turn) = game.to_act() else { break };
            let action = match turn.decision {
                Decision::BlindNil => Action::Look,
                Decision::Bid => Action::Bid(Bid::Tricks(3)),
                Decision::Exchange => unreachable!("no blind nil is bid"),
                Decision::Play => Action::Play(choose(game.view(turn.seat).legal_plays())),
            };
            events.extend(game.apply(turn.seat, action).expect("a legal action"));
        }
        events
    }

    /// The same facts worked out again from the events, trick by trick:
    /// the cards played, and who played off the suit led.
    fn from_events(mode: Mode, events: &[Event]) -> (CardSet, PerSeat<[bool; 4]>) {
        let mut played = CardSet::EMPTY;
        let mut voids = PerSeat::filled(mode, [false; 4]);
        let mut led = None;
        for event in events {
            match event {
                Event::Play { seat, card, .. } => {
                    played.insert(*card);
                    let suit = *led.get_or_insert(card.suit());
                    if card.suit() != suit {
                        voids[*seat][suit as usize] = true;
                    }
                }
                Event::Trick { .. } => led = None,
                _ => {}
            }
        }
        (played, voids)
    }

    #[test]
    fn nothing_is_known_before_the_first_card() {
        let game = Game::new(Rules::classic(Mode::Partnership), 1);
        let memory = Memory::of(&game.view(Seat::new(0)));
        assert!(memory.played.is_empty());
        for seat in Mode::Partnership.each_seat() {
            assert!(memory.voids_of(seat, Suit::ALL).is_empty());
        }
        assert!(memory.seats_void(Suit::ALL).is_empty());
    }

    #[test]
    fn the_cards_played_are_the_tables_and_voids_are_the_seats_that_did_not_follow() {
        let mut shown_out = 0;
        for mode in [Mode::Partnership, Mode::Cutthroat] {
            for seed in 0..40 {
                let mut game = Game::new(Rules::classic(mode), seed);
                // The highest legal card: seats run out of suits quickly.
                let events = play_on(&mut game, 30, |legal| legal.highest().unwrap());
                assert_eq!(game.phase(), Phase::Playing);
                let (played, voids) = from_events(mode, &events);
                // Every seat's view remembers the same public facts.
                for seat in mode.each_seat() {
                    let memory = Memory::of(&game.view(seat));
                    assert_eq!(memory.played, played, "{mode:?} seed {seed}");
                    for s in mode.each_seat() {
                        for suit in Suit::ALL {
                            let void = voids[s][suit as usize];
                            assert_eq!(memory.is_void(s, suit), void, "{s} {suit:?}");
                            shown_out += usize::from(void);
                        }
                    }
                    let by_suit: u32 = Suit::ALL.map(|s| memory.played_in(s).len()).iter().sum();
                    assert_eq!(by_suit, played.len(), "each card in one suit");
                }
            }
        }
        assert!(shown_out > 100, "the games showed voids: {shown_out}");
    }

    /// A partnership hand dealt by seat 0, so seat 1 leads, each seat
    /// holding its `given` cards and never a card of its `never` suit;
    /// every seat bids 3, then `plays` are played in turn.
    fn after(given: [&str; 4], never: [Option<Suit>; 4], plays: &[&str]) -> Game {
        use crate::engine::Deal;
        use crate::engine::notation::set;
        let mut hands: Vec<CardSet> = given.iter().map(|g| set(g)).collect();
        let held = hands.iter().fold(CardSet::EMPTY, |a, &h| a | h);
        for c in CardSet::DECK.minus(held) {
            let seat = (0..4)
                .find(|&s| hands[s].len() < 13 && never[s] != Some(c.suit()))
                .expect("room for every card");
            hands[seat].insert(c);
        }
        let deal = Deal {
            hands: PerSeat::from_slice(&hands).unwrap(),
            out: CardSet::EMPTY,
        };
        let rules = Rules::classic(Mode::Partnership);
        let mut game = Game::with_deals(rules, Seat::new(0), vec![deal]);
        for _ in 0..4 {
            let seat = game.to_act().unwrap().seat;
            game.apply(seat, Action::Bid(Bid::Tricks(3))).unwrap();
        }
        for c in plays {
            let seat = game.to_act().unwrap().seat;
            game.apply(seat, Action::Play(card(c))).unwrap();
        }
        game
    }

    #[test]
    fn a_seat_that_does_not_follow_is_void_in_the_suit_led_and_no_other() {
        // Seat 1 leads the ace of clubs; seat 3, holding no club, throws a
        // heart. Seat 1 leads a diamond; seat 2, holding none, trumps it:
        // a void shown in the trick still on the table counts too.
        let game = after(
            ["3C", "AC KC 5D", "2C 2S", "2H"],
            [None, None, Some(Suit::Diamonds), Some(Suit::Clubs)],
            &["AC", "2C", "2H", "3C", "5D", "2S"],
        );
        let memory = Memory::of(&game.view(Seat::new(0)));
        let (seat, seats) = (Seat::new, Mode::Partnership.each_seat());
        assert_eq!(
            memory.played_in(Suit::Clubs),
            crate::engine::notation::set("AC 3C 2C")
        );
        assert_eq!(
            memory.played_in(Suit::Hearts),
            crate::engine::notation::set("2H")
        );
        assert_eq!(
            memory.played_in(Suit::Diamonds),
            crate::engine::notation::set("5D")
        );
        assert_eq!(
            memory.played_in(Suit::Spades),
            crate::engine::notation::set("2S")
        );
        assert_eq!(
            memory.seats_void(Suit::ALL),
            vec![
                (seat(2), vec![Suit::Diamonds]),
                (seat(3), vec![Suit::Clubs])
            ]
        );
        for s in seats {
            let shown = memory.voids_of(s, Suit::ALL);
            assert_eq!(shown.len(), usize::from(s.index() >= 2), "{s}");
        }
    }
}
