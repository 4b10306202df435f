//! The analysis's panel over the viewer: the counts of inaccuracies,
//! mistakes and blunders and the accuracy, a chart of the side's chance of
//! winning hand by hand, each hand's points lost by category with what
//! the deal held with every card seen (apart from the verdicts), and the
//! decisions judged, one chosen. Also the words for a verdict that the
//! line under the table uses.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::symbols::bar;
use ratatui::text::Line;
use ratatui::widgets::{Sparkline, Widget};

use crate::analysis::{Class, HandReview, Verdict};
use crate::engine::Action;

use super::super::hand::faces;
use super::super::replay::analysis::Reviewed;
use super::super::replay::told::{self, possessive};
use super::super::text::sentence_case;
use super::super::theme::Theme;
use super::super::widgets::{framed, padded};
use super::Scene;

/// The chart's bars in plain characters.
const ASCII_BARS: bar::Set = bar::Set {
    full: "#",
    seven_eighths: "#",
    three_quarters: "#",
    five_eighths: "=",
    half: "=",
    three_eighths: "=",
    one_quarter: "_",
    one_eighth: "_",
    empty: " ",
};

/// The chart's rows, its labels apart.
const CHART_ROWS: u16 = 4;

/// The chess mark of a class.
pub(super) fn mark(class: Class) -> &'static str {
    match class {
        Class::Inaccuracy => "?!",
        Class::Mistake => "?",
        Class::Blunder => "??",
    }
}

/// A choice in a few words: "the K♠", "bid 3", "pass 2♠ 3♥", "look".
pub(super) fn action_text(action: Action, theme: &Theme) -> String {
    told::action_text(action, |c| theme.card(c), |set| faces(set, theme))
}

/// A chance as whole points of percent.
fn percent(chance: f64) -> String {
    format!("{:.0}%", chance * 100.0)
}

/// What a choice lost, win chance and the hand's points: "−24% win
/// chance, −12 points" under the table, "−24% −12 pts" in a row.
fn losses(verdict: &Verdict, theme: &Theme, short: bool) -> String {
    let minus = theme.minus();
    let (chance, points) = if short {
        ("", "pts")
    } else {
        (" win chance,", "points")
    };
    format!(
        "{minus}{:.0}%{chance} {minus}{:.0} {points}",
        verdict.lost() * 100.0,
        verdict.points_lost()
    )
}

/// The line under the table at a judged decision: its mark, the better
/// choice and what the chosen one lost against it.
pub(super) fn verdict_line(verdict: &Verdict, theme: &Theme) -> Option<String> {
    let class = verdict.class?;
    Some(format!(
        "{} A {}: {} was better ({}).",
        mark(class),
        class.name(),
        action_text(verdict.best, theme),
        losses(verdict, theme, false),
    ))
}

pub(super) fn draw(scene: &Scene, reviewed: &Reviewed, area: Rect, buf: &mut Buffer) {
    let theme = scene.theme;
    let review = &reviewed.review;
    let whose = possessive(scene.names.seat(review.seat));
    let title = format!("Review of {whose} {} decisions", review.decisions.len());
    let inner = padded(framed(&title, area, buf, theme));
    let mut y = inner.y;
    let row = |y: u16| Rect::new(inner.x, y, inner.width, 1);
    Line::from(summary(reviewed, theme)).render(row(y), buf);
    y += 1;
    let chart = format!(
        "{} side's chance of winning the game after each hand",
        sentence_case(&whose)
    );
    buf.set_stringn(inner.x, y, chart, inner.width.into(), theme.dim());
    y += 1;
    let chart_area = Rect::new(inner.x, y, inner.width, CHART_ROWS + 1);
    win_chart(&review.hands, chart_area, buf, theme);
    y += CHART_ROWS + 1;
    let left = inner.bottom().saturating_sub(y);
    // The hands and the decisions share what is left, a heading each.
    let hand_rows = (review.hands.len() as u16).min((left / 2).max(3).saturating_sub(1));
    let selected = reviewed.listed().nth(reviewed.selected()).map(|(v, _)| v);
    let hands_area = Rect::new(inner.x, y, inner.width, hand_rows + 1);
    hands_table(&review.hands, selected, hands_area, buf, theme);
    y += hand_rows + 1;
    let list_area = Rect::new(inner.x, y, inner.width, inner.bottom().saturating_sub(y));
    decisions(reviewed, list_area, buf, theme);
}

/// "Accuracy 87% · 2 inaccuracies ?! · 1 mistake ? · 1 blunder ??" (how
/// many decisions, in the title: this line is full at 80 columns). The
/// accuracy is the game's (`GameReview::accuracy`, by points lost and the
/// best found), not the one by win chance the classes go by.
fn summary(reviewed: &Reviewed, theme: &Theme) -> String {
    let review = &reviewed.review;
    let counts = review.counts();
    let mut parts = vec![match review.accuracy() {
        Some(a) => format!("Accuracy {a:.0}%"),
        None => "No decision to judge".into(),
    }];
    for class in Class::ALL {
        let n = counts.get(&class).copied().unwrap_or(0);
        parts.push(format!("{} {}", class.counted(n), mark(class)));
    }
    parts.join(theme.sep())
}

