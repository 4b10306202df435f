//! The lobby drawn: a line naming the server and the player, the list of
//! tables (two lines a table), a status line, the keys, and the open
//! window over them.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use crate::engine::Mode;
use crate::outside::{clean_name, columns, fit, pad};
use crate::protocol::SeatPlayer;
use crate::protocol::lobby::{ListedSeat, ListedTable};

use super::super::layout::{self, window};
use super::super::theme::Theme;
use super::super::widgets::{framed, padded, too_small};
use super::forms::{Field, Form};
use super::{LobbyState, RowHits, Window};

/// The widest the lobby grows: past it, it sits in the middle.
const MAX_WIDTH: u16 = 120;
/// The most columns a listed table's reason for being unrated takes.
const UNRATED_COLUMNS: usize = 28;
/// The widest a form's window grows.
const FORM_WIDTH: u16 = 64;
/// The columns of a listed table's mode.
const MODE_COLUMNS: usize = 12;

/// Draws the lobby; says where each table's rows went, for clicks.
pub fn render(state: &LobbyState, area: Rect, buf: &mut Buffer, theme: &Theme) -> RowHits {
    let mut hits = RowHits::default();
    buf.set_style(area, theme.base());
    if !layout::fits(area) {
        too_small(area, buf, theme, "Q leaves");
        return hits;
    }
    let area = area.centered(Constraint::Max(MAX_WIDTH), Constraint::Fill(1));
    let [top, list, status, help] = area.layout(&Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ]));
    header(state, top, buf, theme);
    table_list(state, list, buf, theme, &mut hits);
    if let Some(text) = state.status() {
        let text = fit(text, usize::from(status.width.saturating_sub(2)));
        buf.set_string(status.x + 1, status.y, text, theme.error());
    }
    buf.set_string(
        help.x + 1,
        help.y,
        help_line(help.width, theme),
        theme.dim(),
    );
    match state.window() {
        Window::None => {}
        Window::Ladder(ladder) => ladder.render(&state.player.name, area, buf, theme),
        Window::NewTable(form) => form_window(form, area, buf, theme),
        Window::QuickMatch(form) => form_window(form, area, buf, theme),
        Window::ConfirmQuit => super::yours::confirm_quit(state, area, buf, theme),
    }
    hits
}

/// A rating as shown beside a name: `1620±35`, `1500?±350` while it is
/// still a guess.
pub(crate) fn rating_text(rating: i32, deviation: i32, provisional: bool, theme: &Theme) -> String {
    let mark = if provisional { "?" } else { "" };
    let plus_minus = if theme.ascii { "+-" } else { "±" };
    format!("{}{mark}{plus_minus}{deviation}", theme.number(rating))
}

/// The server at the left; the player, and their rating in the mode in
/// view, at the right.
fn header(state: &LobbyState, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let title = format!(" Spades lobby{}{}", theme.sep(), state.server);
    let mode = state.usual_mode();
    let mut you = clean_name(&state.player.name, crate::naming::MAX_NAME);
    if let Some(r) = state.player.ratings.iter().find(|r| r.mode == mode) {
        let rating = rating_text(r.rating, r.deviation, r.provisional, theme);
        you.push_str(&format!("{}{mode} {rating} ", theme.sep()));
    }
    let room = usize::from(area.width).saturating_sub(columns(&you));
    buf.set_string(area.x, area.y, fit(&title, room), theme.accent());
    let x = area.right().saturating_sub(columns(&you) as u16);
    buf.set_string(x, area.y, you, theme.accent());
}

