//! How well guessed deals fit real ones: over hands dealt by the engine and
//! bid and played by `normal`, the mean log chance of the real deal under
//! `DealGuess` at several trusts in the bids (0 is the even guess), from
//! the seat to play at the first lead and after 5 and 9 tricks.
//!
//! `cargo run --release --example deal_guess_fit -- [hands] [mode]`

use spades::bots::normal::NormalBot;
use spades::bots::{Bot, bot_rng, decide};
use spades::engine::{Deal, Game, Mode, Phase, Rules};
use spades::search::DealGuess;

const TRUSTS: [f32; 6] = [0.0, 0.2, 0.3, 0.4, 0.5, 0.7];
const MOMENTS: [usize; 3] = [0, 5, 9];

fn main() {
    let mut args = std::env::args().skip(1);
    let hands: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2000);
    let mode: Mode = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(Mode::Partnership);
    let mut sums = [[0.0f64; TRUSTS.len()]; MOMENTS.len()];
    let mut counts = [0u32; MOMENTS.len()];
    for seed in 0..hands {
        let mut game = Game::new(Rules::classic(mode), seed);
        let mut bots: Vec<NormalBot> = mode.each_seat().map(|_| NormalBot::default()).collect();
        let mut rngs: Vec<_> = mode.each_seat().map(|s| bot_rng(seed, s)).collect();
        while let Some(turn) = game.to_act() {
            let play = game.hand_state();
            if game.phase() == Phase::Playing
                && play.winning().is_none()
                && let Some(m) = MOMENTS.iter().position(|&t| t == play.tricks_done())
            {
                let view = game.view(turn.seat);
                let truth = Deal {
                    hands: play.hands,
                    out: game.dealt().out,
                };
                for (k, &trust) in TRUSTS.iter().enumerate() {
                    let guess = DealGuess::leaning(&view, trust).expect("a consistent view");
                    sums[m][k] += guess.log_chance(&truth).expect("the truth fits");
                }
                counts[m] += 1;
            }
            let i = turn.seat.index();
            let view = game.view(turn.seat);
            let bot: &mut dyn Bot = &mut bots[i];
            let action = decide(bot, turn.decision, &view, &mut rngs[i]);
            game.apply(turn.seat, action).expect("bots play legally");
        }
    }
    println!("{mode}, {hands} hands: mean log chance (nats) of the real deal");
    print!("{:>14}", "trust");
    for t in TRUSTS {
        print!("{t:>9.2}");
    }
    println!();
    for (m, &tricks) in MOMENTS.iter().enumerate() {
        print!("{:>14}", format!("after {tricks} tricks"));
        for sum in sums[m] {
            print!("{:>9.3}", sum / f64::from(counts[m]));
        }
        println!();
    }
}
