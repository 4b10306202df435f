//! The engine support a search needs, over seeded games of `normal` bots
//! stopped at random moments: a hand resumed from a seat's view and the
//! true hidden hands is the game's own hand and plays on exactly like it;
//! guessed deals never break a fact the seat knows; leaning on the bids
//! makes the real deals likelier than an even guess does; and a hand played
//! out by the policy scores as the game scores it.

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use spades::bots::normal::NormalBot;
use spades::bots::{Bot, BotRng, bot_rng, decide};
use spades::engine::{
    Action, Bid, Card, CardSet, Deal, Game, HandState, Mode, Phase, PlayerView, Rules, Seat, Suit,
    Turn,
};
use spades::search::policy::{Policy, play_out, play_out_with};
use spades::search::{DealGuess, Playout, hand_outcome};
use support::proptest_seed::{any_mode, config};

/// `normal`, except that it bids blind nil half the times it may: games
/// with exchanges, so guesses must place the cards passed.
struct BlindNilOften(NormalBot);

impl Bot for BlindNilOften {
    fn name(&self) -> &'static str {
        "blind-nil-often"
    }
    fn fresh(&self) -> Box<dyn Bot> {
        Box::new(BlindNilOften(self.0))
    }
    fn blind_nil(&mut self, _view: &PlayerView, rng: &mut BotRng) -> bool {
        rng.random_bool(0.5)
    }
    fn bid(&mut self, view: &PlayerView, rng: &mut BotRng) -> Bid {
        self.0.bid(view, rng)
    }
    fn exchange(&mut self, view: &PlayerView, rng: &mut BotRng) -> CardSet {
        self.0.exchange(view, rng)
    }
    fn play(&mut self, view: &PlayerView, rng: &mut BotRng) -> Card {
        self.0.play(view, rng)
    }
}

/// Blind nil on offer from the first deal, with a three-card exchange.
pub(crate) fn blind_nil_rules(mode: Mode) -> Rules {
    support::game::short(mode, 300)
        .with(|r| {
            r.blind_nil.min_deficit = 0;
            r.blind_nil.exchange = 3;
        })
        .expect("valid rules")
}

/// Plays `hands` hands of a seeded game, calling `at` before every action
/// with the game, whose turn it is and the action about to be applied.
pub(crate) fn play(
    rules: Rules,
    seed: u64,
    hands: u32,
    blind_nils: bool,
    mut at: impl FnMut(&Game, Turn, Action),
) -> Game {
    let mode = rules.mode;
    let mut game = Game::new(rules, seed);
    let mut bots: Vec<Box<dyn Bot>> = mode
        .each_seat()
        .map(|_| -> Box<dyn Bot> {
            if blind_nils {
                Box::new(BlindNilOften(NormalBot::default()))
            } else {
                Box::new(NormalBot::default())
            }
        })
        .collect();
    let mut rngs: Vec<BotRng> = mode.each_seat().map(|s| bot_rng(seed, s)).collect();
    loop {
        match game.to_act() {
            Some(turn) => {
                let i = turn.seat.index();
                let view = game.view(turn.seat);
                let action = decide(bots[i].as_mut(), turn.decision, &view, &mut rngs[i]);
                at(&game, turn, action);
                game.apply(turn.seat, action)
                    .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            }
            None if game.hand_no() >= hands => return game,
            None => {
                if game.deal_next_hand().is_none() {
                    return game;
                }
            }
        }
    }
}

/// What each seat truly holds now (before the exchange: as dealt).
fn true_deal(game: &Game) -> Deal {
    let hands = match game.phase() {
        Phase::Bidding | Phase::Exchange => game.dealt().hands,
        _ => game.hand_state().hands,
    };
    Deal {
        hands,
        out: game.dealt().out,
    }
}

