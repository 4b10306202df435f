//! `hard`: a bot that searches. Where `normal` follows rules, `hard` tries
//! its choices out on guessed deals and keeps the one that wins most.
//!
//! **Card play: determinized search.** The cards the seat cannot see are
//! dealt many times over (`DealGuess`: true to every fact the seat knows,
//! leaning on the bids). On each guessed deal, every candidate card is
//! played and the rest of the hand is played out by cheap habits
//! (`Policy`), then scored by the engine and valued by the chance it
//! leaves the seat's side of winning the game (`hand_outcome`). Each
//! candidate is tried on the same deals, so luck of the deal cancels out
//! between them; the card with the best average is played. Cards that are
//! equal in play (touching, or with only played cards between) are tried
//! once.
//!
//! **Bidding: simulation.** The same guessed deals, with the seats still to
//! bid given the bid their guessed cards are worth, are played out once as
//! a plain bid and once as a nil; every allowed bid is then scored on those
//! tricks and the bid with the best average chance of winning is made.
//!
//! The blind-nil question and the exchange are `normal`'s (for now).
//!
//! The budget is a number of guessed deals per decision (`Budget`), so a
//! seeded game replays exactly.

use crate::engine::policy::play_out;
use crate::engine::{
    Bid, Card, CardSet, DealGuess, HandState, Mode, PerSeat, PlayerView, Policy, Seat, hand_outcome,
};

use super::knowledge::hand_tricks;
use super::normal::NormalBot;
use super::{Bot, BotRng};

/// How much thinking a decision gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Guessed deals per card decision; each candidate card is played out
    /// on every one.
    pub play_deals: u32,
    /// Guessed deals per bid.
    pub bid_deals: u32,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            play_deals: 300,
            bid_deals: 400,
        }
    }
}

#[derive(Debug, Default)]
pub struct HardBot {
    budget: Budget,
    normal: NormalBot,
}

impl HardBot {
    pub fn with_budget(budget: Budget) -> HardBot {
        HardBot {
            budget,
            normal: NormalBot::default(),
        }
    }
}

impl Bot for HardBot {
    fn name(&self) -> &'static str {
        "hard"
    }

    fn blind_nil(&mut self, view: &PlayerView, rng: &mut BotRng) -> bool {
        self.normal.blind_nil(view, rng)
    }

    fn bid(&mut self, view: &PlayerView, rng: &mut BotRng) -> Bid {
        best_bid(view, self.budget.bid_deals, rng).unwrap_or_else(|| self.normal.bid(view, rng))
    }

    fn exchange(&mut self, view: &PlayerView, rng: &mut BotRng) -> CardSet {
        self.normal.exchange(view, rng)
    }

    fn play(&mut self, view: &PlayerView, rng: &mut BotRng) -> Card {
        best_card(view, self.budget.play_deals, rng).unwrap_or_else(|| self.normal.play(view, rng))
    }
}

/// The legal cards worth trying: of cards equal in play (same suit, only
/// cards already played or held between them) the lowest stands for all.
pub fn candidates(view: &PlayerView) -> Vec<Card> {
    let legal = view.legal_plays();
    let gone = view.play.played.union(view.cards());
    let mut out: Vec<Card> = Vec::new();
    for card in legal {
        // Cards iterate lowest first within a suit.
        if let Some(&last) = out.last()
            && last.suit() == card.suit()
            && between(last, card).is_subset(gone)
        {
            continue;
        }
        out.push(card);
    }
    out
}

/// The cards of `low`'s suit strictly between `low` and `high`.
fn between(low: Card, high: Card) -> CardSet {
    CardSet::DECK
        .above(low)
        .intersect(CardSet::DECK.below(high))
}

/// Every seat's bid for the play: the bids made.
fn bids_made(view: &PlayerView) -> PerSeat<Bid> {
    view.bids().map(|b| b.unwrap_or(Bid::Tricks(0)))
}

/// The card with the best average chance of winning over `deals` guessed
/// deals; `None` when there is nothing to search (one candidate) or the
/// view cannot be guessed from.
fn best_card(view: &PlayerView, deals: u32, rng: &mut BotRng) -> Option<Card> {
    let cards = candidates(view);
    if cards.len() < 2 {
        return cards.first().copied();
    }
    let guess = DealGuess::new(view).ok()?;
    let bids = bids_made(view);
    let policy = Policy::new(view.mode(), &bids);
    let side = view.side();
    let mut value = vec![0.0f64; cards.len()];
    for _ in 0..deals {
        let deal = guess.sample(rng);
        let Ok(start) = view.hand_in_play(&deal.hands) else {
            continue;
        };
        for (total, &card) in value.iter_mut().zip(&cards) {
            let mut hand = start;
            hand.play_unchecked(card);
            let tricks = play_out(hand, &policy, rng);
            let outcome = hand_outcome(&view.rules, &bids, &tricks, &view.totals);
            *total += f64::from(outcome.win[side]);
        }
    }
    let best = (0..cards.len()).max_by(|&a, &b| value[a].total_cmp(&value[b]))?;
    Some(cards[best])
}

