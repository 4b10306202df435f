//! What a searching bot does many times a decision: guess the hidden cards
//! from a seat's view (`DealGuess::sample`), resume the hand there, and
//! play it out with the policy (or at random) and score it in game terms.
//! Positions come from a seeded game of `normal` bots: the opening lead and
//! mid-hand (after five tricks and two cards of the sixth), and the exact
//! search of the last three tricks.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use spades_core::bots::normal::NormalBot;
use spades_core::bots::{bot_rng, decide};
use spades_core::engine::{Game, Mode, PerSeat, Phase, PlayerView, Rules};
use spades_core::search::endgame::{EXACT_TRICKS, solve};
use spades_core::search::policy::play_out;
use spades_core::search::{DealGuess, Playout, Policy, hand_outcome};

/// The view of the seat to play once `cards` cards have been played in
/// the first hand of a seeded game of `normal` bots.
fn position(mode: Mode, cards: usize) -> PlayerView {
    let seed = 7;
    let mut game = Game::new(Rules::classic(mode), seed);
    let mut bots: Vec<NormalBot> = mode.each_seat().map(|_| NormalBot::default()).collect();
    let mut rngs: Vec<_> = mode.each_seat().map(|s| bot_rng(seed, s)).collect();
    while let Some(turn) = game.to_act() {
        if game.phase() == Phase::Playing && game.hand_state().played().len() as usize == cards {
            return game.view(turn.seat);
        }
        let i = turn.seat.index();
        let action = decide(
            &mut bots[i],
            turn.decision,
            &game.view(turn.seat),
            &mut rngs[i],
        );
        game.apply(turn.seat, action).expect("bots play legally");
    }
    unreachable!("the hand has {cards} cards to play")
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.throughput(Throughput::Elements(1));
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
    for mode in [Mode::Partnership, Mode::Cutthroat] {
        let n = mode.seats();
        for (moment, cards) in [("opening lead", 0), ("mid-hand", 5 * n + 2)] {
            let view = position(mode, cards);
            let guess = DealGuess::new(&view).expect("a consistent view");
            let rules = view.rules;
            let bids = view.bids().map(|b| b.expect("every seat has bid"));
            let policy = Policy::new(mode, &bids);
            group.bench_function(format!("{mode} {moment}: deal guess sample"), |b| {
                b.iter(|| black_box(guess.sample(&mut rng)))
            });
            let deal = guess.sample(&mut rng);
            let hand = view
                .hand_in_play(&deal.hands)
                .expect("a guess fits the view");
            group.bench_function(format!("{mode} {moment}: resume from the view"), |b| {
                b.iter(|| black_box(view.hand_in_play(black_box(&deal.hands))))
            });
            let tricks = play_out(hand, &policy, &mut rng);
            group.bench_function(format!("{mode} {moment}: score and game value"), |b| {
                b.iter(|| {
                    black_box(hand_outcome(
                        &rules,
                        &bids,
                        black_box(&tricks),
                        &view.totals,
                    ))
                })
            });
            group.bench_function(format!("{mode} {moment}: policy playout"), |b| {
                b.iter(|| black_box(play_out(hand, &policy, &mut rng)))
            });
            group.bench_function(format!("{mode} {moment}: random playout"), |b| {
                b.iter(|| black_box(Playout::finish(hand, &mut rng)))
            });
            group.bench_function(
                format!("{mode} {moment}: guess + resume + policy playout + game value"),
                |b| {
                    b.iter(|| {
                        let deal = guess.sample(&mut rng);
                        let hand = view.hand_in_play(&deal.hands).expect("a guess fits");
                        let tricks = play_out(hand, &policy, &mut rng);
                        black_box(hand_outcome(&rules, &bids, &tricks, &view.totals).win)
                    })
                },
            );
        }
        // The exact search of the last three tricks, on a guessed deal.
        let view = position(mode, (mode.hand_size() - EXACT_TRICKS) * n);
        let guess = DealGuess::new(&view).expect("a consistent view");
        let bids = view.bids().map(|b| b.expect("every seat has bid"));
        let value =
            |tricks: &PerSeat<u8>| hand_outcome(&view.rules, &bids, tricks, &view.totals).win;
        group.bench_function(
            format!("{mode} last {EXACT_TRICKS} tricks: guess + exact search"),
            |b| {
                b.iter(|| {
                    let deal = guess.sample(&mut rng);
                    let hand = view.hand_in_play(&deal.hands).expect("a guess fits");
                    black_box(solve(hand, mode, &value))
                })
            },
        );
        let view = position(mode, 0);
        group.bench_function(format!("{mode}: DealGuess::new from a view"), |b| {
            b.iter(|| black_box(DealGuess::new(&view).expect("a consistent view")))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
