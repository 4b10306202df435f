//! A hint's two lines for the notice: the advised choice with its chance
//! of winning the game (the one figure choices are ranked by) and what it
//! comes to; then why, and the next choices with the same figure. Each
//! line fits the notice at 80 columns: the least telling parts give way.

use crate::bots::Effort;
use crate::bots::advice::Advice;
use crate::bots::hard::Weighed;
use crate::engine::{Action, Bid};

use super::theme::Theme;

/// The most characters a hint line takes: the notice's width at 80 columns.
pub const HINT_WIDTH: usize = 76;

/// Guessed deals for the first look: enough to rank the choices, few
/// enough to answer within about a third of a second on two busy cores.
pub const FIRST_LOOK_DEALS: u32 = 32;

/// The looks a hint takes, quick first: the last is the game's own effort.
pub fn looks(effort: Effort) -> Vec<Effort> {
    match effort {
        Effort::Deals(n) if n <= FIRST_LOOK_DEALS => vec![effort],
        _ => vec![Effort::Deals(FIRST_LOOK_DEALS), effort],
    }
}

/// The notice's two lines for `advice`. `changed` is true when a longer
/// look changed the advised choice since it was first shown.
pub fn hint_lines(advice: &Advice, changed: bool, theme: &Theme) -> [String; 2] {
    let head = if changed {
        "Hint, on a longer look:"
    } else {
        "Hint:"
    };
    let act = say(advice.weighing.chosen, theme);
    let reason = advice.reason.said(&|c| theme.card(c), HINT_WIDTH);
    let Some(top) = advice.top() else {
        return [format!("{head} {act}."), fit(reason, &[])];
    };
    // At the blind-nil offer both answers' figures are shown, whichever
    // is higher: the rule, not the higher figure alone, decides there.
    if let Some(other) = blind_nil_other(advice) {
        let tail = format!("; {} {}.", short(other.choice, theme), percent(other.win));
        let first = first_line(head, &act, top, explanation(top, Some(other)), &tail);
        return [first, reason];
    }
    let parts = explanation(top, advice.others().first());
    let first = first_line(head, &act, top, parts, ".");
    let others: Vec<String> = advice
        .others()
        .iter()
        .take(2)
        .map(|w| format!("{} {}", short(w.choice, theme), percent(w.win)))
        .collect();
    let mut second = fit(reason, &others);
    // Choices a hair better on average, that the deals could not tell from
    // the advised one, are not listed: the line says they exist.
    let unsure = " No other is surely better.";
    if advice.weighing.ranked.iter().any(|w| w.win > top.win)
        && width(&second) + width(unsure) <= HINT_WIDTH
    {
        second.push_str(unsure);
    }
    [first, second]
}

/// "Hint: bid 4: wins the game 61% (contract 88%, +42 pts)" and `tail`,
/// the least telling `parts` given up until it fits the notice.
fn first_line(
    head: &str,
    act: &str,
    top: &Weighed<Action>,
    mut parts: Vec<String>,
    tail: &str,
) -> String {
    loop {
        let line = if parts.is_empty() {
            format!("{head} {act}: wins the game {}{tail}", percent(top.win))
        } else {
            format!(
                "{head} {act}: wins the game {} ({}){tail}",
                percent(top.win),
                parts.join(", ")
            )
        };
        if width(&line) <= HINT_WIDTH || parts.is_empty() {
            return line;
        }
        parts.pop();
    }
}

/// At the blind-nil offer, the answer not advised (looking, or blind
/// nil), weighed.
fn blind_nil_other(advice: &Advice) -> Option<&Weighed<Action>> {
    let is_offer = advice
        .weighing
        .ranked
        .iter()
        .any(|w| w.choice == Action::Look);
    let chosen = advice.weighing.chosen;
    is_offer
        .then(|| advice.weighing.ranked.iter().find(|w| w.choice != chosen))
        .flatten()
}

/// The chance of winning, as shown: whole percent.
fn percent(p: f64) -> String {
    format!("{:.0}%", 100.0 * p)
}

