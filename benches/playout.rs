//! Random full-hand playouts: deal from a seed, play 13 tricks with uniformly
//! random legal cards, score the hand. The search bot lives on this loop.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use spades::engine::score::{SideTotals, score_hand};
use spades::engine::{Bid, Deal, HandState, MAX_SEATS, Mode, Rules};

/// One random hand; `seed` only turns the dealer.
fn playout(rules: &Rules, seed: u64, rng: &mut rand_pcg::Pcg64Mcg) -> i32 {
    let mode = rules.mode;
    let n = mode.seats();
    let deal = Deal::shuffled(rng, mode, (seed % n as u64) as usize);
    let mut hand = HandState::new(n, deal.hands, 1);
    while !hand.is_over() {
        let legal = hand.legal();
        // Multiply-shift pick: a playout does not need an exactly uniform draw.
        let k = ((u64::from(rng.next_u32()) * u64::from(legal.len())) >> 32) as u32;
        let card = legal
            .nth(k)
            .unwrap_or_else(|| unreachable!("a seat to play holds a card"));
        hand.play_unchecked(card);
    }
    let bids = [Bid::Tricks(3), Bid::Tricks(4), Bid::Nil, Bid::Tricks(3)];
    let tricks = hand.tricks_won();
    let before = [SideTotals::default(); MAX_SEATS];
    let sides = score_hand(rules, &bids[..n], &tricks[..n], &before[..mode.sides()]);
    sides[0].points
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("playout");
    group.throughput(Throughput::Elements(1));
    for mode in [Mode::Partnership, Mode::Cutthroat] {
        let rules = Rules::classic(mode);
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
        let mut seed = 0u64;
        group.bench_function(format!("{mode} hand: deal + tricks + score"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(playout(&rules, seed, &mut rng))
            })
        });
        let deal = Deal::from_seed(7, 1, mode, 0);
        group.bench_function(format!("{mode} tricks only (copy a dealt hand)"), |b| {
            b.iter(|| {
                let mut hand = HandState::new(mode.seats(), deal.hands, 1);
                while !hand.is_over() {
                    let card = hand.legal().pick(rng.next_u32());
                    hand.play_unchecked(card.unwrap_or_else(|| unreachable!()));
                }
                black_box(hand.tricks_won())
            })
        });
        group.bench_function(format!("{mode} seeded game deal (ChaCha8)"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(Deal::from_seed(seed, 1, mode, 0))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