fn table_list(state: &LobbyState, area: Rect, buf: &mut Buffer, theme: &Theme, hits: &mut RowHits) {
    let shown = state.tables().len();
    let count = if state.total() > shown {
        format!("{shown} of {}", state.total())
    } else {
        shown.to_string()
    };
    let modes = state
        .filter()
        .map_or_else(|| "all modes".to_string(), |m| format!("{m} only"));
    let mut title = format!("Tables ({count}){}{modes}", theme.sep());
    // The frame's corners and a space either side of the title.
    let room = usize::from(area.width).saturating_sub(columns(&title) + columns(theme.sep()) + 4);
    if let Some(waiting) = waiting_text(state, room) {
        title.push_str(&format!("{}{waiting}", theme.sep()));
    }
    let inner = padded(framed(&title, area, buf, theme));
    if shown == 0 {
        let lines = if state.listed() {
            empty_lines(state.filter(), theme)
        } else {
            unlisted_lines(theme)
        };
        return Paragraph::new(lines).render(inner, buf);
    }
    let width = usize::from(inner.width);
    // Two lines a table; the selected one stays in view.
    let room = usize::from(inner.height / 2).max(1);
    let first = (state.selected() + 1).saturating_sub(room);
    for (k, table) in state.tables().iter().enumerate().skip(first).take(room) {
        let y = inner.y + 2 * (k - first) as u16;
        let rows = Rect::new(inner.x, y, inner.width, 2);
        let selected = k == state.selected();
        if selected {
            buf.set_style(rows, theme.cursor());
        }
        let marker = if selected { theme.turn_marker() } else { " " };
        let first_line = table_line(table, state.is_yours(table), marker, width, theme);
        buf.set_line(inner.x, y, &first_line, inner.width);
        let seats = format!("    {}", seats_text(table, width.saturating_sub(4), theme));
        buf.set_string(inner.x, y + 1, fit(&seats, width), theme.dim());
        hits.add(rows, k);
    }
}

/// Who waits for a quick match in the modes in view, in at most `room`
/// columns: "quick match: partnership 2, cutthroat 1 waiting", or the sum
/// alone when that is too long; nothing when nobody waits.
fn waiting_text(state: &LobbyState, room: usize) -> Option<String> {
    let waiting: Vec<(Mode, u32)> = state
        .queues()
        .iter()
        .filter(|q| q.waiting > 0 && state.filter().is_none_or(|m| m == q.mode))
        .map(|q| (q.mode, q.waiting))
        .collect();
    if waiting.is_empty() {
        return None;
    }
    let each: Vec<String> = waiting
        .iter()
        .map(|(mode, n)| format!("{} {n}", mode.name()))
        .collect();
    let text = format!("quick match: {} waiting", each.join(", "));
    if columns(&text) <= room {
        return Some(text);
    }
    let all: u32 = waiting.iter().map(|&(_, n)| n).sum();
    Some(format!("quick match: {all} waiting"))
}

/// A table's first line: its mode and rules at the left, its seats free
/// (or that it has started, and who watches) at the right.
fn table_line(
    table: &ListedTable,
    yours: bool,
    marker: &str,
    width: usize,
    theme: &Theme,
) -> Line<'static> {
    let free = table.free_seats();
    let mut facts = if yours {
        format!("your seat: Enter takes it back{}started", theme.sep())
    } else if table.started {
        format!("started{}{} watching", theme.sep(), table.watchers)
    } else if free == 0 {
        "full".to_string()
    } else {
        format!("{free} free")
    };
    if table.rated {
        facts.push_str(&format!("{}rated", theme.sep()));
    } else if let Some(why) = &table.unrated {
        // The server's words: cleaned and cut like a name.
        let why = clean_name(why, UNRATED_COLUMNS);
        facts.push_str(&format!("{}unrated: {why}", theme.sep()));
    }
    let lead = format!("{marker} {} ", pad(table.mode.name(), MODE_COLUMNS));
    let room = width.saturating_sub(columns(&lead) + columns(&facts) + 2);
    let rules = pad(&clean_name(&table.rules, room), room);
    Line::from(vec![
        Span::styled(lead, theme.accent()),
        Span::raw(rules),
        Span::raw("  "),
        Span::styled(facts, theme.accent()),
    ])
}

/// Who sits where, in `width` columns: partners together in partnership,
/// else in seat order; long names are cut, ratings never.
fn seats_text(table: &ListedTable, width: usize, theme: &Theme) -> String {
    let seats = &table.seats;
    let partners = table.mode == Mode::Partnership && seats.len() == 4;
    let (order, joins): (Vec<usize>, Vec<&str>) = if partners {
        (vec![0, 2, 1, 3], vec![" & ", "  vs  ", " & "])
    } else {
        let join = if theme.ascii { "  |  " } else { "  ·  " };
        (
            (0..seats.len()).collect(),
            vec![join; seats.len().saturating_sub(1)],
        )
    };
    let joined: usize = joins.iter().map(|j| columns(j)).sum();
    let each = width.saturating_sub(joined) / seats.len().max(1);
    let mut text = String::new();
    for (k, &i) in order.iter().enumerate() {
        if k > 0 {
            text.push_str(joins[k - 1]);
        }
        text.push_str(&seat_text(&seats[i], each, theme));
    }
    text
}

