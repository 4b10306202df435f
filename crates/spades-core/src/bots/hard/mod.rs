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
//! once. Once three tricks or fewer are left, the rest of each guessed
//! deal is searched exactly instead (`endgame::solve`): every seat plays
//! its best for its side there, no habit misplays it.
//!
//! **Bidding: simulation.** The same guessed deals, with the seats still to
//! bid given the bid their guessed cards are worth, are played out once as
//! a plain bid and once as a nil; every allowed bid is then scored on those
//! tricks and the bid with the best average chance of winning is made. A
//! nil is weighed only where a strong player would consider one.
//!
//! **Blind nil: simulation.** Before the seat sees its cards, guessed
//! deals (its own cards among them) are played out with it looking and
//! bidding and with it bidding blind nil and passing as `normal` does;
//! blind nil is bid where the deals are sure it wins more games. The
//! exchange is weighed the same way: `normal`'s pass against passes of its
//! next candidates.
//!
//! **Trust.** Every choice starts from `normal`'s, which a partner can
//! read (the blind nil from looking), and the search overrules it only when it is sure
//! (`SURE` standard errors, deal for deal; `SURE_HUNT` while an opponent's
//! nil is live, for a card that does not spoil the hunt); a nil on the seat's own side
//! is played by `normal`'s rules until the exact search of the last tricks.
//!
//! **Budget.** `Effort` is a number of guessed deals per decision (300
//! unless told), so a seeded game replays exactly, or a time per decision.
//! The deals are weighed in blocks on every core (`weigh`); each block has
//! its own generator drawn from the decision's, so the answer does not
//! depend on how many cores there are.

use blind_nil::{best_pass, blind_or_look};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};
use trials::{SURE, SURE_HUNT, Trials};

use rand::{Rng, SeedableRng};

use crate::engine::{Action, Bid, Card, CardSet, Decision, Mode, PerSeat, PlayerView, Seat};
use crate::search::endgame::{EXACT_TRICKS, solve};
use crate::search::policy::play_out;
use crate::search::{DealGuess, Policy, hand_outcome};

use super::knowledge::{Position, hand_tricks};
use super::nil::{hunted_nil, spoils_hunt};
use super::normal::{NormalBot, Standing, Tuning, game_in_hand, nil_unthinkable};
use super::{Bot, BotRng, Effort};

/// Guessed deals per decision when not told otherwise: a card decision
/// plays every candidate out on each, a bid plays each out twice.
const USUAL_DEALS: u32 = 300;

/// The most guessed deals a timed decision takes, however long it may
/// think: past this the answer no longer changes.
const MOST_DEALS: u32 = 100_000;

/// Guessed deals are weighed in blocks of this many, each block with a
/// generator of its own drawn from the decision's: blocks can be shared out
/// among threads in any order and a seeded decision still comes out the
/// same.
const BLOCK: u32 = 16;

/// How much thinking a decision gets.
#[derive(Debug, Clone)]
struct Budget {
    deals: u32,
    until: Option<Duration>,
    /// Threads a decision is weighed on: every core.
    threads: usize,
    /// Once set, no more blocks are started: a hint nobody waits for.
    cancel: Cancel,
    /// For a hint: a nil on the seat's side is weighed too, for its
    /// figures, though `normal`'s card is still the one advised.
    weigh_side_nil: bool,
}

/// A flag that stops a search early: shared by whoever may lose interest
/// in the answer (a hint for a decision the player has already made) and
/// the search, which starts no more blocks of deals once it is set.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// Asks the search to stop: it starts no more blocks of deals.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Has anyone asked the search to stop?
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

impl Budget {
    fn of(effort: Effort) -> Budget {
        let (deals, until) = match effort {
            Effort::Usual => (USUAL_DEALS, None),
            Effort::Deals(n) => (n.max(1), None),
            Effort::Time(t) => (MOST_DEALS, Some(t)),
        };
        Budget {
            deals,
            until,
            threads: cores(),
            cancel: Cancel::default(),
            weigh_side_nil: false,
        }
    }
}

