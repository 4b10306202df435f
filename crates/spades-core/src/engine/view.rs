//! `PlayerView`: what one seat may know. Bots, hints and remote players are
//! given only this, so hidden cards stay hidden by construction: the type
//! holds no other seat's cards.

use super::auction::{Auction, BidError, BlindNilRefusal};
use super::bid::Bid;
use super::card::{Card, Suit};
use super::cards::CardSet;
use super::play::{HandState, PlayError, PublicPlay, ResumeError, TrickDone};
use super::rules::Rules;
use super::score::HandResult;
use super::score::SideTotals;
use super::seat::{Mode, PerSeat, PerSide, Seat, Side, Teams};
use super::turn::{Action, Phase, RuleError};

/// This seat's part in a blind-nil exchange.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExchangeView {
    /// The partner the cards pass between.
    pub partner: Seat,
    /// How many cards each passes.
    pub count: u8,
    /// What this seat passed, once it has.
    pub given: Option<CardSet>,
    /// What the partner passed, once the exchange is done.
    pub received: Option<CardSet>,
}

/// Another seat's cards this seat may see: the dummy's, or (for the
/// dummy's seat, played by the declarer) the declarer's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shown {
    /// The seat whose cards these are.
    pub seat: Seat,
    /// Its cards.
    pub cards: CardSet,
}

/// What one seat may know of the game: its own cards, the bids, the tricks and
/// scores; never another seat's hidden cards. A bot decides from this alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerView {
    /// The seat this view is for.
    pub seat: Seat,
    /// The game's rules.
    pub rules: Rules,
    /// The hand being played, from 1.
    pub hand_no: u32,
    /// This hand's dealer.
    pub dealer: Seat,
    /// Where the hand stands.
    pub phase: Phase,
    /// The seat the game waits for (the first one owing cards in an exchange).
    pub turn: Option<Seat>,
    /// This seat's cards; `None` while they lie face down (blind nil on offer).
    pub hand: Option<CardSet>,
    /// Another hand this seat sees (with a dummy; see `Game::shown`).
    pub shown: Option<Shown>,
    /// This hand's bidding, with only this seat's spade count.
    pub auction: Auction,
    /// This seat's part in a blind-nil exchange, if it has one.
    pub exchange: Option<ExchangeView>,
    /// The trick on the table, who leads, and the tricks each seat has won.
    pub play: PublicPlay,
    /// The tricks completed this hand, in order.
    pub tricks: Vec<TrickDone>,
    /// Score and bags by side.
    pub totals: PerSide<SideTotals>,
    /// The last hand's score, once a hand is over.
    pub last_hand: Option<HandResult>,
    /// The side that won, once the game is over.
    pub winner: Option<Side>,
    /// Quick Play: the player's side's lives left (`None` in a game to a
    /// target).
    pub lives_left: Option<u8>,
}

/// What anyone may know of a table, a spectator who holds no seat: the
/// bids, the trick, the cards played, the tricks taken, scores and bags.
/// The type holds no hand, nor any card not yet played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicView {
    /// The game's rules.
    pub rules: Rules,
    /// The hand being played, from 1.
    pub hand_no: u32,
    /// This hand's dealer.
    pub dealer: Seat,
    /// Where the hand stands.
    pub phase: Phase,
    /// The seat the game waits for (the first one owing cards in an exchange).
    pub turn: Option<Seat>,
    /// Each seat's bid, once made.
    pub bids: PerSeat<Option<Bid>>,
    /// The trick on the table, who leads, and the tricks each seat has won.
    pub play: PublicPlay,
    /// The tricks completed this hand, in order.
    pub tricks: Vec<TrickDone>,
    /// Score and bags by side.
    pub totals: PerSide<SideTotals>,
    /// The last hand's score, once a hand is over.
    pub last_hand: Option<HandResult>,
    /// The side that won, once the game is over.
    pub winner: Option<Side>,
    /// Quick Play: the lives left (`None` in a game to a target).
    pub lives_left: Option<u8>,
}

impl PublicView {
    /// The table's mode.
    pub fn mode(&self) -> Mode {
        self.rules.mode
    }

    /// Who plays with whom this hand (with a dummy, known once bid).
    pub fn teams(&self) -> Teams {
        let declarer = super::auction::declarer_of(self.mode(), self.dealer, &self.bids);
        Teams::new(self.mode(), declarer)
    }
}

