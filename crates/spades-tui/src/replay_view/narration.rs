//! What just happened, in words, under the replay's table: the hand and
//! the trick in the title, then a line on the step and a line on what it
//! decided or who is next.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders, Widget};

use crate::engine::{Bid, Card, Seat};
use crate::story::{Mark, StepEvent};

use super::super::hand::faces;
use super::super::replay::told::{mark_sentence as told_mark, subject};
use super::super::standing::{blind_exchange, exchange_name, spades_state};
use super::{Scene, members, review_panel};

pub(super) fn draw(scene: &Scene, area: Rect, buf: &mut Buffer) {
    let theme = scene.theme;
    let step = scene.step;
    let hand = scene.hand;
    let sep = theme.sep();
    let title = match step.event {
        StepEvent::Dealt => format!(" Hand {}{sep}the deal ", hand.hand),
        StepEvent::Bid { .. } => format!(" Hand {}{sep}bidding ", hand.hand),
        StepEvent::Exchange => {
            format!(" Hand {}{sep}{} ", hand.hand, exchange_name(&step.bids))
        }
        StepEvent::Play { completes, .. } => {
            let total = scene.story.mode().hand_size();
            let trick = completes.unwrap_or(step.tricks_done + 1).min(total);
            let broken = spades_state(step.spades_broken, scene.story.rules.play.spades_lead);
            format!(
                " Hand {}{sep}trick {trick} of {total}{sep}{broken} ",
                hand.hand
            )
        }
        StepEvent::Scored => String::new(),
    };
    let block = Block::new()
        .borders(Borders::TOP)
        .border_set(theme.border())
        .border_style(theme.edge())
        .title(Span::styled(title, theme.accent()));
    let inner = block.inner(area);
    block.render(area, buf);
    let (first, mut second) = what_happened(scene);
    // A judged decision's mark and the better choice, once analysed.
    if let Some(line) = scene
        .judged
        .and_then(|v| review_panel::verdict_line(v, theme))
    {
        second = line;
    }
    let x = inner.x + 1;
    let width = inner.width.saturating_sub(2) as usize;
    buf.set_stringn(x, inner.y, first, width, Style::new());
    if inner.height > 1 {
        buf.set_stringn(x, inner.y + 1, second, width, theme.dim());
    }
}

/// Two lines on the step: what happened, and what it decided.
fn what_happened(scene: &Scene) -> (String, String) {
    let ends = if scene.last && scene.hand.result.is_none() {
        "The record ends here."
    } else {
        ""
    };
    let (first, second) = match scene.step.event {
        StepEvent::Dealt => dealt(scene),
        StepEvent::Bid { seat, bid } => bid_made(scene, seat, bid),
        StepEvent::Exchange => exchanged(scene),
        StepEvent::Play {
            seat,
            card,
            completes: Some(k),
        } => trick_taken(scene, seat, card, k),
        StepEvent::Play {
            seat,
            card,
            completes: None,
        } => (card_played(scene, seat, card), String::new()),
        StepEvent::Scored => (String::new(), String::new()),
    };
    if second.is_empty() && !ends.is_empty() {
        return (first, ends.to_string());
    }
    (first, second)
}

/// "North bids next.": who is to act after the step, if anyone.
fn next(scene: &Scene, third: &str, you: &str) -> String {
    scene.step.next.map_or(String::new(), |s| {
        format!("{}.", subject(scene.names.seat(s), third, you))
    })
}

/// The dealer; then who bids first, or which pairs passed cards the
/// record does not show.
fn dealt(scene: &Scene) -> (String, String) {
    let names = &scene.names;
    let hand = scene.hand;
    let dealer = names.seat(hand.dealer);
    let first = format!(
        "{} {}. Every hand is face up.",
        dealer,
        if dealer == "You" { "deal" } else { "deals" }
    );
    let hidden: Vec<String> = hand
        .passes
        .iter()
        .filter(|p| p.cards.is_none() && p.from < p.to)
        .map(|p| format!("{} and {}", names.seat(p.from), names.seat(p.to)))
        .collect();
    let second = match hidden.first() {
        Some(pair) => {
            format!("{pair} passed cards you did not see: their hands are shown as played.")
        }
        None => next(scene, "bids first", "bid first"),
    };
    (first, second)
}

