//! The bars over the replay: what is replayed and where in it, and each
//! side's score, bags, bids and tricks, with what the hand has decided
//! for it so far.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::engine::Side;
use crate::engine::score::side_contract;
use crate::story::{Mark, Reached};

use super::super::replay::Source;
use super::super::standing::bid_and_took;
use super::{Scene, side_title};

pub(super) fn title_bar(scene: &Scene, source: &Source, area: Rect, buf: &mut Buffer) {
    let theme = scene.theme;
    let sep = theme.sep();
    buf.set_style(area, theme.bar());
    let dealer = scene.names.seat(scene.hand.dealer);
    let text = match source {
        Source::Record { name, game, games } => {
            let rest = format!(
                "{sep}game {game} of {games}{sep}hand {} of {}{sep}dealer {dealer}",
                scene.hand.hand,
                scene.story.hands.len()
            );
            // The file's name gives way, never where the replay stands.
            let head = " REPLAY  ";
            let room = usize::from(area.width).saturating_sub(head.len() + rest.chars().count());
            let ellipsis = if theme.ascii { "..." } else { "…" };
            format!("{head}{}{rest}", shortened(name, room, ellipsis))
        }
        Source::HandReview => format!(
            " REVIEW  Hand {}{sep}dealer {dealer}{sep}every hand face up",
            scene.hand.hand
        ),
        Source::GameJustPlayed => format!(
            " REPLAY  The game just played{sep}hand {} of {}{sep}dealer {dealer}",
            scene.hand.hand,
            scene.story.hands.len()
        ),
    };
    let target = format!("Game to {} ", scene.story.rules.target_score);
    buf.set_stringn(area.x, area.y, &text, area.width as usize, theme.bar());
    let x = area.right().saturating_sub(target.len() as u16);
    if x > area.x + text.chars().count() as u16 + 1 {
        buf.set_string(x, area.y, target, theme.bar());
    }
}

/// `name` in at most `room` characters (and never fewer than a few): its
/// start and its end, which tell records apart, around `ellipsis`.
fn shortened(name: &str, room: usize, ellipsis: &str) -> String {
    const FEWEST: usize = 12;
    let chars: Vec<char> = name.chars().collect();
    let room = room.max(FEWEST);
    if chars.len() <= room {
        return name.to_string();
    }
    let kept = room - ellipsis.chars().count();
    let end = kept / 2;
    let start: String = chars[..kept - end].iter().collect();
    let tail: String = chars[chars.len() - end..].iter().collect();
    format!("{start}{ellipsis}{tail}")
}

pub(super) fn score_bar(scene: &Scene, area: Rect, buf: &mut Buffer) {
    let theme = scene.theme;
    let mode = scene.story.mode();
    let step = scene.step;
    let sep = theme.sep();
    let limit = scene.story.rules.bags.limit;
    let width = area.width / mode.sides() as u16;
    let marks = scene.story.marks_by(scene.at);
    for side in mode.each_side() {
        let col = Rect::new(
            area.x + side.index() as u16 * width + 1,
            area.y,
            width.saturating_sub(2),
            area.height,
        );
        let totals = step.totals[side];
        let head = Line::from(vec![
            Span::styled(side_title(scene, side), theme.accent()),
            Span::raw("  "),
            Span::styled(
                theme.number(totals.score),
                Style::new().add_modifier(Modifier::BOLD),
            ),
            Span::styled(format!("{sep}bags {}/{limit}", totals.bags), theme.dim()),
        ]);
        let play = Line::from(bid_and_took(
            scene.hand.teams,
            side,
            &step.bids,
            &step.tricks_won,
            sep,
        ));
        let status = side_status(scene, side, &marks);
        for (i, line) in [head, play, status].iter().enumerate() {
            buf.set_line(col.x, col.y + i as u16, line, col.width);
        }
    }
}

/// What the hand has decided for the side so far (made, set, a nil
/// broken, each at its trick), else how many tricks its contract still
/// needs.
fn side_status(scene: &Scene, side: Side, marks: &[Mark]) -> Line<'static> {
    let theme = scene.theme;
    let step = scene.step;
    let sep = theme.sep();
    let mut status: Vec<Span> = Vec::new();
    for mark in marks.iter().filter(|m| m.side == side) {
        if !status.is_empty() {
            status.push(Span::raw(sep));
        }
        let (text, style) = match mark.what {
            Reached::Made { .. } => (format!("made (trick {})", mark.trick), theme.accent()),
            Reached::Set { .. } => (format!("set (trick {})", mark.trick), theme.error()),
            Reached::NilBroken { .. } => {
                (format!("nil broken (trick {})", mark.trick), theme.error())
            }
        };
        status.push(Span::styled(text, style));
    }
    let decided = marks
        .iter()
        .any(|m| m.side == side && !matches!(m.what, Reached::NilBroken { .. }));
    let contract = side_contract(
        &scene.story.rules,
        scene.hand.teams,
        side,
        &step.bids,
        &step.tricks_won,
    );
    let bidding_done = step.bids.iter().all(Option::is_some);
    if let Some(c) = contract.filter(|_| !decided && bidding_done) {
        if !status.is_empty() {
            status.push(Span::raw(sep));
        }
        status.push(Span::styled(
            format!("needs {} more", c.need()),
            theme.dim(),
        ));
    }
    Line::from(status)
}

#[cfg(test)]
mod tests {
    use super::shortened;

    #[test]
    fn a_long_name_keeps_its_start_and_end() {
        let name = "game-1764552000-K7QXM2PD4T9RWA3B-2.jsonl";
        assert_eq!(shortened(name, 60, "…"), name);
        let short = shortened(name, 20, "…");
        assert_eq!(short, "game-17645…B-2.jsonl");
        assert_eq!(shortened(name, 20, "...").chars().count(), 20);
        assert_eq!(shortened(name, 0, "...").chars().count(), 12);
    }
}