/// What the advised choice comes to, most telling first: the nil, the
/// contract, a set, and the points; the bags when they tell it from the
/// next best.
fn explanation(top: &Weighed<Action>, next: Option<&Weighed<Action>>) -> Vec<String> {
    let mut parts = Vec::new();
    if let Some(p) = top.nil {
        parts.push(format!("nil holds {}", percent(p)));
    }
    if let Some(p) = top.contract {
        parts.push(format!("contract {}", percent(p)));
    }
    if let Some(p) = top.set.filter(|&p| p >= 0.05) {
        parts.push(format!("sets them {}", percent(p)));
    }
    if next.is_some_and(|n| (n.bags - top.bags).abs() >= 0.5) {
        parts.push(format!("{:.1} bags", top.bags));
    }
    parts.push(format!("{:+.0} pts", top.points));
    parts
}

/// The reason, then as many of the next choices as fit.
fn fit(reason: String, others: &[String]) -> String {
    for n in (1..=others.len()).rev() {
        let line = format!("{reason} Else {}.", others[..n].join(", "));
        if width(&line) <= HINT_WIDTH {
            return line;
        }
    }
    reason
}

fn width(line: &str) -> usize {
    line.chars().count()
}

/// The choice as advice.
fn say(action: Action, theme: &Theme) -> String {
    match action {
        Action::Play(card) => format!("play the {}", theme.card(card)),
        Action::Bid(Bid::Nil) => "bid nil".to_string(),
        Action::Bid(Bid::BlindNil) => "bid blind nil".to_string(),
        Action::Bid(bid @ Bid::Blind(_)) => format!("bid {bid}"),
        Action::Bid(bid) => format!("bid {}", bid.tricks()),
        Action::Look => "look at your cards".to_string(),
        Action::Exchange(cards) => format!(
            "pass {}",
            cards
                .iter()
                .map(|c| theme.card(c))
                .collect::<Vec<_>>()
                .join(" ")
        ),
    }
}

/// The choice named short, among the next best.
fn short(action: Action, theme: &Theme) -> String {
    match action {
        Action::Play(card) => theme.card(card),
        Action::Bid(Bid::Nil) => "nil".to_string(),
        Action::Bid(Bid::BlindNil) => "blind nil".to_string(),
        Action::Bid(bid @ Bid::Blind(_)) => bid.to_string(),
        Action::Bid(bid) => bid.tricks().to_string(),
        Action::Look => "looking".to_string(),
        Action::Exchange(cards) => cards
            .iter()
            .map(|c| theme.card(c))
            .collect::<Vec<_>>()
            .join(" "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::advice::{BlindNilWhy, Reason};
    use crate::bots::hard::Weighing;

    fn weighed(choice: Action, win: f64, points: f64) -> Weighed<Action> {
        Weighed {
            choice,
            win,
            points,
            bags: 0.0,
            tricks: 3.0,
            contract: None,
            nil: None,
            set: None,
        }
    }

    /// At the blind-nil offer both figures are shown, the advised one
    /// first even when the other is higher, and the reason says why; no
    /// list of others, no "No other is surely better".
    #[test]
    fn the_blind_nil_hint_shows_both_figures() {
        let blind = weighed(Action::Bid(Bid::BlindNil), 0.40, 61.0);
        let look = weighed(Action::Look, 0.25, 38.0);
        let advice = Advice {
            weighing: Weighing {
                chosen: Action::Look,
                ranked: vec![blind, look],
            },
            reason: Reason::BlindNil(BlindNilWhy::NotSure),
        };
        let [first, second] = hint_lines(&advice, false, &Theme::PLAIN);
        assert_eq!(
            first,
            "Hint: look at your cards: wins the game 25% (+38 pts); blind nil 40%."
        );
        assert_eq!(second, BlindNilWhy::NotSure.to_string());
        let advice = Advice {
            weighing: Weighing {
                chosen: Action::Bid(Bid::BlindNil),
                ranked: vec![blind, look],
            },
            reason: Reason::BlindNil(BlindNilWhy::SurelyMore { by: 212 }),
        };
        let [first, second] = hint_lines(&advice, true, &Theme::PLAIN);
        assert_eq!(
            first,
            "Hint, on a longer look: bid blind nil: wins the game 40%; looking 25%."
        );
        assert!(
            second.starts_with("You trail by 212: a blind nil"),
            "{second}"
        );
    }
}