impl PlayerView {
    /// The part of this view anyone may know: every seat's view has the
    /// same one.
    pub fn public(&self) -> PublicView {
        PublicView {
            rules: self.rules,
            hand_no: self.hand_no,
            dealer: self.dealer,
            phase: self.phase,
            turn: self.turn,
            bids: self.bids(),
            play: self.play,
            tricks: self.tricks.clone(),
            totals: self.totals,
            last_hand: self.last_hand.clone(),
            winner: self.winner,
            lives_left: self.lives_left,
        }
    }

    /// The table's mode.
    pub fn mode(&self) -> Mode {
        self.rules.mode
    }

    /// How many seats play.
    pub fn seats(&self) -> usize {
        self.rules.mode.seats()
    }

    /// The side this seat's tricks score for (with a dummy, the dummy's
    /// seat scores for the declarer).
    pub fn side(&self) -> Side {
        self.teams().scoring_side(self.seat)
    }

    /// Who plays with whom this hand.
    pub fn teams(&self) -> Teams {
        Teams::new(self.rules.mode, self.auction.declarer())
    }

    /// Who plays with this seat this hand.
    pub fn partner(&self) -> Option<Seat> {
        self.teams().partner(self.seat)
    }

    /// The cards of `seat` this seat may see: its own, or a shown hand.
    pub fn seen_hand(&self, seat: Seat) -> Option<CardSet> {
        if seat == self.seat {
            return self.hand;
        }
        self.shown.filter(|s| s.seat == seat).map(|s| s.cards)
    }

    /// Each seat's bid, once made.
    pub fn bids(&self) -> PerSeat<Option<Bid>> {
        self.auction.bids()
    }

    /// The cards held, or none while they are face down.
    pub fn cards(&self) -> CardSet {
        self.hand.unwrap_or(CardSet::EMPTY)
    }

    /// The suit led to the trick on the table, if a card is down.
    pub fn led_suit(&self) -> Option<Suit> {
        self.play.led
    }

    /// The cards this seat may play now, under the rules in force.
    pub fn legal_plays(&self) -> CardSet {
        self.play.legal_plays(self.cards())
    }

    /// Why this seat may not play `card`, if it may not.
    pub fn play_error(&self, card: Card) -> Option<PlayError> {
        self.play.play_error(self.cards(), card)
    }

    /// May this seat bid `bid` now? If not, why not.
    pub fn check_bid(&self, bid: Bid) -> Result<(), BidError> {
        self.auction.check(self.seat, bid)
    }

    /// Why the engine would refuse `action` from this seat, worded as it
    /// words every refusal; `None` when it has no objection of its own (a
    /// table may still have asked for something else). One answer for the
    /// server, a remote seat and the screen.
    pub fn refusal(&self, action: Action) -> Option<RuleError> {
        match action {
            Action::Play(card) => self.play_error(card).map(RuleError::Play),
            Action::Bid(bid) => self.check_bid(bid).err().map(RuleError::Bid),
            Action::Exchange(cards) => {
                let expected = self.exchange.map_or(0, |e| e.count);
                if cards.len() != u32::from(expected) {
                    return Some(RuleError::ExchangeCount {
                        expected,
                        got: cards.len(),
                    });
                }
                cards
                    .minus(self.cards())
                    .lowest()
                    .map(RuleError::ExchangeNotHeld)
            }
            Action::Look => None,
        }
    }

    /// Every bid this seat may make now.
    pub fn allowed_bids(&self) -> Vec<Bid> {
        self.auction.allowed_bids(self.seat)
    }

    /// Why blind nil is not on offer to this seat, if it is not.
    pub fn blind_nil_refusal(&self) -> Option<BlindNilRefusal> {
        self.auction.blind_nil_refusal(self.seat)
    }

    /// The blind bids on offer now: blind nil, then blind numbers.
    pub fn blind_bids(&self) -> Vec<Bid> {
        self.auction.blind_bids(self.seat).collect()
    }

    /// The blind numbers (not blind nil) on offer to this seat, lowest first.
    pub fn blind_numbers(&self) -> Vec<u8> {
        self.auction
            .blind_bids(self.seat)
            .filter(|b| b.is_numeric())
            .map(Bid::tricks)
            .collect()
    }