/// The machine's cores, asked once: a bot is made for every decision the
/// table hands out, and the answer takes system calls.
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// Weighs `choices` choices over the budget's guessed deals: `trial`
/// guesses one deal and records every choice's hand on it. The blocks of
/// deals are shared among the budget's threads; a timed budget stops
/// starting blocks when its time is up (the first block always runs), and
/// any budget once it is cancelled (then nothing more runs).
fn weigh(
    budget: Budget,
    choices: usize,
    rng: &mut BotRng,
    trial: impl Fn(&mut BotRng, &mut Trials) + Sync,
) -> Trials {
    let base = rng.next_u64();
    let blocks = budget.deals.div_ceil(BLOCK);
    let started = Instant::now();
    let next = AtomicU32::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let block = next.fetch_add(1, Ordering::Relaxed);
            let late = budget.until.is_some_and(|t| started.elapsed() >= t);
            if block >= blocks || (block > 0 && late) || budget.cancel.is_cancelled() {
                return done;
            }
            let mut rng = BotRng::seed_from_u64(base ^ u64::from(block).wrapping_mul(SPREAD));
            let mut trials = Trials::new(choices);
            for _ in 0..BLOCK.min(budget.deals - block * BLOCK) {
                trial(&mut rng, &mut trials);
            }
            done.push((block, trials));
        }
    };
    // This thread searches too, once the process's pool has a place for
    // it; helpers only take places free now, so the cores are shared.
    let pool = pool::pool();
    let own = pool.wait();
    let threads = budget.threads.min(pool.size()).clamp(1, blocks as usize);
    let mut done = if threads == 1 {
        work()
    } else {
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads)
                .map_while(|_| pool.try_take())
                .map(|place| {
                    scope.spawn(move || {
                        let _place = place;
                        work()
                    })
                })
                .collect();
            let mut done = work();
            for helper in helpers {
                done.extend(helper.join().expect("a search thread does not panic"));
            }
            done
        })
    };
    drop(own);
    // In block order, so the deals line up the same however they ran.
    done.sort_by_key(|&(block, _)| block);
    let mut all = Trials::new(choices);
    for (_, trials) in done {
        all.extend(trials);
    }
    all
}

/// Odd constant spreading block numbers over the generator's seeds.
const SPREAD: u64 = 0x9E37_79B9_7F4A_7C15;

/// The `hard` level: `normal`'s rules, checked by playing the hand out over deals
/// guessed from what the seat has seen, keeping a choice that wins the game more
/// often.
#[derive(Debug)]
pub struct HardBot {
    effort: Effort,
    normal: NormalBot,
}

impl Default for HardBot {
    fn default() -> HardBot {
        HardBot::with_effort(Effort::Usual)
    }
}

impl HardBot {
    /// A `hard` bot that searches as long as `effort` allows.
    pub fn with_effort(effort: Effort) -> HardBot {
        HardBot {
            effort,
            normal: NormalBot::default(),
        }
    }

    fn budget(&self) -> Budget {
        Budget::of(self.effort)
    }
}

impl Bot for HardBot {
    fn name(&self) -> &'static str {
        "hard"
    }

    fn fresh(&self) -> Box<dyn Bot> {
        Box::new(HardBot::with_effort(self.effort))
    }

    fn blind_nil(&mut self, view: &PlayerView, rng: &mut BotRng) -> bool {
        match blind_or_look(view, self.budget(), rng) {
            Some(w) => w.chosen,
            None => self.normal.blind_nil(view, rng),
        }
    }

    fn bid(&mut self, view: &PlayerView, rng: &mut BotRng) -> Bid {
        if view.mode().dummy().is_some() {
            return self.normal.bid(view, rng);
        }
        let usual = self.normal.bid(view, &mut rng.clone());
        best_bid(view, usual, &self.normal.tuning, self.budget(), rng).map_or(usual, |w| w.chosen)
    }

    fn exchange(&mut self, view: &PlayerView, rng: &mut BotRng) -> CardSet {
        let usual = self.normal.exchange(view, &mut rng.clone());
        best_pass(view, usual, self.budget(), rng).map_or(usual, |w| w.chosen)
    }

    fn play(&mut self, view: &PlayerView, rng: &mut BotRng) -> Card {
        // With a dummy the guessed deals and playouts do not yet know the
        // teams change every hand nor that the dummy's cards are shown:
        // hard plays as normal does there.
        if view.mode().dummy().is_some() {
            return self.normal.play(view, rng);
        }
        let usual = self.normal.play(view, &mut rng.clone());
        best_card(view, usual, self.budget(), rng).map_or(usual, |w| w.chosen)
    }
}

