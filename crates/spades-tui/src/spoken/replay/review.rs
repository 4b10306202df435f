//! The review in lines: the analysis's verdicts on one seat's decisions,
//! in its own figures, hand by hand.

use crate::analysis::{Class, GameReview, Verdict};

use super::super::super::replay::told::{action_text, decision_when, possessive};
use super::super::{Speech, words};
use super::hand::Voices;

/// "an inaccuracy", "a mistake", "a blunder".
fn with_article(class: Class) -> String {
    match class {
        Class::Inaccuracy => "an inaccuracy".into(),
        class => format!("a {}", class.name()),
    }
}

/// A choice as the lines say it: "the four of spades", "bid 2".
fn choice(action: crate::engine::Action, speech: &Speech) -> String {
    action_text(
        action,
        |c| words::card(c, speech),
        |set| words::cards(set, speech),
    )
}

/// One judged decision: "Hand 4, bidding: you chose look at the cards, a
/// blunder; bid blind nil wins 39.8% against 24.1%." `None` for a
/// decision the analysis did not class as bad.
pub fn verdict_line(verdict: &Verdict, who: &str, speech: &Speech) -> Option<String> {
    let class = verdict.class?;
    Some(format!(
        "{}: {who} chose {}, {}; {} wins {:.1}% against {:.1}%.",
        decision_when(verdict),
        choice(verdict.chosen, speech),
        with_article(class),
        choice(verdict.best, speech),
        verdict.win_best * 100.0,
        verdict.win_chosen * 100.0,
    ))
}

/// The verdicts of hand `hand` (its number in the game), a line each; or
/// one line saying none of the seat's decisions was bad.
pub fn hand_lines(review: &GameReview, hand: u32, voices: &Voices, speech: &Speech) -> Vec<String> {
    let who = voices.within(review.seat);
    let of_hand: Vec<&Verdict> = review
        .decisions
        .iter()
        .filter(|d| u32::from(d.hand) == hand)
        .collect();
    let lines: Vec<String> = of_hand
        .iter()
        .filter_map(|d| verdict_line(d, who, speech))
        .collect();
    if !lines.is_empty() {
        return lines;
    }
    let judged = of_hand.iter().filter(|d| d.not_judged.is_none()).count();
    let whose = possessive(voices.seat(review.seat));
    vec![format!(
        "Hand {hand}: no inaccuracy, mistake or blunder in {whose} {}.",
        words::count(judged, "judged decision")
    )]
}

/// The review in one line: "Review of your 53 decisions: 2 inaccuracies,
/// 0 mistakes, 0 blunders; accuracy 44%."
pub fn summary(review: &GameReview, voices: &Voices) -> String {
    let whose = possessive(voices.seat(review.seat));
    let counts = review.counts();
    let counted: Vec<String> = Class::ALL
        .iter()
        .map(|&c| c.counted(counts.get(&c).copied().unwrap_or(0)))
        .collect();
    let accuracy = review
        .accuracy()
        .map_or(String::new(), |a| format!("; accuracy {a:.0}%"));
    format!(
        "Review of {whose} {}: {}{accuracy}.",
        words::count(review.decisions.len(), "decision"),
        counted.join(", ")
    )
}