/// A bar per hand, as high as the side's chance of winning after it,
/// with the hands' numbers under the bars.
fn win_chart(hands: &[HandReview], area: Rect, buf: &mut Buffer, theme: &Theme) {
    const LABEL: u16 = 5;
    if hands.is_empty() || area.width <= LABEL {
        return;
    }
    let width = area.width - LABEL;
    let bar = (width / hands.len() as u16).clamp(1, 8);
    let mut data: Vec<u64> = Vec::new();
    for hand in hands {
        let value = (hand.win_after * 100.0).round().clamp(0.0, 100.0) as u64;
        data.extend(std::iter::repeat_n(value, usize::from(bar.max(2) - 1)));
        if bar > 1 {
            data.push(0);
        }
    }
    let set = if theme.ascii {
        ASCII_BARS
    } else {
        bar::NINE_LEVELS
    };
    let x = area.x + LABEL;
    let bars = Rect::new(x, area.y, width, CHART_ROWS);
    Sparkline::default()
        .data(data)
        .max(100)
        .bar_set(set)
        .style(theme.accent())
        .render(bars, buf);
    let dim = theme.dim();
    buf.set_string(area.x, area.y, "100%", dim);
    buf.set_string(area.x, area.y + CHART_ROWS - 1, "  0%", dim);
    let below = area.y + CHART_ROWS;
    for (i, hand) in hands.iter().enumerate() {
        let label = hand.hand.to_string();
        let at = x + i as u16 * bar;
        if bar as usize > label.len() && at + (label.len() as u16) <= area.right() {
            buf.set_string(at, below, label, dim);
        }
    }
}

/// A row per hand: its number, the chance of winning after it, the points
/// lost by category and, apart, what every card seen would have made.
fn hands_table(
    hands: &[HandReview],
    selected: Option<&Verdict>,
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
) {
    if area.height == 0 {
        return;
    }
    let seen_x = area.right().saturating_sub(24).max(area.x + 30);
    let width = |x: u16| area.right().saturating_sub(x) as usize;
    buf.set_stringn(
        area.x,
        area.y,
        "Hand   Win  Points lost",
        width(area.x),
        theme.dim(),
    );
    buf.set_stringn(
        seen_x,
        area.y,
        "With all cards seen",
        width(seen_x),
        theme.dim(),
    );
    let rows = usize::from(area.height - 1);
    let at = selected
        .and_then(|v| hands.iter().position(|h| h.hand == v.hand))
        .unwrap_or(0);
    let first = scroll(hands.len(), rows, at);
    for (i, hand) in hands.iter().enumerate().skip(first).take(rows) {
        let y = area.y + 1 + (i - first) as u16;
        let lost: Vec<String> = hand
            .points_lost
            .iter()
            .filter(|(_, p)| **p >= 0.5)
            .map(|(c, p)| format!("{} {p:.0}", c.name()))
            .collect();
        let lost = if lost.is_empty() {
            "-".to_string()
        } else {
            lost.join(", ")
        };
        let text = format!("{:>4}  {:>4}  {lost}", hand.hand, percent(hand.win_after));
        let style = if selected.is_some_and(|v| v.hand == hand.hand) {
            theme.accent()
        } else {
            Style::new()
        };
        buf.set_stringn(area.x, y, text, (seen_x - area.x - 1).into(), style);
        if let Some(seen) = hand.all_seen {
            buf.set_stringn(seen_x, y, seen.to_string(), width(seen_x), theme.dim());
        }
    }
}

/// The decisions with a class, the chosen one lit; scrolled to keep it in
/// sight.
fn decisions(reviewed: &Reviewed, area: Rect, buf: &mut Buffer, theme: &Theme) {
    if area.height == 0 {
        return;
    }
    let width = usize::from(area.width);
    let listed: Vec<&Verdict> = reviewed.listed().map(|(v, _)| v).collect();
    let heading = if listed.is_empty() {
        "No inaccuracy, mistake or blunder: every choice was close to the best."
    } else {
        "Decisions: Up/Down choose and go to it, Enter shows it, Esc closes"
    };
    buf.set_stringn(area.x, area.y, heading, width, theme.dim());
    let rows = usize::from(area.height - 1);
    let first = scroll(listed.len(), rows, reviewed.selected());
    for (i, verdict) in listed.iter().enumerate().skip(first).take(rows) {
        let y = area.y + 1 + (i - first) as u16;
        let chosen = i == reviewed.selected();
        let marker = if chosen { theme.turn_marker() } else { " " };
        let mut text = format!("{marker} {}", decision_text(verdict, theme));
        let lost = losses(verdict, theme, true);
        let pad = width.saturating_sub(text.chars().count() + lost.chars().count());
        text.push_str(&" ".repeat(pad.max(1)));
        text.push_str(&lost);
        let style = if chosen { theme.cursor() } else { Style::new() };
        buf.set_stringn(area.x, y, text, width, style);
    }
}

/// "?? Hand 2, trick 5: the K♠, best the 3♥"
fn decision_text(verdict: &Verdict, theme: &Theme) -> String {
    let mark = verdict.class.map_or("", mark);
    format!(
        "{mark:<2} {}: {}, best {}",
        told::decision_when(verdict),
        action_text(verdict.chosen, theme),
        action_text(verdict.best, theme)
    )
}

/// The first of `len` rows to show in `rows`, so that row `at` is in
/// sight.
fn scroll(len: usize, rows: usize, at: usize) -> usize {
    if len <= rows {
        return 0;
    }
    at.saturating_sub(rows / 2).min(len - rows)
}
