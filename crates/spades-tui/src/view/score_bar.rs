//! The score bar over the table: the hand, the dealer and the course of the
//! game on its title row, how the deals are dealt, and each side's score,
//! bags, bids and tricks.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::engine::{PlayerView, PublicView, Side};
use crate::net::client::seat::Ladder;

use super::super::app::App;
use super::super::standing::bid_and_took;
use super::super::theme::Theme;

pub(super) fn draw(app: &App, view: &PlayerView, area: Rect, buf: &mut Buffer) {
    let [title, sides_area] = area.layout(&ratatui::layout::Layout::vertical([
        ratatui::layout::Constraint::Length(1),
        ratatui::layout::Constraint::Min(0),
    ]));
    title_row(app, view, title, buf);
    let names = app.names();
    let side_names = |side| (names.side_in_full(side), names.side(side));
    side_columns(app.theme(), &view.public(), side_names, sides_area, buf);
}

/// A column a side: its name (in full, or short where the full one does
/// not fit) and score, its bags, and its bids and tricks this hand. The
/// spectator's screen draws them too, naming the sides its own way.
pub(crate) fn side_columns(
    theme: &Theme,
    view: &PublicView,
    side_names: impl Fn(Side) -> (String, String),
    area: Rect,
    buf: &mut Buffer,
) {
    let sides = view.mode().sides();
    let width = area.width / sides as u16;
    for side in view.mode().each_side() {
        let col = Rect::new(
            area.x + side.index() as u16 * width,
            area.y,
            width.saturating_sub(1),
            area.height,
        );
        side_column(theme, view, side_names(side), side, col, buf);
    }
}

/// The hand, the dealer and the course of the game on the left; how the
/// deals are dealt and the keys on the right, as far as there is room.
fn title_row(app: &App, view: &PlayerView, title: Rect, buf: &mut Buffer) {
    let theme = app.theme();
    let rules = &view.rules;
    buf.set_style(title, theme.bar());
    let sep = theme.sep();
    let course = crate::config::course(rules);
    let mut course = match view.lives_left {
        Some(left) => format!("{course}{sep}Lives {}", theme.lives(left, rules.game.lives)),
        None if !rules.is_quick() => format!("Game {course}"),
        None => course,
    };
    // The variants, practice and the ladder's word, named where the
    // player looks first.
    let practice = app.is_practice().then_some("Practice");
    let ladder = app.ladder().map(|ladder| match ladder {
        Ladder::Rated => "Rated",
        Ladder::Unrated(_) => "Unrated",
    });
    let marks = crate::config::variants(rules).into_iter().chain(practice);
    for mark in marks.chain(ladder) {
        course.push_str(&format!("{sep}{mark}"));
    }
    let game = format!(
        "Hand {}{sep}Dealer {}{sep}{course}",
        view.hand_no,
        app.names().seat(view.dealer),
    );
    // How the deals are dealt, sealed by a commitment or known from an
    // open seed, in words or in short; and the keys to help and to quit,
    // always. On a short bar the program's name gives way first, then the
    // deals' words, and the left half is cut last of all.
    let deals = match (app.open_seed(), app.commitment()) {
        (Some(seed), _) => [format!("Deals known: seed {seed}"), format!("seed {seed}")],
        (None, Some(c)) => {
            let short = &c.short()[..8];
            [format!("Deals sealed #{short}"), format!("#{short}")]
        }
        (None, None) => [String::new(), String::new()],
    };
    // From the lobby, `q` leaves the table, not the program.
    let keys = if app.config().from_lobby {
        "? help  q leave "
    } else {
        "? help  q quit "
    };
    let [named, bare] = [format!(" SPADES  {game}"), format!(" {game}")];
    let [long, short] = deals.map(|d| format!("{d}  {keys}").trim_start().to_string());
    let width = |s: &String| s.chars().count() as u16;
    let (left, right) = [
        (&named, &long),
        (&bare, &long),
        (&named, &short),
        (&bare, &short),
    ]
    .into_iter()
    // A gap of two or more, so the two halves do not read as one.
    .find(|(l, r)| width(l) + 2 + width(r) <= title.width)
    .unwrap_or((&bare, &short));
    let room = title.width.saturating_sub(width(right) + 2);
    buf.set_stringn(title.x, title.y, left, usize::from(room), theme.bar());
    let x = title.right().saturating_sub(width(right));
    buf.set_string(x, title.y, right, theme.bar());
}

/// One side's name and score, its bags, and its bids and tricks this hand.
fn side_column(
    theme: &Theme,
    view: &PublicView,
    (full, short): (String, String),
    side: Side,
    col: Rect,
    buf: &mut Buffer,
) {
    let rules = &view.rules;
    let totals = view.totals[side];
    let name = if full.len() + 8 < col.width as usize {
        full
    } else {
        short
    };
    let bags_style = if totals.bags >= rules.bags.limit - 2 {
        theme.error()
    } else {
        Style::new()
    };
    let lines = [
        Line::from(vec![
            Span::styled(name, Style::new().add_modifier(Modifier::BOLD)),
            Span::raw("  "),
            Span::styled(theme.number(totals.score), theme.accent()),
        ]),
        Line::from(vec![Span::styled(
            format!("bags {}/{}", totals.bags, rules.bags.limit),
            bags_style,
        )]),
        Line::from(bid_and_took(
            view.teams(),
            side,
            &view.bids,
            &view.play.tricks_won,
            theme.sep(),
        )),
    ];
    for (i, line) in lines.iter().enumerate() {
        buf.set_line(
            col.x + 1,
            col.y + i as u16,
            line,
            col.width.saturating_sub(1),
        );
    }
}
