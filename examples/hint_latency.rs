//! How long a hint takes, as the table works it out: the quick first look
//! and then the game's own effort (`tui::hint::looks`), one after the
//! other, over seeded positions of every kind of decision (blind nil or
//! look, bids, the exchange, cards) from games of `normal` in which a seat
//! offered blind nil takes it a third of the time, so exchanges come up.
//! Prints the p50 and p99 time to the first answer and to the refined one,
//! over the decisions the search weighs (a hint with nothing to weigh, one
//! sensible choice, answers at once).
//!
//! `cargo run --release --example hint_latency -- [games]`

use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use spades::bots::advice::advise;
use spades::bots::hard::Cancel;
use spades::bots::normal::NormalBot;
use spades::bots::{BotRng, Effort, bot_rng, decide};
use spades::engine::{Action, Bid, Decision, Game, Mode, Rules};
use spades::tui::hint::looks;

/// Every card decision is not needed to know the spread: one in this many.
const PLAY_EVERY: usize = 4;

const KINDS: [Decision; 4] = [
    Decision::BlindNil,
    Decision::Bid,
    Decision::Exchange,
    Decision::Play,
];

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10);
    let rules = Rules::classic(Mode::Partnership)
        .with(|r| r.blind_nil.min_deficit = 0)
        .expect("valid rules");
    // Per kind: (time to the first answer, time to the refined one).
    let mut times: Vec<Vec<(Duration, Duration)>> = vec![Vec::new(); KINDS.len()];
    let mut plays_seen = 0;
    for seed in 0..games {
        let mut game = Game::new(rules, seed);
        let mut bot = NormalBot::default();
        let mut chance = BotRng::seed_from_u64(seed);
        for _hand in 0..3 {
            while let Some(turn) = game.to_act() {
                let view = game.view(turn.seat);
                let asked = match turn.decision {
                    Decision::Play => {
                        plays_seen += 1;
                        view.legal_plays().len() > 1 && plays_seen % PLAY_EVERY == 0
                    }
                    _ => true,
                };
                if asked {
                    let kind = KINDS.iter().position(|&k| k == turn.decision);
                    let kind = kind.expect("every kind of decision is listed");
                    times[kind].extend(hint_times(&view, turn.decision));
                }
                let mut rng = bot_rng(seed, turn.seat);
                let action = match turn.decision {
                    Decision::BlindNil
                        if view.check_bid(Bid::BlindNil).is_ok() && chance.random_bool(0.33) =>
                    {
                        Action::Bid(Bid::BlindNil)
                    }
                    _ => decide(&mut bot, turn.decision, &view, &mut rng),
                };
                game.apply(turn.seat, action).expect("a legal action");
            }
            if game.deal_next_hand().is_none() {
                break;
            }
        }
    }
    let cpus = std::thread::available_parallelism().map_or(1, usize::from);
    println!(
        "hint latency over {games} seeded games, {cpus} cores, effort {:?}",
        looks(Effort::Usual)
    );
    println!(
        "{:<10} {:>5} {:>22} {:>22}",
        "decision", "n", "first p50/p99 ms", "refined p50/p99 ms"
    );
    let mut all = Vec::new();
    for (kind, t) in KINDS.iter().zip(&times) {
        all.extend_from_slice(t);
        row(&format!("{kind:?}"), t);
    }
    row("all", &all);
}

/// The time to each look's answer, the looks one after the other as the
/// table runs them.
fn hint_times(
    view: &spades::engine::PlayerView,
    decision: Decision,
) -> Option<(Duration, Duration)> {
    let started = Instant::now();
    let seed = u64::from(view.hand_no) << 8 | u64::from(view.play.played.len());
    let mut first = None;
    for effort in looks(Effort::Usual) {
        let mut rng = bot_rng(seed, view.seat);
        let advice = advise(view, decision, effort, &Cancel::default(), &mut rng);
        // Only a choice the search weighed takes its time: the rest
        // (one sensible choice) answer at once.
        if advice.weighing.ranked.len() < 2 {
            return None;
        }
        first.get_or_insert(started.elapsed());
    }
    Some((first.unwrap_or_default(), started.elapsed()))
}

fn row(name: &str, times: &[(Duration, Duration)]) {
    let ms = |mut v: Vec<Duration>| {
        v.sort();
        let at = |q: f64| {
            let i = ((v.len() as f64 * q).ceil() as usize).clamp(1, v.len().max(1)) - 1;
            v.get(i).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
        };
        format!("{:.1}/{:.1}", at(0.5), at(0.99))
    };
    let first = ms(times.iter().map(|t| t.0).collect());
    let refined = ms(times.iter().map(|t| t.1).collect());
    println!("{name:<10} {:>5} {first:>22} {refined:>22}", times.len());
}
