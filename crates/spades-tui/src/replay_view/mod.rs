//! Draws the replay viewer from its `Story` and step: every hand face up
//! around the table, the bids, the exchange, the trick on the table, a
//! line on what just happened, and at each hand's end its score worked out
//! line by line (`summary::hand_summary`). Reads; changes nothing.

mod bars;
mod narration;
mod review_panel;
mod score_window;
mod table;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Clear, LineGauge, Paragraph, Widget};

use crate::analysis::Verdict;
use crate::engine::{CardSet, Seat, Side};
use crate::story::{HandStory, Step, StepEvent, Story};

use super::layout;
use super::replay::analysis::{Running, State};
use super::replay::{Source, Viewer};
use super::theme::Theme;
use super::widgets::{centered_line, framed, padded, too_small};
use crate::naming::Names;

/// Bigger than this, the viewer sits in the middle, as the table does.
const MAX_WIDTH: u16 = 110;
const MAX_HEIGHT: u16 = 32;

/// What every part of the drawing reads.
struct Scene<'a> {
    story: &'a Story,
    step: &'a Step,
    hand: &'a HandStory,
    names: Names,
    theme: &'a Theme,
    /// The index of the step on screen.
    at: usize,
    /// The last step of the story: a record may stop mid-hand.
    last: bool,
    /// The decision made at this step, when the analysis judged it bad.
    judged: Option<&'a Verdict>,
}

impl Scene<'_> {
    /// The cards passed to a seat, while they are worth pointing out: from
    /// the exchange until the first trick is over.
    fn received(&self, seat: Seat) -> CardSet {
        let after_exchange = self.story.steps[self.hand.first_step..=self.at]
            .iter()
            .any(|s| s.event == StepEvent::Exchange);
        if !after_exchange || self.step.tricks_done > 0 {
            return CardSet::EMPTY;
        }
        self.hand
            .passes
            .iter()
            .filter(|p| p.to == seat)
            .filter_map(|p| p.cards)
            .fold(CardSet::EMPTY, |all, c| all | c)
    }

    /// The trick the step completed, if it completed one.
    fn completed(&self) -> Option<usize> {
        match self.step.event {
            StepEvent::Play { completes, .. } => completes,
            _ => None,
        }
    }
}

/// Draws the viewer over the whole of `area`.
pub fn render(viewer: &Viewer, theme: &Theme, area: Rect, buf: &mut Buffer) {
    Clear.render(area, buf);
    buf.set_style(area, theme.base());
    if !layout::fits(area) {
        too_small(area, buf, theme, "q leaves");
        return;
    }
    let area = area.centered(Constraint::Max(MAX_WIDTH), Constraint::Max(MAX_HEIGHT));
    let story = viewer.story();
    let Some((step, hand)) = viewer.step().map(|s| (s, &story.hands[s.hand])) else {
        let y = area.y + area.height / 2;
        let line = Line::from("This game has no hand to show yet.  q leaves");
        centered_line(buf, area, y, line);
        return;
    };
    let scene = Scene {
        story,
        step,
        hand,
        names: Names::listed(story.mode(), &story.names),
        theme,
        at: viewer.at(),
        last: viewer.at() + 1 == story.steps.len(),
        judged: viewer
            .analysis()
            .reviewed()
            .and_then(|r| r.marked_at(viewer.at())),
    };
    let rows = |y: u16, height: u16| Rect::new(area.x, y, area.width, height);
    let bottom = area.bottom();
    bars::title_bar(&scene, viewer.source(), rows(area.y, 1), buf);
    bars::score_bar(&scene, rows(area.y + 1, 3), buf);
    let table_area = rows(area.y + 4, bottom - 4 - (area.y + 4));
    let narration_area = rows(bottom - 4, 3);
    if step.event == StepEvent::Scored {
        let whole = rows(area.y + 4, bottom - 1 - (area.y + 4));
        score_window::draw(&scene, whole, buf);
    } else {
        table::draw(&scene, table_area, buf);
        narration::draw(&scene, narration_area, buf);
    }
    footer(&scene, viewer, rows(bottom - 1, 1), buf);
    if let Some(reviewed) = viewer.analysis().reviewed().filter(|r| r.is_open()) {
        let below_title = rows(area.y + 1, area.height - 1);
        review_panel::draw(&scene, reviewed, below_title, buf);
    }
    if viewer.help_shown() {
        help_window(viewer.source(), area, buf, theme);
    }
}

