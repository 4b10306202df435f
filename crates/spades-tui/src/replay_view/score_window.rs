//! The window at a hand's end: each side's score worked out, when its
//! contract was made or set, the card out of play, and after the last
//! hand who won the game.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;

use crate::engine::Side;
use crate::story::Reached;

use super::super::scored;
use super::super::summary::hand_summary;
use super::super::text::sentence_case;
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
        lines.extend(scored::side_lines(
            side_title(scene, side),
            &summary.lines,
            theme,
        ));
        lines.extend(marks_line(scene, side));
    }
    if let Some(out) = hand.out.lowest() {
        lines.push(scored::out_of_play(out, theme));
    }
    lines.extend(game_won(scene));
    scored::window(hand.hand, lines, 0, area, buf, theme);
}

/// When the side's contract was made or set and a nil broken, if any was.
fn marks_line(scene: &Scene, side: Side) -> Option<Line<'static>> {
    let marks: Vec<String> = scene
        .hand
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
    if marks.is_empty() {
        return None;
    }
    let text = sentence_case(&marks.join(scene.theme.sep()));
    Some(Line::styled(format!("  {text}"), scene.theme.dim()))
}

/// After the game's last hand: who won it, and the final scores.
fn game_won(scene: &Scene) -> Option<Line<'static>> {
    let theme = scene.theme;
    let story = scene.story;
    let last_hand = scene.step.hand + 1 == story.hands.len();
    let (true, Some((winner, scores))) = (last_hand, &story.end) else {
        return None;
    };
    let who = members(scene, *winner);
    let plural = who.len() > 1 || who == ["You"];
    let scores: Vec<String> = scores.iter().map(|&s| theme.number(s)).collect();
    Some(Line::styled(
        format!(
            "{} {} the game, {}.",
            who.join(" and "),
            if plural { "win" } else { "wins" },
            scores.join(" to ")
        ),
        theme.accent(),
    ))
}