/// One seat in at most `width` columns: "Ana 1620?±210", "bot normal",
/// "—" for an empty seat.
fn seat_text(seat: &ListedSeat, width: usize, theme: &Theme) -> String {
    let name = seat.name.as_deref().filter(|n| !n.trim().is_empty());
    let person = crate::naming::shown_name(name.unwrap_or("someone"), seat.guest);
    let rating = seat
        .rating
        .map(|r| {
            format!(
                " {}",
                rating_text(r.rating, r.deviation, r.provisional, theme)
            )
        })
        .unwrap_or_default();
    let (what, rating) = match seat.player {
        SeatPlayer::Empty => (
            if theme.ascii { "-" } else { "—" }.to_string(),
            String::new(),
        ),
        SeatPlayer::Dummy => ("dummy".to_string(), String::new()),
        SeatPlayer::Bot => (format!("bot {}", name.unwrap_or("")), String::new()),
        SeatPlayer::Person => (person, rating),
        SeatPlayer::Away => (format!("{person} (away)"), rating),
    };
    let room = width.saturating_sub(columns(&rating)).max(3);
    format!("{}{rating}", clean_name(&what, room))
}

fn empty_lines(filter: Option<Mode>, theme: &Theme) -> Vec<Line<'static>> {
    let what = filter.map_or_else(String::new, |m| format!("{m} "));
    let mut lines = vec![
        Line::from(""),
        Line::styled(
            format!("No public {what}tables on this server yet."),
            theme.accent(),
        ),
        Line::from("n opens one; q asks for a quick match with players near your rating."),
    ];
    if filter.is_some() {
        lines.push(Line::from("m shows the other modes."));
    }
    lines
}

/// No list has come (yet): the server's word on why is on the status line.
fn unlisted_lines(theme: &Theme) -> Vec<Line<'static>> {
    vec![
        Line::from(""),
        Line::styled("No list of tables from this server.", theme.accent()),
        Line::from("n opens a table; l shows the ladder; r asks for the list again."),
    ]
}

/// The keys, as many words as the width allows.
fn help_line(width: u16, theme: &Theme) -> &'static str {
    match (width >= 100, theme.ascii) {
        (true, false) => {
            "↑↓ choose  Enter join  w watch  n new table  q quick match  l ladder  m mode  r refresh  Q quit"
        }
        (true, true) => {
            "j/k choose  Enter join  w watch  n new table  q quick match  l ladder  m mode  r refresh  Q quit"
        }
        (false, false) => {
            "↑↓/Enter join  w watch  n new  q quick  l ladder  m mode  r refresh  Q quit"
        }
        (false, true) => {
            "j/k/Enter join  w watch  n new  q quick  l ladder  m mode  r refresh  Q quit"
        }
    }
}

/// The keys that move up and down, and left and right, as the help says
/// them.
pub(super) fn arrows(theme: &Theme) -> (&'static str, &'static str) {
    if theme.ascii {
        ("j/k", "h/l")
    } else {
        ("↑↓", "←→")
    }
}

/// A form in a window over the list: a line a field, then its keys.
fn form_window<F: Form>(form: &F, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let mut lines = vec![Line::from("")];
    for field in form.fields() {
        lines.push(field_line(&field, theme));
    }
    lines.push(Line::from(""));
    let (up_down, left_right) = arrows(theme);
    lines.push(Line::styled(
        format!(
            "{up_down} field  {left_right} change  Enter {}  Esc back",
            F::CONFIRM
        ),
        theme.dim(),
    ));
    let height = lines.len() as u16 + 2;
    let inner = framed(F::TITLE, window(area, FORM_WIDTH, height), buf, theme);
    Paragraph::new(lines).render(padded(inner), buf);
}

fn field_line(field: &Field, theme: &Theme) -> Line<'static> {
    let (before, after) = if theme.ascii {
        ("<", ">")
    } else {
        ("◂", "▸")
    };
    let value = pad(&format!("{before} {} {after}", field.value), 16);
    let style = if field.focused {
        theme.cursor()
    } else {
        ratatui::style::Style::new()
    };
    Line::from(vec![
        Span::raw(format!("{:<7}", field.label)),
        Span::styled(value, style),
        Span::raw("  "),
        Span::styled(field.about, theme.dim()),
    ])
}
