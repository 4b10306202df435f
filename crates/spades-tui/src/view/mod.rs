//! State in, frame out: draws an `App` into a buffer and says where the
//! clickable things went. Reads the app and the player's view; changes
//! nothing. Each part of the screen has its module: the score bar, the
//! table, the hand, the panel under it, and the windows over them.

mod hand;
mod overlays;
mod panel;
pub(crate) mod score_bar;
pub(crate) mod table;
mod windows;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::engine::{Decision, Phase, PlayerView};

use super::app::{App, Screen};
use super::hits::Hits;
use super::layout;
use super::replay_view;
use super::widgets::too_small;

/// Draws the whole screen; returns where each clickable thing is.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) -> Hits {
    let mut hits = Hits::default();
    let theme = app.theme();
    buf.set_style(area, theme.base());
    // The review fills the screen, at any size, and has nothing to click.
    if let Some(review) = app.review() {
        replay_view::render(review, theme, area, buf);
        return hits;
    }
    let Some(regions) = layout::regions(area) else {
        too_small(area, buf, theme, "q quits");
        return Hits::too_small();
    };
    let view = app.view();
    match app.screen() {
        Screen::GameOver => windows::game_over(app, &view, area, buf, &mut hits),
        Screen::Summary => {
            // The score bar already shows the new totals; the next hand's
            // table waits until the player has read how they came about.
            score_bar::draw(app, &view, regions.score_bar, buf);
            windows::hand_scored(app, &regions, buf, &mut hits);
            let keys =
                "Enter  go on   v  review the hand   a  analyse it   t  last trick   r  rules";
            key_bar(app, keys.to_string(), regions.footer, buf);
        }
        // Drawn above, before the table's regions.
        Screen::Review => {}
        Screen::Table => {
            score_bar::draw(app, &view, regions.score_bar, buf);
            app.memory()
                .draw(&view, app.names(), regions.score_bar, buf, theme);
            table::draw(app, &view, regions.table, buf);
            hand::draw(app, &app.hand_view(), regions.hand, buf, &mut hits);
            panel::draw(app, &view, regions.panel, buf, &mut hits);
            footer(app, &view, regions.footer, buf);
            if app.chat().is_open() {
                let (log, _) = app.chat_log();
                app.chat().draw(&log, regions.table, buf, theme);
            }
        }
    }
    // Over the key bar, on every screen, while the disk refuses the files:
    // the player must know the game is not on the disk.
    if let Some(line) = app.unwritten() {
        let width = usize::from(regions.footer.width);
        let (x, y) = (regions.footer.x, regions.footer.y);
        buf.set_stringn(x, y, format!(" {line:<width$}"), width, theme.error());
    }
    if let Some(overlay) = app.overlay() {
        overlays::draw(app, overlay, area, buf, &mut hits);
    }
    hits
}

fn footer(app: &App, view: &PlayerView, area: Rect, buf: &mut Buffer) {
    let theme = app.theme();
    if let Some(line) = app.chat_line() {
        let text = format!(" Say: {line}_   Enter  send   Esc  cancel   PgUp/PgDn  scroll");
        buf.set_stringn(area.x, area.y, text, area.width as usize, theme.accent());
        return;
    }
    let keys = match app.human_turn().map(|t| t.decision) {
        _ if app.held_trick().is_some() => "any key  go on",
        Some(Decision::BlindNil) if app.blind_number(view).is_some() => {
            "b  blind nil   number  blind bid   c  look at cards"
        }
        Some(Decision::BlindNil) => "b  blind nil   c  look at cards",
        Some(Decision::Bid) if view.rules.nil_is_bid() => {
            "arrows or number  choose   Enter  bid   n  nil"
        }
        Some(Decision::Bid) => "arrows or number  choose   Enter  bid",
        Some(Decision::Exchange) => "arrows, space or key  choose   Enter  pass",
        Some(Decision::Play) => "arrows, Enter  play   1-9 0 a-g  card",
        None if view.phase == Phase::Over => "",
        None => "arrows  move",
    };
    let hint = app.human_turn().is_some() && app.held_trick().is_none();
    // The turn's own keys first; the others as far as the width allows,
    // the rules before the last trick (the help window has every key).
    let mut all = keys.to_string();
    let room = usize::from(area.width).saturating_sub(held_back_mark(app).len() + 1);
    for (shown, more) in [
        (app.is_shared(), "/  chat"),
        (app.can_take_back(), "u  undo"),
        (hint, "h  hint"),
        (true, "r  rules"),
        (true, "t  last trick"),
        (true, "m  cards played"),
    ] {
        if shown && all.chars().count() + 3 + more.len() <= room {
            all.push_str("   ");
            all.push_str(more);
        }
    }
    key_bar(app, all, area, buf);
}

/// What the key bar starts with while a key is held back.
fn held_back_mark(app: &App) -> &'static str {
    if app.key_held_back() {
        " wait...  "
    } else {
        ""
    }
}

/// The key bar: the keys, after a "wait" while a key pressed too soon
/// after a pause is held back, so the player sees it was not lost.
fn key_bar(app: &App, keys: String, area: Rect, buf: &mut Buffer) {
    let theme = app.theme();
    let mark = held_back_mark(app);
    let width = usize::from(area.width);
    let (x, _) = buf.set_stringn(area.x, area.y, mark, width, theme.accent());
    let left = width.saturating_sub(usize::from(x - area.x));
    buf.set_stringn(x, area.y, format!(" {keys}"), left, theme.dim());
}