proptest! {
    #![proptest_config(config(40))]

    /// A state resumed from a view and the true hands at a random moment
    /// is the game's hand; fed the game's cards from then on it shows the
    /// same tricks, turns and winners at every step, and the same tricks
    /// won at the end.
    #[test]
    fn a_resumed_hand_plays_on_as_the_game(mode in any_mode(), seed in any::<u64>()) {
        let mut pick = Pcg64Mcg::seed_from_u64(seed);
        let mut followers = Vec::new();
        let mut hand_no = 0;
        let game = play(Rules::classic(mode), seed, 2, false, |game, turn, action| {
            let now = game.hand_state();
            if game.hand_no() != hand_no {
                // The last hand is over: every follower ended it as it ended.
                let tricks = game.results().last().map(|r| r.tricks);
                for f in followers.drain(..) {
                    let f: HandState = f;
                    assert!(f.is_over());
                    assert_eq!(Some(f.tricks_won()), tricks);
                }
                hand_no = game.hand_no();
            }
            for f in &followers {
                assert_eq!(f.public(), now.public());
                assert_eq!(f.hands, now.hands);
            }
            let Action::Play(card) = action else { return };
            if pick.random_range(0..4) == 0 {
                let seat = Seat::new(pick.random_range(0..mode.seats()));
                let resumed = game
                    .view(seat)
                    .hand_in_play(&now.hands)
                    .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
                assert_eq!(resumed.public(), now.public());
                assert_eq!(resumed.hands, now.hands);
                assert_eq!(resumed.legal(), now.legal());
                followers.push(resumed);
            }
            assert_eq!(turn.seat, now.turn());
            for f in &mut followers {
                f.play_unchecked(card);
            }
        });
        for f in followers {
            if game.phase() != Phase::Playing {
                prop_assert_eq!(Some(f.tricks_won()), game.results().last().map(|r| r.tricks));
            }
        }
    }

    /// At random moments of games with blind nils and exchanges, every
    /// guessed deal (leaning or even) keeps every fact the seat knows, and
    /// the true deal is never ruled out.
    #[test]
    fn guessed_deals_keep_every_fact(mode in any_mode(), seed in any::<u64>()) {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        play(blind_nil_rules(mode), seed, 2, true, |game, _, _| {
            if rng.random_range(0..6) != 0 {
                return;
            }
            let seat = Seat::new(rng.random_range(0..mode.seats()));
            let view = game.view(seat);
            let truth = true_deal(game);
            let lean = DealGuess::new(&view).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            let even = DealGuess::uniform(&view).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            for guess in [&lean, &even] {
                assert!(guess.log_chance(&truth).is_some(), "seed {seed}: the truth ruled out");
                for _ in 0..25 {
                    let deal = guess.sample(&mut rng);
                    check_facts(&view, &truth, &deal);
                }
            }
        });
    }
}

/// Every fact `view` shows about the hidden cards holds in `deal`, whose
/// hands are as large as the true ones.
fn check_facts(view: &PlayerView, truth: &Deal, deal: &Deal) {
    let mode = view.mode();
    let played = view.play.played;
    let mut all = deal.out;
    for (seat, hand) in deal.hands.pairs() {
        assert_eq!(hand.len(), truth.hands[seat].len(), "{seat:?}'s hand size");
        assert!(
            hand.intersect(played).is_empty(),
            "a played card in {seat:?}'s hand"
        );
        assert!(all.intersect(*hand).is_empty(), "a card dealt twice");
        all |= *hand;
    }
    assert_eq!(all | played, CardSet::DECK, "every card somewhere");
    assert_eq!(
        deal.out.len() as usize,
        52 - mode.seats() * mode.hand_size()
    );
    if let Some(mine) = view.hand {
        assert_eq!(deal.hands[view.seat], mine);
    }
    for suit in Suit::ALL {
        for (seat, &void) in view.void_in(suit).pairs() {
            assert!(
                !void || !deal.hands[seat].has_suit(suit),
                "{seat:?} is void in {suit}"
            );
        }
    }
    // A spade led before spades were broken: the leader held only spades.
    let mut broken = false;
    let current = (view.play.leader, view.play.trick);
    for (leader, cards) in view
        .tricks
        .iter()
        .map(|t| (t.leader, t.cards))
        .chain([current])
    {
        if cards[leader].is_some_and(|c| c.suit() == Suit::Spades) && !broken {
            let others = deal.hands[leader].minus(CardSet::of_suit(Suit::Spades));
            assert!(others.is_empty(), "{leader:?} led a spade unbroken");
        }
        broken |= cards.iter().flatten().any(|c| c.suit() == Suit::Spades);
    }
    if let Some(x) = view.exchange
        && let Some(given) = x.given
        && view.phase == Phase::Playing
    {
        let still_held = given.minus(played);
        assert!(
            still_held.is_subset(deal.hands[x.partner]),
            "passed cards at the partner"
        );
    }
}

/// The mean log chance of the real deals under leaning and even guesses,
/// from the view of the seat to play, at the first lead of each hand and
/// after `mid` tricks.
fn log_chances(mode: Mode, games: u64, mid: usize) -> [(f64, f64); 2] {
    let mut sums = [(0.0, 0.0); 2];
    let mut counts = [0.0; 2];
    for seed in 0..games {
        play(Rules::classic(mode), seed, 1, false, |game, turn, _| {
            let play = game.hand_state();
            let moment = match (game.phase(), play.tricks_done(), play.winning()) {
                (Phase::Playing, 0, None) => 0,
                (Phase::Playing, t, None) if t == mid => 1,
                _ => return,
            };
            let view = game.view(turn.seat);
            let truth = true_deal(game);
            let lean = DealGuess::new(&view).unwrap().log_chance(&truth).unwrap();
            let even = DealGuess::uniform(&view)
                .unwrap()
                .log_chance(&truth)
                .unwrap();
            sums[moment].0 += lean;
            sums[moment].1 += even;
            counts[moment] += 1.0;
        });
    }
    [0, 1].map(|m| (sums[m].0 / counts[m], sums[m].1 / counts[m]))
}

