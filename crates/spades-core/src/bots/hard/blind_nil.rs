//! Blind nil or looking, and the blind-nil exchange, weighed by
//! simulation: the two decisions of a hand taken before the cards are
//! seen or as they change hands.

use crate::engine::{Bid, Card, CardSet, PerSeat, PlayerView, Seat};
use crate::search::policy::play_out;
use crate::search::{DealGuess, Policy, hand_outcome};

use super::super::knowledge::exchange_pass;
use super::super::normal::Standing;
use super::trials::Trials;
use super::{BotRng, Budget, Weighing, bids_made, rough_bid, weigh};

/// Blind nil or not, by simulation. The seat's own cards are face down,
/// so they are guessed with the rest. On each guessed deal the hand is
/// played out once with the seat looking and bidding what its cards are
/// worth, and once with it bidding blind nil, the exchange made as
/// `normal` passes; the choice is `bids_blind`'s, the one rule `hard`
/// bids by and the hint and the review judge by. `None` when it may not
/// be bid, with no partner (then `normal`'s answer stands) or when the
/// view cannot be guessed from.
pub(super) fn blind_or_look(
    view: &PlayerView,
    budget: Budget,
    rng: &mut BotRng,
) -> Option<Weighing<bool>> {
    // Alone (no cover, no exchange) `normal`'s answer stands.
    let alone = !view.mode().has_partners();
    if alone || view.blind_nil_refusal().is_some() {
        return None;
    }
    let guess = DealGuess::new(view).ok()?;
    let mode = view.mode();
    let me = view.seat;
    let made = view.bids();
    let count = view.rules.exchange_size();
    let choices = [false, true];
    let trials = weigh(budget, choices.len(), rng, |rng, trials| {
        let dealt = guess.sample(rng).hands;
        for (k, &blind) in choices.iter().enumerate() {
            let mut hands = dealt;
            if blind && let Some(partner) = view.partner() {
                let blind = Some(Bid::BlindNil);
                let mine = exchange_pass(hands[me], blind, made[partner], count, &view.rules);
                let theirs =
                    exchange_pass(hands[partner], made[partner], blind, count, &view.rules);
                hands[me] = hands[me].minus(mine).union(theirs);
                hands[partner] = hands[partner].minus(theirs).union(mine);
            }
            let mut bids = PerSeat::from_fn(mode, |s: Seat| {
                made[s].unwrap_or(rough_bid(hands[s], mode, view.rules.deck()))
            });
            if blind {
                bids[me] = Bid::BlindNil;
            }
            let start = view.hand_from_the_start(hands);
            let tricks = play_out(
                start,
                &Policy::new(mode, &bids).in_deck(view.rules.deck()),
                rng,
            );
            let outcome = hand_outcome(&view.rules, &bids, &tricks, &view.totals);
            trials.record(k, view, &tricks, &outcome);
        }
    });
    let chosen = if bids_blind(view, &trials) {
        BLIND
    } else {
        LOOK
    };
    Some(Weighing {
        chosen: choices[chosen],
        ranked: trials.ranked(&choices),
    })
}

/// The blind-nil rule: blind nil for a side that trails, wherever the
/// rules allow it, when the guessed deals are sure (`SURE` standard
/// errors, deal for deal) it wins the game more often than looking.
/// Measured against the rule it replaced, which also asked that looking
/// leave the side under a fifth of a chance: docs/bots.md, "The fight
/// over nil". (A side level or ahead never gambles on one: where house
/// rules offer it there, it was never measured, and a partner would not
/// forgive it.)
fn bids_blind(view: &PlayerView, trials: &Trials) -> bool {
    Standing::of(view).deficit > 0 && trials.surely_better(BLIND, LOOK)
}

/// The choices `blind_or_look` weighs, by index.
const LOOK: usize = 0;
const BLIND: usize = 1;

/// Cards beyond `normal`'s pass, next in its order of what to pass, that
/// the search tries passing in their place.
const PASS_SPARES: u8 = 3;
/// The largest exchange searched: 35 passes to weigh at four cards.
const MOST_SEARCHED_PASS: u8 = 4;

/// The cards to pass in the blind-nil exchange: `usual` (`normal`'s pass)
/// unless simulation is sure another choice among `normal`'s next
/// candidates wins more often. On each guessed deal the partner passes as
/// `normal` would (both pass at once, from the cards dealt), and the hand
/// is played out after each candidate pass. `None` when the view cannot be
/// guessed from.
pub(super) fn best_pass(
    view: &PlayerView,
    usual: CardSet,
    budget: Budget,
    rng: &mut BotRng,
) -> Option<Weighing<CardSet>> {
    let exchange = view.exchange?;
    // Past a few cards the choices multiply faster than deals can tell
    // them apart: `normal`'s pass stands.
    if exchange.count > MOST_SEARCHED_PASS {
        return None;
    }
    let bids = bids_made(view);
    let (me, partner) = (view.seat, exchange.partner);
    let pool = exchange_pass(
        view.cards(),
        Some(bids[me]),
        Some(bids[partner]),
        exchange.count + PASS_SPARES,
        &view.rules,
    );
    let mut passes = vec![usual];
    passes.extend(
        subsets(pool, exchange.count)
            .into_iter()
            .filter(|&p| p != usual),
    );
    if passes.len() < 2 {
        return None;
    }
    let guess = DealGuess::new(view).ok()?;
    let (me, partner) = (view.seat, exchange.partner);
    let policy = Policy::new(view.mode(), &bids).in_deck(view.rules.deck());
    let trials = weigh(budget, passes.len(), rng, |rng, trials| {
        let mut dealt = guess.sample(rng).hands;
        dealt[me] = view.cards();
        let theirs = exchange_pass(
            dealt[partner],
            Some(bids[partner]),
            Some(bids[me]),
            exchange.count,
            &view.rules,
        );
        for (k, &mine) in passes.iter().enumerate() {
            let mut hands = dealt;
            hands[me] = hands[me].minus(mine).union(theirs);
            hands[partner] = hands[partner].minus(theirs).union(mine);
            let tricks = play_out(view.hand_from_the_start(hands), &policy, rng);
            let outcome = hand_outcome(&view.rules, &bids, &tricks, &view.totals);
            trials.record(k, view, &tricks, &outcome);
        }
    });
    Some(Weighing {
        chosen: passes[trials.verdict(Some(0), view)],
        ranked: trials.ranked(&passes),
    })
}

/// Every `size`-card subset of `cards` (few cards: at most a few dozen).
pub(super) fn subsets(cards: CardSet, size: u8) -> Vec<CardSet> {
    let all: Vec<Card> = cards.iter().collect();
    let mut out = Vec::new();
    let n = all.len();
    if usize::from(size) > n || n > 16 {
        return out;
    }
    for mask in 0u32..(1 << n) {
        if mask.count_ones() == u32::from(size) {
            out.push(
                (0..n)
                    .filter(|&i| mask & (1 << i) != 0)
                    .map(|i| all[i])
                    .collect(),
            );
        }
    }
    out
}
