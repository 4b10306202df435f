//! The windows a key opens over the table: the keys, the rules in force,
//! the player's statistics, the last trick, and the question before
//! quitting. An open window takes the clicks from what is under it.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use crate::engine::{Mode, Rules, TrickDone};
use crate::net::client::seat::Ladder;
use crate::net::client::table_facts::TableFacts;

use super::super::app::{App, Overlay};
use super::super::hits::Hits;
use super::super::layout;
use super::super::summary::signed;
use super::super::text::wrap;
use super::super::theme::Theme;
use super::super::widgets::framed;
use crate::outside::pad;

const HELP: &str = include_str!("../../../../assets/help.txt");

pub(super) fn draw(app: &App, overlay: Overlay, area: Rect, buf: &mut Buffer, hits: &mut Hits) {
    // The window hides what is under it from clicks.
    *hits = Hits::default();
    match overlay {
        Overlay::Help => help(app.theme(), area, buf),
        Overlay::Rules => rules(app, area, buf),
        Overlay::Stats => app.windows().draw_stats(area, buf, hits, app.theme()),
        Overlay::LastTrick => last_trick(app, area, buf),
        Overlay::ConfirmQuit => {
            let said = app.leaving_words();
            let windows = app.windows();
            windows.draw_quit(&said, app.is_shared(), area, buf, hits, app.theme());
        }
    }
}

/// The keys, from assets/help.txt.
fn help(theme: &Theme, area: Rect, buf: &mut Buffer) {
    let lines: Vec<Line> = HELP.lines().map(Line::from).collect();
    let window = layout::window(area, 78, lines.len() as u16 + 2);
    let inner = framed("Keys", window, buf, theme);
    Paragraph::new(lines).render(inner.inner(ratatui::layout::Margin::new(1, 0)), buf);
}

/// The rules in force, the players, the speed, and where the deals come
/// from.
fn rules(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = app.theme();
    let view = app.view();
    let mut lines = rules_lines(&view.rules, theme);
    let facts = app.table_facts();
    // At a shared table, the server's word; at home, the player's own.
    let source = facts.and_then(|f| f.rules_source.as_deref());
    let source = source.unwrap_or(&app.config().game.rules_source);
    lines.insert(0, format!("From {source}."));
    lines.push(String::new());
    let players = match facts {
        Some(facts) => facts.players_in_words(view.rules.mode, &app.names().all(), app.you()),
        None => crate::config::players_in_words(view.rules.mode, &app.config().game.difficulty),
    };
    lines.push(format!("Players    {players}"));
    lines.push(format!(
        "Speed      {} (+ and - change it); auto-play {} (p)",
        app.speed(),
        if app.auto_play() { "on" } else { "off" }
    ));
    lines.extend(deals_during_the_game(app));
    match app.ladder() {
        Some(Ladder::Rated) => lines.push("Rated: the server's ladder counts this game.".into()),
        Some(Ladder::Unrated(why)) => lines.push(format!("Unrated on the server's ladder: {why}.")),
        None => {}
    }
    lines.extend(facts.map_or_else(Vec::new, |f| watch_lines(f, 70)));
    lines.push("Esc or r closes.".to_string());
    // Long lines (a long seed, a long path) wrap inside the window.
    let lines = wrap(&lines, 70);
    let window = layout::window(area, 74, lines.len() as u16 + 2);
    let inner = framed("Rules in force", window, buf, theme);
    Paragraph::new(lines.into_iter().map(Line::from).collect::<Vec<_>>())
        .render(inner.inner(ratatui::layout::Margin::new(1, 0)), buf);
}

/// The table's code, with the command a friend watches it by. The code is
/// never broken across lines, so it can be copied whole: the command goes
/// on two lines before that.
fn watch_lines(facts: &TableFacts, width: usize) -> Vec<String> {
    let Some(command) = facts.watch_command() else {
        return Vec::new();
    };
    let mut lines = vec!["Table      a friend watches it with".to_string()];
    if command.chars().count() <= width {
        lines.push(command);
    } else {
        let (verb, code) = command.rsplit_once(' ').unwrap_or(("", &command));
        lines.extend([verb.to_string(), code.to_string()]);
    }
    lines
}