/// Leaning on the bids makes the real deals likelier than an even guess,
/// at the first lead and mid-hand, with partners and alone. (Over 2,000
/// hands, `examples/deal_guess_fit.rs`, partnership gains about 0.7 nats a
/// deal at both moments, cutthroat about 0.3.)
#[test]
fn leaning_on_bids_makes_real_deals_likelier() {
    for (mode, gain) in [(Mode::Partnership, 0.4), (Mode::Cutthroat, 0.1)] {
        let [first, mid] = log_chances(mode, 100, 5);
        eprintln!(
            "{mode}: mean log chance of the real deal (leaning, even): \
             first lead {first:.2?}, after 5 tricks {mid:.2?}"
        );
        assert!(first.0 > first.1 + gain, "{mode} first lead: {first:?}");
        assert!(mid.0 > mid.1 + gain, "{mode} after 5 tricks: {mid:?}");
    }
}

proptest! {
    #![proptest_config(config(30))]

    /// From random moments, hands played out by the policy (and at random)
    /// from the view and the true hands are legal in the game, and score
    /// there exactly as `hand_outcome` scores them.
    #[test]
    fn played_out_hands_score_as_the_game_does(mode in any_mode(), seed in any::<u64>()) {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        play(Rules::classic(mode), seed, 2, false, |game, turn, _| {
            if game.phase() != Phase::Playing || rng.random_range(0..8) != 0 {
                return;
            }
            let view = game.view(turn.seat);
            let hand = view.hand_in_play(&game.hand_state().hands).unwrap();
            let bids = view.bids().map(|b| b.expect("every seat has bid"));
            let policy = Policy::new(mode, &bids);
            let mut cards = Vec::new();
            let tricks = play_out_with(hand, &policy, &mut rng, |seat, card| cards.push((seat, card)));
            let mut rest = game.clone();
            for (seat, card) in cards {
                rest.apply(seat, Action::Play(card)).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            }
            let result = rest.results().last().expect("the hand is over").clone();
            assert_eq!(result.tricks, tricks);
            let outcome = hand_outcome(game.rules(), &bids, &tricks, game.totals());
            assert_eq!(result.sides, outcome.sides);
            if let Some(winner) = rest.winner() {
                assert_eq!(outcome.win[winner], 1.0);
            }
            let random = Playout::finish(hand, &mut rng);
            let won = game.hand_state().tricks_won();
            assert_eq!(random.iter().map(|&t| usize::from(t)).sum::<usize>(), mode.hand_size());
            for (seat, &t) in random.pairs() {
                assert!(t >= won[seat], "tricks already won stay won");
            }
        });
    }
}

/// The policy plays like a player: from the opening lead of hands `normal`
/// bid, nil bidders keep their nils far more often in policy playouts than
/// in random ones, and sides make their contracts more often.
#[test]
fn policy_playouts_keep_nils_and_make_contracts() {
    let mut rng = Pcg64Mcg::seed_from_u64(9);
    let (mut nils, mut contracts) = ([0u32; 2], [0u32; 2]);
    let (mut nil_tries, mut contract_tries) = (0u32, 0u32);
    for seed in 0..40 {
        play(
            Rules::classic(Mode::Partnership),
            seed,
            1,
            false,
            |game, turn, _| {
                let play = game.hand_state();
                if game.phase() != Phase::Playing || !play.played().is_empty() {
                    return;
                }
                let view = game.view(turn.seat);
                let hand = view.hand_in_play(&play.hands).unwrap();
                let bids = view.bids().map(|b| b.expect("every seat has bid"));
                let policy = Policy::new(Mode::Partnership, &bids);
                for _ in 0..20 {
                    let by_policy = play_out(hand, &policy, &mut rng);
                    let at_random = Playout::finish(hand, &mut rng);
                    for (k, tricks) in [by_policy, at_random].iter().enumerate() {
                        let outcome = hand_outcome(game.rules(), &bids, tricks, game.totals());
                        for side in &outcome.sides {
                            for nil in side.nils.iter().flatten() {
                                nils[k] += u32::from(nil.made());
                                nil_tries += u32::from(k == 0);
                            }
                            if let Some(c) = side.contract {
                                contracts[k] += u32::from(c.made());
                                contract_tries += u32::from(k == 0);
                            }
                        }
                    }
                }
            },
        );
    }
    eprintln!(
        "nils made {nils:?} of {nil_tries}, contracts made {contracts:?} of {contract_tries} (policy, random)"
    );
    assert!(nil_tries >= 100, "{nil_tries} nil playouts");
    assert!(nils[0] > 2 * nils[1], "nils: {nils:?} of {nil_tries}");
    assert!(
        contracts[0] > contracts[1],
        "contracts: {contracts:?} of {contract_tries}"
    );
}
