//! The hand the player holds (or plays for the dummy), drawn by the hand's
//! component with what the app says of the moment.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::engine::PlayerView;

use super::super::app::App;
use super::super::components::hand::Marks;
use super::super::hits::Hits;

pub(super) fn draw(app: &App, view: &PlayerView, area: Rect, buf: &mut Buffer, hits: &mut Hits) {
    let marks = Marks {
        turn: app.human_turn().map(|t| t.decision),
        choosing: app.overlay().is_none() && app.held_trick().is_none(),
        to_pass: app.to_pass(),
    };
    app.hand().draw(view, marks, area, buf, hits, app.theme());
}