/// A decision weighed by the search: the choice made, and every choice
/// tried, best first (none when there was nothing to weigh).
#[derive(Debug, Clone, PartialEq)]
pub struct Weighing<A> {
    /// The choice made.
    pub chosen: A,
    /// Every choice tried, best first.
    pub ranked: Vec<Weighed<A>>,
}

/// What one choice came to over the guessed deals, in the player's terms.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weighed<A> {
    /// The choice.
    pub choice: A,
    /// The side's average chance of winning the game after the hand.
    pub win: f64,
    /// The side's average points for the hand.
    pub points: f64,
    /// The side's average bags taken in the hand.
    pub bags: f64,
    /// The side's average tricks taken in the hand, all its seats'.
    pub tricks: f64,
    /// How often the side's contract was made, when it has one.
    pub contract: Option<f64>,
    /// How often the side's nils were made, when it bid one.
    pub nil: Option<f64>,
    /// How often the opponents' contracts were set.
    pub set: Option<f64>,
}

/// What `hard` would do at `decision`, weighed, for a hint: it is given
/// the seat's view and nothing else, so it can use no card the seat has
/// not seen.
pub fn advise(
    view: &PlayerView,
    decision: Decision,
    effort: Effort,
    rng: &mut BotRng,
) -> Weighing<Action> {
    advise_until(view, decision, effort, &Cancel::default(), rng)
}

/// `advise`, given up as soon as `cancel` is set: what it returns then
/// rests on the deals weighed so far, or none, and is not worth showing.
pub(crate) fn advise_until(
    view: &PlayerView,
    decision: Decision,
    effort: Effort,
    cancel: &Cancel,
    rng: &mut BotRng,
) -> Weighing<Action> {
    let mut bot = HardBot::with_effort(effort);
    // With a dummy hard plays by normal's rules (`HardBot::play`): so does
    // the hint, with no figures, as the search does not know a dummy.
    if view.mode().dummy().is_some() {
        return Weighing {
            chosen: super::decide(&mut bot.normal, decision, view, rng),
            ranked: Vec::new(),
        };
    }
    let budget = Budget {
        cancel: cancel.clone(),
        weigh_side_nil: true,
        ..bot.budget()
    };
    let usual = |bot: &mut HardBot, rng: &mut BotRng| super::decide(bot, decision, view, rng);
    let weighed = match decision {
        Decision::Play => {
            let normal = bot.normal.play(view, &mut rng.clone());
            best_card(view, normal, budget, rng).map(|w| w.map(Action::Play))
        }
        Decision::Bid => {
            let normal = bot.normal.bid(view, &mut rng.clone());
            best_bid(view, normal, &bot.normal.tuning, budget, rng).map(|w| w.map(Action::Bid))
        }
        Decision::BlindNil => blind_or_look(view, budget, rng).map(|w| {
            w.map(|blind| {
                if blind {
                    Action::Bid(Bid::BlindNil)
                } else {
                    Action::Look
                }
            })
        }),
        Decision::Exchange => {
            let normal = bot.normal.exchange(view, &mut rng.clone());
            best_pass(view, normal, budget, rng).map(|w| w.map(Action::Exchange))
        }
    };
    weighed.unwrap_or_else(|| Weighing {
        chosen: usual(&mut bot, rng),
        ranked: Vec::new(),
    })
}

impl<A: Copy> Weighing<A> {
    fn map<B: Copy>(self, f: impl Fn(A) -> B) -> Weighing<B> {
        Weighing {
            chosen: f(self.chosen),
            ranked: self
                .ranked
                .into_iter()
                .map(|w| Weighed {
                    choice: f(w.choice),
                    win: w.win,
                    points: w.points,
                    bags: w.bags,
                    tricks: w.tricks,
                    contract: w.contract,
                    nil: w.nil,
                    set: w.set,
                })
                .collect(),
        }
    }
}

/// The legal cards worth trying: of cards equal in play the lowest
/// stands for all.
fn candidates(view: &PlayerView) -> Vec<Card> {
    view.play
        .distinct_plays(view.legal_plays(), view.cards(), view.rules.deck())
        .into_iter()
        .collect()
}

