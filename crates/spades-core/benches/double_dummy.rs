//! The double-dummy solver on whole deals: every seeded deal solved from
//! its opening lead, each side on its own (`all_sides`, what the game
//! review asks of every hand) and one side alone (`most_tricks`). Each
//! deal is timed once, so the figures are per deal: the median and the
//! 99th percentile over the deals, not an average of repeats.
//!
//! Run with `cargo bench --bench double_dummy`; `DD_DEALS=N` changes the
//! number of partnership deals (a third as many cutthroat ones, 17 cards a
//! seat).

use std::hint::black_box;
use std::time::{Duration, Instant};

use spades_core::engine::{Deal, HandState, Mode, PlayRules, Seat, Side};
use spades_core::search::double_dummy::{
    ALL_SEEN_LIMIT, all_sides, most_tricks, most_tricks_within,
};

fn main() {
    let deals: u64 = std::env::var("DD_DEALS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(60);
    for (mode, count) in [
        (Mode::Partnership, deals),
        (Mode::Cutthroat, deals.div_ceil(3)),
    ] {
        let hands: Vec<HandState> = (1..=count).map(|seed| opening(mode, seed)).collect();
        // In partnership one search answers both sides.
        if mode == Mode::Cutthroat {
            let one = timed(&hands, |hand| {
                black_box(most_tricks(hand, mode, Side::new(0)));
            });
            report(mode, "one side (most_tricks)", one);
        }
        let all = timed(&hands, |hand| {
            black_box(all_sides(hand, mode));
        });
        report(mode, "every side (all_sides)", all);
        // What the game review asks: one side, within its limit.
        let answered = std::cell::Cell::new(0);
        let review = timed(&hands, |hand| {
            let seen = most_tricks_within(hand, mode, Side::new(0), ALL_SEEN_LIMIT);
            answered.set(answered.get() + usize::from(seen.is_some()));
        });
        let what = format!(
            "the review's solve ({} answered within {ALL_SEEN_LIMIT} positions)",
            answered.get()
        );
        report(mode, &what, review);
    }
}

/// The first hand of the game seeded `seed`, at its opening lead.
fn opening(mode: Mode, seed: u64) -> HandState {
    let dealer = Seat::new((seed % mode.seats() as u64) as usize);
    let deal = Deal::from_seed(seed, 1, mode, dealer);
    HandState::dealt(deal.hands, mode.next(dealer), PlayRules::default())
}

/// Each hand's solving time, sorted.
fn timed(hands: &[HandState], solve: impl Fn(&HandState)) -> Vec<Duration> {
    let mut times: Vec<Duration> = hands
        .iter()
        .map(|hand| {
            let start = Instant::now();
            solve(hand);
            start.elapsed()
        })
        .collect();
    times.sort();
    times
}

fn report(mode: Mode, what: &str, times: Vec<Duration>) {
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    let total: Duration = times.iter().sum();
    println!(
        "{mode} {what}: {} deals, median {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms, mean {:.1} ms",
        times.len(),
        ms(at(0.5)),
        ms(at(0.9)),
        ms(at(0.99)),
        ms(at(1.0)),
        ms(total / times.len() as u32),
    );
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
