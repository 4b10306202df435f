//! A side's bids and tricks in the hand being played, as the table's score
//! bar and the replay's both show them: one count for both, so a side
//! playing with the dummy is counted the same live and in replay.

use crate::engine::{Bid, PerSeat, Side, Teams};

/// A bid in as few characters as the score bar has room for.
pub fn short_bid(bid: Bid) -> String {
    match bid {
        Bid::Tricks(n) => n.to_string(),
        Bid::Nil => "nil".to_string(),
        Bid::BlindNil => "b.nil".to_string(),
        Bid::Blind(n) => format!("b.{n}"),
    }
}

/// "bid 3+nil, took 4": the side's bids, seat by seat ("-" for a seat yet
/// to bid, one "-" before anyone on the side has), and the tricks that
/// count for it (the dummy's for its declarer).
pub fn bid_and_took(
    teams: Teams,
    side: Side,
    bids: &PerSeat<Option<Bid>>,
    won: &PerSeat<u8>,
    sep: &str,
) -> String {
    let seats: Vec<_> = teams.mode().side_seats(side).collect();
    let bid = if seats.iter().all(|&s| bids[s].is_none()) {
        "-".to_string()
    } else {
        seats
            .iter()
            .map(|&s| bids[s].map_or("-".to_string(), short_bid))
            .collect::<Vec<_>>()
            .join("+")
    };
    format!("bid {bid}{sep}took {}", teams.side_tricks(side, won))
}
