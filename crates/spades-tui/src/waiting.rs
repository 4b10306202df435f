//! Waiting for a quick match: the mode, who waits (as the server last
//! said), the time left before bots fill the seats no player took,
//! counted down from what the server said, and the keys.

use std::time::Instant;

use ratatui::text::{Line, Span};

use crate::net::client::seating::InQueue;

use super::text::wrap;
use super::theme::Theme;

/// The key that leaves the queue, as the key bar says it.
pub const LEAVE_KEYS: &str = "Esc  back to the lobby";

/// The window's title: the mode waited for.
pub fn title(queue: &InQueue, theme: &Theme) -> String {
    format!("Quick match{}{}", theme.sep(), queue.mode)
}

/// The waiting screen's lines at `now`, `width` columns wide.
pub fn lines(queue: &InQueue, now: Instant, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let label = |text: &str| Span::styled(format!("{text:<8} "), theme.accent());
    let mut lines = vec![
        Line::from(format!(
            "Waiting for {} players near your rating.",
            queue.mode
        )),
        Line::from(""),
    ];
    let who = wrap(&[who_waits(queue)], width.saturating_sub(9).max(20));
    for (i, part) in who.into_iter().enumerate() {
        let head = if i == 0 {
            label("Waiting")
        } else {
            Span::raw(" ".repeat(9))
        };
        lines.push(Line::from(vec![head, Span::raw(part)]));
    }
    lines.push(Line::from(vec![
        label("Bots"),
        Span::raw(bots_fill(queue, now)),
    ]));
    lines.push(Line::from(""));
    lines.push(Line::styled(LEAVE_KEYS, theme.dim()));
    lines
}

/// How many wait and the first of them by name: "2, you included: Ann,
/// Bob"; "10, you included: Ann, Bob, ... and 2 more".
pub(super) fn who_waits(queue: &InQueue) -> String {
    let count = queue.waiting.max(1);
    let mut said = format!("{count}, you included");
    if queue.names.is_empty() {
        return said;
    }
    said.push_str(": ");
    said.push_str(&queue.names.join(", "));
    let more = usize::try_from(count)
        .unwrap_or(usize::MAX)
        .saturating_sub(queue.names.len());
    if more > 0 {
        said.push_str(&format!(" and {more} more"));
    }
    said
}

/// When bots fill the seats left: counted down to the second.
fn bots_fill(queue: &InQueue, now: Instant) -> String {
    match queue.seconds_left(now) {
        None => "take the seats left once your wait is over".to_string(),
        Some(0) => "take the seats left now".to_string(),
        Some(left) => format!(
            "take the seats left in {}:{:02}, at the latest",
            left / 60,
            left % 60
        ),
    }
}
