//! The hands nils are played with, and how they fare: over partnership
//! games written by `spades sim --record`, for each kind of bot bidding
//! (the first word of a seat's name, "hard 0") against each kind
//! defending, plain nils and blind nils apart: how many were bid and made,
//! what the bidder held once any exchange was done (its queens, kings and
//! aces; a spade jack or higher, and the made rate without one), and the
//! made rate by how far the defenders led at the deal.
//!
//! `cargo run --release --example nil_hands -- RECORD`

use std::collections::BTreeMap;

use spades::engine::{Bid, CardSet, Event, Mode, Rank, Seat, Suit};
use spades::record::{RecordedGame, read_games, replay};

/// One kind of nil, bid by one kind of bot against another.
#[derive(Default)]
struct Tally {
    bid: u32,
    made: u32,
    honours: u32,
    spade_honour: u32,
    /// Bid and made, with no spade jack or higher.
    no_spade_honour: (u32, u32),
    /// Bid and made, with the defenders ahead by less than 100 at the deal.
    close: (u32, u32),
    /// Bid and made, with the defenders ahead by 100 or more.
    far: (u32, u32),
}

/// Only partnership games: a nil's defenders are then the two seats of
/// the other side.
const MODE: Mode = Mode::Partnership;

type Tallies = BTreeMap<(String, String, &'static str), Tally>;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: nil_hands RECORD");
        std::process::exit(2);
    };
    let games = std::fs::read_to_string(&path)
        .map_err(|e| e.to_string())
        .and_then(|text| read_games(&text).map_err(|e| format!("{}: {}", e.line, e.message)))
        .unwrap_or_else(|e| {
            eprintln!("{path}:{e}");
            std::process::exit(2);
        });
    let mut tallies = Tallies::new();
    for game in games.iter().filter(|g| g.header.mode == MODE) {
        // Only a game the engine replays is counted: its events are then
        // in order and every seat and card is where the rules put it.
        if let Err(e) = replay(game) {
            eprintln!("{path}:{}: {}", e.line, e.message);
            std::process::exit(2);
        }
        tally(game, &mut tallies);
    }
    let rate = |(n, made): (u32, u32)| {
        if n == 0 {
            "-".to_string()
        } else {
            format!("{made}/{n} {:.1}%", 100.0 * f64::from(made) / f64::from(n))
        }
    };
    println!(
        "bidder  defence  nil    made               Q/K/A  spade J+  made without J+     defence ahead <100   ahead 100+"
    );
    for ((bidder, defence, nil), t) in &tallies {
        let n = f64::from(t.bid);
        println!(
            "{bidder:<7} {defence:<8} {nil:<6} {:<18} {:>5.2}  {:>7.1}%  {:<19} {:<19}  {}",
            rate((t.bid, t.made)),
            f64::from(t.honours) / n,
            100.0 * f64::from(t.spade_honour) / n,
            rate(t.no_spade_honour),
            rate(t.close),
            rate(t.far),
        );
    }
}

/// Adds the nils of one partnership game to `tallies`, keyed by the kind
/// of bot bidding, the kind defending and the kind of nil.
fn tally(game: &RecordedGame, tallies: &mut Tallies) {
    let kind = |s: Seat| {
        let name = &game.header.names[s.index()];
        name.split(' ').next().unwrap_or(name).to_string()
    };
    let mut scores = [0i32; 2];
    let mut hands: Vec<CardSet> = Vec::new();
    let mut bids: Vec<Option<Bid>> = vec![None; 4];
    for (_, event) in &game.events {
        match event {
            Event::Deal { hands: dealt, .. } => {
                hands = dealt.clone();
                bids = vec![None; 4];
            }
            Event::Bid { seat, bid, .. } => bids[seat.index()] = Some(*bid),
            Event::Exchange {
                from, to, cards, ..
            } => {
                hands[from.index()] = hands[from.index()].minus(*cards);
                hands[to.index()] = hands[to.index()].union(*cards);
            }
            Event::Score { tricks, sides, .. } => {
                for seat in MODE.each_seat() {
                    let name = match bids[seat.index()] {
                        Some(Bid::Nil) => "plain",
                        Some(Bid::BlindNil) => "blind",
                        _ => continue,
                    };
                    let side = MODE.side_of(seat).index();
                    let defender = MODE.next(seat);
                    let key = (kind(seat), kind(defender), name);
                    let t = tallies.entry(key).or_default();
                    let made = tricks[seat.index()] == 0;
                    let hand = hands[seat.index()];
                    t.bid += 1;
                    t.made += u32::from(made);
                    t.honours += hand.iter().filter(|c| c.rank() >= Rank::QUEEN).count() as u32;
                    let spade_honour = hand
                        .suit(Suit::Spades)
                        .iter()
                        .any(|c| c.rank() >= Rank::JACK);
                    t.spade_honour += u32::from(spade_honour);
                    if !spade_honour {
                        t.no_spade_honour.0 += 1;
                        t.no_spade_honour.1 += u32::from(made);
                    }
                    let band = if scores[1 - side] - scores[side] >= 100 {
                        &mut t.far
                    } else {
                        &mut t.close
                    };
                    band.0 += 1;
                    band.1 += u32::from(made);
                }
                for (score, side) in scores.iter_mut().zip(sides) {
                    *score = side.score;
                }
            }
            _ => {}
        }
    }
}