/// Every seat's bid for the play: the bids made.
fn bids_made(view: &PlayerView) -> PerSeat<Bid> {
    view.bids().map(|b| b.unwrap_or(Bid::Tricks(0)))
}

/// The card to play: `usual` (`normal`'s card) unless the search over
/// `deals` guessed deals is sure another wins more often; `None` when the
/// view cannot be guessed from.
fn best_card(
    view: &PlayerView,
    usual: Card,
    budget: Budget,
    rng: &mut BotRng,
) -> Option<Weighing<Card>> {
    let cards = candidates(view);
    // Where the search is not trusted, `normal`'s card is kept. (A hint
    // may still weigh the cards, for their figures.)
    let keep_usual = !search_trusted(view);
    if cards.len() < 2 || (keep_usual && !budget.weigh_side_nil) {
        return Some(Weighing {
            chosen: usual,
            ranked: Vec::new(),
        });
    }
    let usual_at = standing_for(&cards, usual)?;
    let trials = card_trials(view, &cards, budget, rng)?;
    let chosen = if keep_usual {
        usual_at
    } else {
        // A partner's sure winner is not ruffed or overtaken on a near tie.
        // While an opponent's nil is live the search overrules `normal` on
        // less sure ground, but not for a card that spoils the hunt.
        let pos = Position::new(view);
        let hunted = hunted_nil(&pos);
        let chosen = match hunted {
            Some(nil) => trials.hunt_verdict(usual_at, view, |k| {
                if spoils_hunt(&pos, nil, cards[k], usual) {
                    SURE
                } else {
                    SURE_HUNT
                }
            }),
            None => trials.verdict(Some(usual_at), view),
        };
        // Before the last tricks, which are searched exactly, the playouts'
        // habits overrate the lead a ruff of a partner's sure winner takes
        // (recorded games showed hard spending trumps so, losing a trick:
        // `examples/partner_ruffs.rs`): there it is barred, but to hunt a nil.
        let resented = |k: usize| pos.overtakes_partner(cards[k]);
        let chosen = if in_endgame(view) || hunted.is_some() {
            trials.spare(chosen, resented)
        } else {
            trials.unbarred(chosen, resented)
        };
        // A nil bidder beats no trick it can duck under (`nil_overtakes`).
        trials.unbarred(chosen, |k| pos.nil_overtakes(cards[k]))
    };
    // The usual card is named as itself, not as the lowest of its equals.
    let mut named = cards.clone();
    named[usual_at] = usual;
    Some(Weighing {
        chosen: named[chosen],
        ranked: trials.ranked(&named),
    })
}

/// Whether the search may overrule `normal`'s card at this play. A nil on
/// the seat's own side still live is played by `normal`'s rules, which a
/// partner can count on; the habits of the playouts are cruder there. The
/// last tricks are searched exactly, with no habits: there the search is
/// trusted again. Hints keep `normal`'s card where it is not, and the game
/// review leaves such a card unjudged rather than fault it by the playouts.
pub fn search_trusted(view: &PlayerView) -> bool {
    let side_nil = std::iter::once(view.seat)
        .chain(view.partner())
        .any(|s| view.bids()[s].is_some_and(Bid::is_nil) && view.play.tricks_won[s] == 0);
    !side_nil || in_endgame(view)
}

/// The last tricks, which the search plays out exactly on every guessed deal.
fn in_endgame(view: &PlayerView) -> bool {
    view.mode().hand_size() - view.play.tricks_done <= EXACT_TRICKS
}

/// Where `card` is among `cards` (`candidates`): the candidate that stands
/// for it, the highest of its suit not above it.
fn standing_for(cards: &[Card], card: Card) -> Option<usize> {
    cards
        .iter()
        .rposition(|&c| c.suit() == card.suit() && c <= card)
}

