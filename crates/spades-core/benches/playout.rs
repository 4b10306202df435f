//! Random full-hand playouts: deal, play every trick with uniformly
//! random legal cards, score the hand. The search bot lives on this loop.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use spades_core::engine::score::{SideTotals, score_hand};
use spades_core::engine::{Bid, Deal, HandState, Mode, PerSeat, PerSide, Rules, Seat};
use spades_core::search::Playout;

/// One random hand; `seed` only turns the dealer.
fn playout(rules: &Rules, seed: u64, rng: &mut rand_pcg::Pcg64Mcg) -> i32 {
    let mode = rules.mode;
    let n = mode.seats();
    let dealer = Seat::new((seed % n as u64) as usize);
    let tricks = Playout::deal(rng, mode, dealer).play(rng);
    score(rules, &tricks)
}

/// Hands played in step by `playout_batch`.
const BATCH: usize = 4;

/// Scores one hand's tricks under fixed bids: every side's points.
fn score(rules: &Rules, tricks: &PerSeat<u8>) -> i32 {
    let mode = rules.mode;
    let bids = [Bid::Tricks(3), Bid::Tricks(4), Bid::Nil, Bid::Tricks(3)];
    let bids = PerSeat::from_fn(mode, |s| bids[s.index()]);
    let before = PerSide::filled(mode, SideTotals::default());
    let sides = score_hand(rules, &bids, tricks, &before);
    sides.iter().map(|side| side.points).sum()
}

/// `BATCH` random hands, each dealt, played and scored, the deals and the
/// play in step (what a search bot running many playouts does).
fn playout_batch(rules: &Rules, seed: u64, rng: &mut rand_pcg::Pcg64Mcg) -> i32 {
    let mode = rules.mode;
    let n = mode.seats() as u64;
    let dealers = std::array::from_fn(|k| Seat::new(((seed + k as u64) % n) as usize));
    let mut deals: [Playout; BATCH] = Playout::deal_batch(rng, mode, dealers);
    let won = Playout::play_batch(&mut deals, rng);
    won.iter().map(|tricks| score(rules, tricks)).sum()
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
        group.throughput(Throughput::Elements(BATCH as u64));
        group.bench_function(
            format!("{mode} hands {BATCH} in step: deal + tricks + score"),
            |b| {
                b.iter(|| {
                    seed += BATCH as u64;
                    black_box(playout_batch(&rules, seed, &mut rng))
                })
            },
        );
        group.throughput(Throughput::Elements(1));
        let deal = Deal::from_seed(7, 1, mode, Seat::new(0));
        group.bench_function(
            format!("{mode} playout tricks only (shuffle a dealt hand's suits)"),
            |b| {
                b.iter(|| {
                    let p = Playout::from_hands(&deal.hands, Seat::new(1), false, &mut rng);
                    black_box(p.play(&mut rng))
                })
            },
        );
        group.bench_function(
            format!("{mode} HandState tricks only (copy a dealt hand)"),
            |b| {
                b.iter(|| {
                    let mut hand = HandState::new(deal.hands, Seat::new(1));
                    while !hand.is_over() {
                        let card = hand.legal().pick(rng.next_u32());
                        hand.play_unchecked(card.unwrap_or_else(|| unreachable!()));
                    }
                    black_box(hand.tricks_won())
                })
            },
        );
        group.bench_function(format!("{mode} seeded game deal (ChaCha8)"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(Deal::from_seed(seed, 1, mode, Seat::new(0)))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