/// The last trick, card by card.
fn last_trick(app: &App, area: Rect, buf: &mut Buffer) {
    let Some(trick) = app.last_trick() else {
        return;
    };
    let lines = last_trick_lines(app, trick);
    let window = layout::window(area, 40, lines.len() as u16 + 2);
    let inner = framed("Last trick", window, buf, app.theme());
    Paragraph::new(lines).render(inner.inner(ratatui::layout::Margin::new(1, 0)), buf);
}

/// Where the deals come from, as the rules window says it during a game:
/// sealed by a commitment, or known from an open seed.
fn deals_during_the_game(app: &App) -> Vec<String> {
    match (app.open_seed(), app.commitment()) {
        (Some(seed), _) => vec![format!(
            "Deals known: seed {seed} (--seed {seed} replays this game)."
        )],
        (None, Some(commitment)) => vec![
            "Deals sealed: the seed stays secret until the game ends. Commitment:".to_string(),
            commitment.to_string(),
        ],
        (None, None) => Vec::new(),
    }
}

fn last_trick_lines<'a>(app: &App, trick: &TrickDone) -> Vec<Line<'a>> {
    let theme = app.theme();
    let names = app.names();
    let mode = app.config().game.rules.mode;
    let mut lines = Vec::new();
    for k in 0..mode.seats() {
        let seat = mode.after(trick.leader, k);
        let Some(card) = trick.cards[seat] else {
            continue;
        };
        let role = if k == 0 { "led" } else { "played" };
        let mut spans = vec![
            Span::raw(format!("{} {role:<7} ", pad(names.seat(seat), 10))),
            Span::styled(theme.card(card), theme.card_colour(card)),
        ];
        if seat == trick.winner {
            let takes = if names.seat(seat) == "You" {
                "take"
            } else {
                "takes"
            };
            spans.push(Span::styled(format!("  {takes} it"), theme.accent()));
        }
        lines.push(Line::from(spans));
    }
    lines
}

/// The rules in words, one line per key group of rules.toml.
fn rules_lines(rules: &Rules, theme: &Theme) -> Vec<String> {
    let mode = match rules.mode {
        Mode::Partnership => "partnership: four seats, partners opposite",
        Mode::Cutthroat => "cutthroat: three seats, 17 cards each, every seat alone",
        Mode::Individual => "individual: four seats, every seat alone",
        Mode::Dummy => "dummy: three players and a dummy, the top bidder declares with it",
    };
    // Quick Play has no target: its terms are its course.
    let course = crate::config::quick_play_terms(rules).unwrap_or_else(|| {
        let losing = rules.losing_score.map_or(String::new(), |l| {
            format!("; also ends at {} or below", theme.number(l))
        });
        format!("to {} points{losing}", rules.target_score)
    });
    let no_nil = rules.mode.dummy().is_some();
    let nil = if no_nil {
        "not bid with a dummy (bids are team totals)".to_string()
    } else if rules.nil.allowed {
        format!("worth {}", rules.nil.value)
    } else {
        "not allowed".to_string()
    };
    let blind = &rules.blind_nil;
    let blind_nil = if no_nil {
        "not bid with a dummy".to_string()
    } else if blind.allowed {
        format!(
            "worth {}, when the side trails by {} or more",
            blind.value, blind.min_deficit
        )
    } else {
        "not allowed".to_string()
    };
    let per_side = if blind.one_per_side {
        "one per side"
    } else {
        "both partners may bid it"
    };
    let exchange = match rules.exchange_size() {
        0 => "no exchange".to_string(),
        n => format!("then {n} cards exchanged with the partner"),
    };
    let total = if rules.bidding.forbid_exact_total {
        format!(
            "the last bidder may not make the bids total {}",
            rules.mode.hand_size()
        )
    } else {
        "any total".to_string()
    };
    let mut lines = vec![
        format!("Mode       {mode}"),
        format!("Game       {course}"),
        format!(
            "Bags       each {} bags cost {}",
            rules.bags.limit,
            signed(-rules.bags.penalty, theme)
        ),
        format!("Nil        {nil}"),
        format!("Blind nil  {blind_nil}"),
    ];
    // Its terms only where it may be bid.
    if blind.allowed && !no_nil {
        lines.push(format!("           {per_side}; {exchange}"));
    }
    lines.push(format!("Bidding    {total}"));
    let mut house = crate::config::house_rules(rules).into_iter();
    if let Some(first) = house.next() {
        lines.push(format!("House      {first}"));
        lines.extend(house.map(|line| format!("           {line}")));
    }
    lines
}
