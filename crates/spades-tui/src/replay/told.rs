//! A story's events in words, shared by the replay drawn on the full
//! screen (`replay_view`) and the replay read aloud in lines
//! (`spoken::replay`), so the two say a thing the same way.

use crate::analysis::Verdict;
use crate::engine::{Action, Card, CardSet, Decision, Seat};
use crate::story::{Mark, Reached};

/// "East plays", "You play": a seat's name with its verb.
pub fn subject(name: &str, one: &str, you: &str) -> String {
    if name == "You" {
        format!("You {you}")
    } else {
        format!("{name} {one}")
    }
}

/// What a mark decided, in a sentence: `members` names the side's
/// players, `name` any seat.
pub fn mark_sentence<'a>(mark: &Mark, members: &[&str], name: impl Fn(Seat) -> &'a str) -> String {
    let plural = members.len() > 1 || members == ["You"];
    let who = members.join(" and ");
    match mark.what {
        Reached::Made { bid } => {
            format!("{who} {} made {bid}.", if plural { "have" } else { "has" })
        }
        Reached::Set { bid, taken, left } => format!(
            "{who} {} set: {taken} of {bid}, {}.",
            if plural { "are" } else { "is" },
            match left {
                0 => "no trick left".to_string(),
                1 => "1 trick left".to_string(),
                n => format!("{n} tricks left"),
            }
        ),
        Reached::NilBroken { seat } => match name(seat) {
            "You" => "Your nil is broken.".to_string(),
            name => format!("{name}'s nil is broken."),
        },
    }
}

/// A choice in a few words: "the K♠", "bid 3", "pass 2♠ 3♥", "look at
/// the cards", with a card and cards named by `card` and `cards`.
pub fn action_text(
    action: Action,
    card: impl Fn(Card) -> String,
    cards: impl Fn(CardSet) -> String,
) -> String {
    match action {
        Action::Play(c) => format!("the {}", card(c)),
        Action::Bid(bid) => format!("bid {bid}"),
        Action::Exchange(set) => format!("pass {}", cards(set)),
        Action::Look => "look at the cards".into(),
    }
}

/// When a decision was made: "Hand 2, trick 5", "Hand 2, bidding".
pub fn decision_when(verdict: &Verdict) -> String {
    let hand = verdict.hand;
    match (verdict.decision, verdict.trick) {
        (Decision::Play, Some(trick)) => format!("Hand {hand}, trick {trick}"),
        (Decision::Play, None) => format!("Hand {hand}, play"),
        (Decision::Exchange, _) => format!("Hand {hand}, exchange"),
        (Decision::Bid | Decision::BlindNil, _) => format!("Hand {hand}, bidding"),
    }
}

/// "your" for the player, "North's" for another.
pub fn possessive(name: &str) -> String {
    if name == "You" {
        "your".into()
    } else {
        format!("{name}'s")
    }
}
