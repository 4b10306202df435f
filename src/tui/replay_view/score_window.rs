//! The window at a hand's end: each side's score worked out, when its
//! contract was made or set, the card out of play, and after the last
//! hand who won the game.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use crate::engine::Side;
use crate::review::Reached;

use super::super::layout;
use super::super::summary::hand_summary;
use super::super::widgets::{framed, padded};
use super::{Scene, members, side_title};

pub(super) fn draw(scene: &Scene, area: Rect, buf: &mut Buffer) {
    let theme = scene.theme;
    let hand = scene.hand;
    let Some(result) = &hand.result else {
        return;
    };
    let story = scene.story;
    let sides = hand_summary(result, &hand.before, &story.rules, &scene.names, theme);
    let mut lines: Vec<Line> = Vec::new();
    for (i, summary) in sides.iter().enumerate() {
        let Some(side) = Side::from_index(i) else {
            continue;
        };
        lines.push(Line::styled(side_title(scene, side), theme.accent()));
        for l in &summary.lines {
            lines.push(Line::from(format!("  {l}")));
        }
        let marks: Vec<String> = hand
            .marks
            .iter()
            .filter(|m| m.side == side)
            .map(|m| match m.what {
                Reached::Made { .. } => format!("contract made at trick {}", m.trick),
                Reached::Set { .. } => format!("contract set at trick {}", m.trick),
                Reached::NilBroken { seat } => {
                    format!(
                        "{}'s nil broken at trick {}",
                        scene.names.seat(seat),
                        m.trick
                    )
                }
            })
            .collect();
        if !marks.is_empty() {
            let text = marks.join(theme.sep());
            let mut chars = text.chars();
            let text: String = chars
                .next()
                .map(|c| c.to_uppercase().chain(chars).collect())
                .unwrap_or_default();
            lines.push(Line::styled(format!("  {text}"), theme.dim()));
        }
    }
    if let Some(out) = hand.out.lowest() {
        lines.push(Line::from(format!("Card out of play: {}", theme.card(out))));
    }
    let last_hand = scene.step.hand + 1 == story.hands.len();
    if let (true, Some((winner, scores))) = (last_hand, &story.end) {
        let who = members(scene, *winner);
        let plural = who.len() > 1 || who == ["You"];
        let scores: Vec<String> = scores.iter().map(|&s| theme.number(s)).collect();
        lines.push(Line::styled(
            format!(
                "{} {} the game, {}.",
                who.join(" and "),
                if plural { "win" } else { "wins" },
                scores.join(" to ")
            ),
            theme.accent(),
        ));
    }
    let height = lines.len() as u16 + 2;
    let window = layout::window(area, 66, height);
    let inner = framed(&format!("Hand {} scored", hand.hand), window, buf, theme);
    Paragraph::new(lines).render(padded(inner), buf);
}