/// The bid; then the exchange the bids call for, who leads, or who bids
/// next.
fn bid_made(scene: &Scene, seat: Seat, bid: Bid) -> (String, String) {
    let step = scene.step;
    let first = format!("{} {bid}.", subject(scene.names.seat(seat), "bids", "bid"));
    let second = match step.next {
        _ if !scene.hand.passes.is_empty() && step.bids.iter().all(Option::is_some) => {
            exchange_ahead(scene)
        }
        Some(s) if step.bids[s].is_some() => next(scene, "leads", "lead"),
        Some(_) => next(scene, "bids next", "bid next"),
        None => String::new(),
    };
    (first, second)
}

/// Once the bids are in: who exchanges with whom, and how many cards.
fn exchange_ahead(scene: &Scene) -> String {
    let names = &scene.names;
    let step = scene.step;
    let rules = &scene.story.rules;
    let bid = |s: Seat| step.bids[s].unwrap_or(Bid::Nil);
    let pairs: Vec<(String, u8)> = scene
        .hand
        .passes
        .iter()
        .filter(|p| p.from < p.to)
        .map(|p| {
            let names = format!("{} and {}", names.seat(p.from), names.seat(p.to));
            (names, rules.swap_size(bid(p.from), bid(p.to)))
        })
        .collect();
    let after = if blind_exchange(&step.bids) {
        "After the blind nil"
    } else {
        "After the nil"
    };
    let count = pairs.first().map_or(0, |p| p.1);
    if pairs.iter().all(|p| p.1 == count) {
        let names: Vec<&str> = pairs.iter().map(|p| p.0.as_str()).collect();
        format!("{after}, {} exchange {count} cards.", names.join("; "))
    } else {
        let each: Vec<String> = pairs
            .iter()
            .map(|(names, n)| format!("{names} exchange {n} cards"))
            .collect();
        format!("After the bids, {}.", each.join("; "))
    }
}

/// The cards each seat passed (or that it passed unseen); then who leads.
fn exchanged(scene: &Scene) -> (String, String) {
    let names = &scene.names;
    let passes: Vec<String> = scene
        .hand
        .passes
        .iter()
        .map(|p| {
            let from = names.seat(p.from);
            let to = names.seat(p.to);
            match p.cards {
                Some(cards) => format!(
                    "{} {} to {to}",
                    subject(from, "passes", "pass"),
                    faces(cards, scene.theme)
                ),
                None => format!("{} cards to {to} unseen", subject(from, "passes", "pass")),
            }
        })
        .collect();
    (
        format!("{}.", passes.join("; ")),
        next(scene, "leads", "lead"),
    )
}

/// The card that completed trick `k` and who took it; then what the trick
/// decided (a contract made or set, a nil broken).
fn trick_taken(scene: &Scene, seat: Seat, card: Card, k: usize) -> (String, String) {
    let names = &scene.names;
    let theme = scene.theme;
    let step = scene.step;
    let name = names.seat(seat);
    let winner = step.winning.unwrap_or(seat);
    let played = format!(
        "{} the {}",
        subject(name, "plays", "play"),
        theme.card(card)
    );
    let first = if winner == seat {
        let takes = if name == "You" { "take" } else { "takes" };
        format!("{played} and {takes} trick {k}.")
    } else {
        let with = step.table[winner].map(|c| theme.card(c));
        format!(
            "{played}: {} trick {k} with the {}.",
            names.takes(winner),
            with.unwrap_or_default()
        )
    };
    let marks: Vec<String> = scene
        .hand
        .marks
        .iter()
        .filter(|m| m.trick == k)
        .map(|m| mark_sentence(scene, m))
        .collect();
    (first, marks.join(" "))
}

/// A card led, or played to a trick not yet complete, and who is winning
/// it.
fn card_played(scene: &Scene, seat: Seat, card: Card) -> String {
    let names = &scene.names;
    let theme = scene.theme;
    let step = scene.step;
    let name = names.seat(seat);
    let leads = step.table.iter().flatten().count() == 1;
    if leads {
        format!(
            "{} the {}.",
            subject(name, "leads", "lead"),
            theme.card(card)
        )
    } else if step.winning == Some(seat) {
        format!(
            "{} the {}, the best card so far.",
            subject(name, "plays", "play"),
            theme.card(card)
        )
    } else {
        let winning = step.winning.map_or("", |w| names.seat(w));
        format!(
            "{} the {}; {} winning.",
            subject(name, "plays", "play"),
            theme.card(card),
            subject(winning, "is", "are")
        )
    }
}

/// What a mark decided, in a sentence.
fn mark_sentence(scene: &Scene, mark: &Mark) -> String {
    told_mark(mark, &members(scene, mark.side), |s| scene.names.seat(s))
}