    /// Replays the bids made so far, in bidding order from the dealer's
    /// left, checking each as the game does. This seat is marked as having
    /// looked at its cards when they are face up in the view (`hand` is
    /// `Some`), and its spade count, where the bidding game needs it, is
    /// taken from them. For building a position from a description:
    /// puzzles, hints and bot tests.
    pub fn replay_bids(&mut self, bids: &[Bid]) -> Result<(), String> {
        if let Some(hand) = self.hand {
            self.auction.note_spades(self.seat, hand);
        }
        for &bid in bids {
            let Some(seat) = self.auction.next_bidder() else {
                return Err(format!("every seat has bid: {bid} is one bid too many"));
            };
            self.auction
                .check(seat, bid)
                .map_err(|e| format!("seat {seat} cannot bid {bid}: {e}"))?;
            self.auction.record(seat, bid);
        }
        if self.hand.is_some() && self.auction.bids()[self.seat].is_none() {
            self.auction.look(self.seat);
        }
        Ok(())
    }

    /// The hand in play exactly where this view stands, the other seats
    /// holding what `hands` says (a guess at the cards this seat cannot
    /// see; its own entry is used only while this seat's cards are face
    /// down). Refused when `hands` does not fit what the view shows.
    pub fn hand_in_play(&self, hands: &PerSeat<CardSet>) -> Result<HandState, ResumeError> {
        let mut hands = *hands;
        if let Some(mine) = self.hand {
            hands[self.seat] = mine;
        }
        if let Some(shown) = self.shown {
            hands[shown.seat] = shown.cards;
        }
        HandState::resume(&self.play, hands)
    }

    /// This hand from its first trick, dealt as `hands` say (a guess at
    /// the cards this seat cannot see, made before the play), under the
    /// rules in force: the seat they name leads, which under
    /// `first_lead = "two_of_clubs"` depends on the cards.
    pub fn hand_from_the_start(&self, hands: PerSeat<CardSet>) -> HandState {
        HandState::dealt(hands, self.mode().next_player(self.dealer), self.rules.play)
    }

    /// Cards this seat has not seen: in other hands or out of play (a
    /// shown hand's cards are seen).
    pub fn unseen(&self) -> CardSet {
        let shown = self.shown.map_or(CardSet::EMPTY, |s| s.cards);
        self.rules
            .deck()
            .minus(self.cards())
            .minus(shown)
            .minus(self.play.played)
    }

    /// The seats that have shown out of `suit` this hand (failed to follow).
    pub fn void_in(&self, suit: Suit) -> PerSeat<bool> {
        let mut void = PerSeat::filled(self.mode(), false);
        let current = TrickDone {
            leader: self.play.leader,
            cards: self.play.trick,
            winner: self.play.leader,
        };
        for t in self.tricks.iter().chain(std::iter::once(&current)) {
            let Some(led) = t.cards[t.leader].map(Card::suit) else {
                continue;
            };
            if led != suit {
                continue;
            }
            for (seat, card) in t.cards.pairs() {
                if card.is_some_and(|c| c.suit() != suit) {
                    void[seat] = true;
                }
            }
        }
        void
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::game::Game;

    #[test]
    fn replayed_bids_are_checked_like_the_game_checks_them() {
        let game = Game::new(Rules::default(), 3);
        let first = Mode::Partnership.next(game.dealer());
        let mut view = game.view(first);
        view.replay_bids(&[Bid::Tricks(3), Bid::Nil]).unwrap();
        let bids = view.bids();
        assert_eq!(bids[first], Some(Bid::Tricks(3)));
        assert_eq!(bids[Mode::Partnership.next(first)], Some(Bid::Nil));

        let mut view = game.view(first);
        let err = view.replay_bids(&[Bid::Tricks(14)]).unwrap_err();
        assert!(err.contains("cannot bid 14"), "{err}");
        // Level scores: blind nil is not on offer.
        assert!(game.view(first).replay_bids(&[Bid::BlindNil]).is_err());
        let five = [Bid::Tricks(1); 5];
        assert!(game.view(first).replay_bids(&five).is_err());
    }

    #[test]
    fn a_seat_with_face_up_cards_has_looked() {
        let rules = Rules::default()
            .with(|r| {
                r.blind_nil.min_deficit = 0;
            })
            .expect("valid rules");
        let game = Game::new(rules, 3);
        let first = Mode::Partnership.next(game.dealer());
        let mut face_down = game.view(first);
        face_down.replay_bids(&[]).unwrap();
        assert_eq!(face_down.blind_nil_refusal(), None);
        let mut face_up = game.view(first);
        face_up.hand = Some(CardSet::EMPTY);
        face_up.replay_bids(&[]).unwrap();
        assert_eq!(
            face_up.blind_nil_refusal(),
            Some(BlindNilRefusal::AlreadyLooked)
        );
    }
}
