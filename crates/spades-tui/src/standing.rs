//! How the hand being played stands, as the table and the replay both say
//! it: a side's bids and tricks, a seat's bid, whether spades may be led,
//! which exchange the bids call for. One wording and one count for both,
//! so a side playing with the dummy is counted the same live and in
//! replay.

use crate::engine::score::declared_contract;
use crate::engine::{Bid, PerSeat, Side, SpadesLead, Teams};

/// A bid in as few characters as the score bar has room for.
fn short_bid(bid: Bid) -> String {
    match bid {
        Bid::Tricks(n) => n.to_string(),
        Bid::Nil => "nil".to_string(),
        Bid::BlindNil => "b.nil".to_string(),
        Bid::Blind(n) => format!("b.{n}"),
    }
}

/// "bid 3+nil, took 4": the side's bids, seat by seat ("-" for a seat yet
/// to bid, one "-" before anyone on the side has), and the tricks that
/// count for it (the dummy's for its declarer). With a dummy, once the
/// declarer is known, a defender's is the defenders' contract on both
/// defenders' tricks, "contract 4, took 2": its own bid no longer counts.
pub fn bid_and_took(
    teams: Teams,
    side: Side,
    bids: &PerSeat<Option<Bid>>,
    won: &PerSeat<u8>,
    sep: &str,
) -> String {
    if let Some(c) = declared_contract(teams, side, bids, won) {
        let declares = teams.declarer().map(|d| teams.mode().side_of(d)) == Some(side);
        let what = if declares { "bid" } else { "contract" };
        return format!("{what} {}{sep}took {}", c.bid, c.taken);
    }
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

/// "bid 3", or "bid -" for a seat yet to bid.
pub fn seat_bid(bid: Option<Bid>) -> String {
    format!("bid {}", bid.map_or("-".to_string(), |b| b.to_string()))
}

/// Whether spades may be led yet: broken, led at any time by the rules,
/// or not yet broken.
pub fn spades_state(broken: bool, lead: SpadesLead) -> &'static str {
    if broken {
        "spades broken"
    } else if lead == SpadesLead::AnyTime {
        "spades lead any time"
    } else {
        "spades not broken"
    }
}

/// Is a blind nil behind the hand's exchange (rather than only the nil
/// pass)?
pub fn blind_exchange(bids: &PerSeat<Option<Bid>>) -> bool {
    bids.iter().any(|&b| b == Some(Bid::BlindNil))
}

/// The exchange the bids call for.
pub fn exchange_name(bids: &PerSeat<Option<Bid>>) -> &'static str {
    if blind_exchange(bids) {
        "blind nil exchange"
    } else {
        "nil pass"
    }
}