/// The viewer's keys, in a window over the story.
fn help_window(source: &Source, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let review = *source == Source::HandReview;
    let mut lines = vec![
        "Left/Right or h/l   back or on a step: a bid, the exchange, a card",
        "Up/Down or k/j      back or on a trick; it stops too at the deal,",
        "                    the bids made, the exchange and the score",
    ];
    if review {
        lines.push("Home/End or g/G     the start or the end of the hand");
    } else {
        lines.extend([
            "PgUp/PgDn           this hand's start, the hand before, the next",
            "Home/End or g/G     the start or the end of the game",
        ]);
    }
    lines.push("Enter or space      on a step, as Right does");
    lines.push(if review {
        "a                   analyse the hand (a or Esc stops it); once done,"
    } else {
        "a                   analyse the game (a or Esc stops it); once done,"
    });
    lines.extend([
        "                    show or hide the review: Up/Down choose a",
        "                    decision and go to it, Enter shows it",
        "n, N                the next or the previous decision judged bad",
        "?                   these keys (any key closes them)",
    ]);
    lines.push(match source {
        Source::HandReview => "q or Esc            back to the hand's summary",
        Source::GameJustPlayed => "q or Esc            back to the game's result",
        Source::Record { .. } => "q or Esc            leave          Ctrl-C  leave at once",
    });
    let height = lines.len() as u16 + 2;
    let window = layout::window(area, 72, height);
    let inner = framed("Keys", window, buf, theme);
    Paragraph::new(lines.into_iter().map(Line::from).collect::<Vec<_>>())
        .render(padded(inner), buf);
}

/// A side as the viewer names it: with its players when it has partners
/// ("Us (You & North)" in the player's own game), else its one seat.
fn side_title(scene: &Scene, side: Side) -> String {
    let mode = scene.story.mode();
    if mode.has_partners() && scene.story.player.is_none() {
        return members(scene, side).join(" & ");
    }
    scene.names.side_in_full(side)
}

fn members<'a>(scene: &'a Scene, side: Side) -> Vec<&'a str> {
    let mode = scene.story.mode();
    mode.side_seats(side).map(|s| scene.names.seat(s)).collect()
}

/// The keys; while the analysis runs, its progress instead; and a line
/// the analysis has to say, until the next key.
fn footer(scene: &Scene, viewer: &Viewer, area: Rect, buf: &mut Buffer) {
    let theme = scene.theme;
    let analysis = viewer.analysis();
    if let Some(said) = analysis.said() {
        let width = area.width.saturating_sub(1) as usize;
        buf.set_stringn(area.x + 1, area.y, said, width, theme.accent());
        return;
    }
    if let State::Running(running) = analysis.state() {
        return progress_gauge(running, theme, area, buf);
    }
    let a = if analysis.reviewed().is_some() {
        "a review"
    } else {
        "a analyse"
    };
    let keys = match viewer.source() {
        Source::Record { .. } => {
            format!(" Left/Right step  Up/Down trick  PgUp/PgDn hand  {a}  ? keys  q quit")
        }
        Source::HandReview => {
            format!(" Left/Right step  Up/Down trick  {a}  ? keys  Esc back to the summary")
        }
        Source::GameJustPlayed => {
            format!(" Left/Right step  Up/Down trick  PgUp/PgDn hand  {a}  ? keys  Esc back")
        }
    };
    buf.set_stringn(area.x, area.y, keys, area.width as usize, theme.dim());
}

/// How far the analysis under way has come, and how to stop it.
fn progress_gauge(running: &Running, theme: &Theme, area: Rect, buf: &mut Buffer) {
    let (ratio, label) = match running.progress() {
        Some(p) if p.total > 0 => (
            p.done as f64 / p.total as f64,
            format!(" Analysing: {} of {} decisions ", p.done, p.total),
        ),
        _ => (0.0, " Analysing ".to_string()),
    };
    let stops = " a or Esc stops ";
    let gauge_width = area.width.saturating_sub(stops.len() as u16);
    let (filled, unfilled) = if theme.ascii {
        ("=", "-")
    } else {
        ("━", "─")
    };
    LineGauge::default()
        .ratio(ratio.clamp(0.0, 1.0))
        .filled_symbol(filled)
        .unfilled_symbol(unfilled)
        .label(label)
        .filled_style(theme.accent())
        .unfilled_style(theme.dim())
        .render(Rect::new(area.x, area.y, gauge_width, 1), buf);
    let dim = theme.dim();
    buf.set_stringn(area.x + gauge_width, area.y, stops, stops.len(), dim);
}