/// Every one of `cards` played on the same guessed deals and the rest of
/// the hand played out; `None` when the view cannot be guessed from.
fn card_trials(
    view: &PlayerView,
    cards: &[Card],
    budget: Budget,
    rng: &mut BotRng,
) -> Option<Trials> {
    let guess = DealGuess::new(view).ok()?;
    let bids = bids_made(view);
    let policy = Policy::new(view.mode(), &bids).in_deck(view.rules.deck());
    // Both sides' chances of winning after the hand, for an exact search
    // of its last tricks.
    let value = |tricks: &PerSeat<u8>| hand_outcome(&view.rules, &bids, tricks, &view.totals).win;
    let trials = weigh(budget, cards.len(), rng, |rng, trials| {
        let deal = guess.sample(rng);
        let Ok(start) = view.hand_in_play(&deal.hands) else {
            return;
        };
        for (k, &card) in cards.iter().enumerate() {
            let mut hand = start;
            hand.play_unchecked(card);
            let tricks = if hand.tricks_left() <= EXACT_TRICKS {
                solve(hand, view.mode(), &value)
            } else {
                play_out(hand, &policy, rng)
            };
            let outcome = hand_outcome(&view.rules, &bids, &tricks, &view.totals);
            trials.record(k, view, &tricks, &outcome);
        }
    });
    Some(trials)
}

/// The bid a seat's cards are worth by rule of thumb, for seats that have
/// not bid yet in a simulation.
fn rough_bid(hand: CardSet, mode: Mode, deck: CardSet) -> Bid {
    Bid::Tricks(hand_tricks(hand, mode, deck).round().clamp(1.0, 13.0) as u8)
}

/// The bid to make: `usual` (`normal`'s bid) unless simulation over
/// the guessed deals is sure another bid wins more often. A nil is weighed
/// too, unless it is one no strong player bids (`nil_unthinkable`), or the
/// partner's contract alone wins the game (`game_in_hand`). `None` when the view cannot be guessed from.
fn best_bid(
    view: &PlayerView,
    usual: Bid,
    tuning: &Tuning,
    budget: Budget,
    rng: &mut BotRng,
) -> Option<Weighing<Bid>> {
    let partner_bid = view.partner().and_then(|p| view.bids()[p]);
    let est = hand_tricks(view.cards(), view.mode(), view.rules.deck());
    // Alone, the playouts' defenders hunt a nil too gently to judge one:
    // in cutthroat such nils held one time in ten. A nil with nobody to
    // cover is left to `normal`'s rules.
    let unthinkable = !view.mode().has_partners()
        || nil_unthinkable(view, est, tuning)
        || game_in_hand(&Standing::of(view), partner_bid);
    let allowed: Vec<Bid> = view
        .allowed_bids()
        .into_iter()
        .filter(|&b| b != Bid::BlindNil && (b != Bid::Nil || !unthinkable || usual == Bid::Nil))
        .collect();
    if allowed.len() < 2 {
        return Some(Weighing {
            chosen: usual,
            ranked: Vec::new(),
        });
    }
    let usual_at = allowed.iter().position(|&b| b == usual);
    let guess = DealGuess::new(view).ok()?;
    let mode = view.mode();
    let me = view.seat;
    let made = view.bids();
    let plain = rough_bid(view.cards(), mode, view.rules.deck());
    let trials = weigh(budget, allowed.len(), rng, |rng, trials| {
        let deal = guess.sample(rng);
        let mut hands = deal.hands;
        hands[me] = view.cards();
        let mut bids = PerSeat::from_fn(mode, |s: Seat| {
            made[s].unwrap_or(rough_bid(hands[s], mode, view.rules.deck()))
        });
        let start = view.hand_from_the_start(hands);
        // Played out once as a plain bid and once as a nil: the habits
        // differ only there.
        bids[me] = plain;
        let as_plain = play_out(
            start,
            &Policy::new(mode, &bids).in_deck(view.rules.deck()),
            rng,
        );
        bids[me] = Bid::Nil;
        let as_nil = play_out(
            start,
            &Policy::new(mode, &bids).in_deck(view.rules.deck()),
            rng,
        );
        for (k, &bid) in allowed.iter().enumerate() {
            bids[me] = bid;
            let tricks = if bid.is_nil() { as_nil } else { as_plain };
            let outcome = hand_outcome(&view.rules, &bids, &tricks, &view.totals);
            trials.record(k, view, &tricks, &outcome);
        }
    });
    Some(Weighing {
        chosen: allowed[trials.verdict(usual_at, view)],
        ranked: trials.ranked(&allowed),
    })
}

mod blind_nil;
pub mod judge;
mod pool;
#[cfg(test)]
mod tests;
mod trials;