/// The bid a seat's cards are worth by rule of thumb, for seats that have
/// not bid yet in a simulation.
fn rough_bid(hand: CardSet, mode: Mode) -> Bid {
    Bid::Tricks(hand_tricks(hand, mode).round().clamp(1.0, 13.0) as u8)
}

/// The allowed bid with the best average chance of winning over `deals`
/// guessed deals, or `None` when the view cannot be guessed from.
fn best_bid(view: &PlayerView, deals: u32, rng: &mut BotRng) -> Option<Bid> {
    let allowed: Vec<Bid> = view
        .allowed_bids()
        .into_iter()
        .filter(|b| *b != Bid::BlindNil)
        .collect();
    if allowed.len() < 2 {
        return allowed.first().copied();
    }
    let guess = DealGuess::new(view).ok()?;
    let mode = view.mode();
    let me = view.seat;
    let made = view.bids();
    let side = view.side();
    let plain = rough_bid(view.cards(), mode);
    let mut value = vec![0.0f64; allowed.len()];
    for _ in 0..deals {
        let deal = guess.sample(rng);
        let mut hands = deal.hands;
        hands[me] = view.cards();
        let mut bids =
            PerSeat::from_fn(mode, |s: Seat| made[s].unwrap_or(rough_bid(hands[s], mode)));
        let start = HandState::new(hands, view.play.leader);
        // Played out once as a plain bid and once as a nil: the habits
        // differ only there.
        bids[me] = plain;
        let as_plain = play_out(start, &Policy::new(mode, &bids), rng);
        bids[me] = Bid::Nil;
        let as_nil = allowed
            .contains(&Bid::Nil)
            .then(|| play_out(start, &Policy::new(mode, &bids), rng));
        for (total, &bid) in value.iter_mut().zip(&allowed) {
            bids[me] = bid;
            let tricks = match (bid.is_nil(), as_nil) {
                (true, Some(nil)) => nil,
                _ => as_plain,
            };
            let outcome = hand_outcome(&view.rules, &bids, &tricks, &view.totals);
            *total += f64::from(outcome.win[side]);
        }
    }
    let best = (0..allowed.len()).max_by(|&a, &b| value[a].total_cmp(&value[b]))?;
    Some(allowed[best])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::bot_rng;
    use crate::engine::notation::set;
    use crate::engine::{Game, Phase, Rules};

    /// The view of the first seat to play in a seeded game's first hand,
    /// once the bids are made by `normal`.
    fn opening(seed: u64) -> PlayerView {
        let mut game = Game::new(Rules::classic(Mode::Partnership), seed);
        let mut normal = NormalBot::default();
        while let Some(turn) = game.to_act() {
            if game.phase() == Phase::Playing {
                return game.view(turn.seat);
            }
            let view = game.view(turn.seat);
            let mut rng = bot_rng(seed, turn.seat);
            let action = super::super::decide(&mut normal, turn.decision, &view, &mut rng);
            game.apply(turn.seat, action).unwrap();
        }
        unreachable!()
    }

    #[test]
    fn touching_cards_are_tried_once() {
        let view = opening(3);
        let cards = candidates(&view);
        let hand = view.cards();
        for pair in cards.windows(2) {
            if pair[0].suit() == pair[1].suit() {
                assert!(
                    !between(pair[0], pair[1]).is_subset(hand),
                    "{pair:?} touch in {hand:?}"
                );
            }
        }
        // Every legal card is one tried, or touches one tried below it.
        for card in view.legal_plays() {
            assert!(
                cards.iter().any(|&c| c == card
                    || (c.suit() == card.suit() && c < card && between(c, card).is_subset(hand))),
                "{card:?} stands for none of {cards:?}"
            );
        }
        assert_eq!(
            between(set("9H").lowest().unwrap(), set("QH").lowest().unwrap()),
            set("TH JH")
        );
    }

    #[test]
    fn a_seeded_search_decides_the_same_every_time() {
        let view = opening(5);
        let mut bot = HardBot::default();
        let first = bot.play(&view, &mut bot_rng(9, view.seat));
        let again = HardBot::default().play(&view, &mut bot_rng(9, view.seat));
        assert_eq!(first, again);
        assert!(view.legal_plays().contains(first));
    }
}
