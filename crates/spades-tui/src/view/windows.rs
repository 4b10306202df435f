//! The windows at the ends: a hand's score worked out, and the game's
//! result with where the deals came from and where the game was recorded.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use crate::engine::{Mode, Phase, PlayerView};

use super::super::app::App;
use super::super::hits::{Hits, Target};
use super::super::layout::{self, Regions};
use super::super::scored;
use super::super::summary::hand_summary;
use super::super::text::{home_relative, tail, wrap};
use super::super::widgets::{button, framed};

pub(super) fn hand_scored(app: &App, regions: &Regions, buf: &mut Buffer, hits: &mut Hits) {
    let Some((result, before)) = app.summary() else {
        return;
    };
    let theme = app.theme();
    let rules = &app.config().game.rules;
    let sides = hand_summary(result, &before, rules, app.names(), theme);
    let mut lines: Vec<Line> = Vec::new();
    for side in &sides {
        lines.extend(scored::side_lines(side.title.clone(), &side.lines, theme));
    }
    // In cutthroat the card out of play is shown once the hand is over.
    let view = app.view();
    if view.mode() == Mode::Cutthroat
        && let Some(out) = view.rules.deck().minus(view.play.played).lowest()
        && view.play.played.len() == 51
    {
        lines.push(scored::out_of_play(out, theme));
    }
    let over = view.phase == Phase::Over;
    let button_text = if over {
        "Enter  final result"
    } else {
        "Enter  next hand"
    };
    let whole = Rect::new(
        regions.table.x,
        regions.table.y,
        regions.table.width,
        regions.panel.bottom() - regions.table.y,
    );
    // Room under the lines for a blank row and the button.
    let inner = scored::window(result.hand, lines, 2, whole, buf, theme);
    let y = inner.bottom().saturating_sub(1);
    let width = button_text.len() as u16 + 6;
    let x = inner.x + inner.width.saturating_sub(width) / 2;
    button(buf, x, y, button_text, true, theme, Target::Continue, hits);
    // The next hand's first decision may be asked already, its time
    // running while the player reads: the countdown is on the frame.
    if let Some(left) = app.countdown() {
        let text = super::panel::countdown(left, theme);
        let width = text.width() as u16;
        let x = inner.right().saturating_sub(width);
        buf.set_span(x.max(inner.x), inner.bottom(), &text, inner.width);
    }
}

pub(super) fn game_over(
    app: &App,
    view: &PlayerView,
    area: Rect,
    buf: &mut Buffer,
    hits: &mut Hits,
) {
    let theme = app.theme();
    let mut lines = vec![Line::from("")];
    lines.extend(outcome(app, view));
    lines.push(Line::from(""));
    lines.extend(final_scores(app, view));
    lines.extend(after_the_game(app));
    // Why a or r did nothing, under what the game left.
    if let Some(notice) = app.notice() {
        lines.push(Line::from(""));
        let notice = wrap(&[notice.to_string()], 46);
        lines.extend(notice.into_iter().map(|l| Line::styled(l, theme.error())));
    }
    let looks_back = u16::from(looks_back(app));
    let height = lines.len() as u16 + 4 + looks_back;
    let window = layout::window(area, 50, height);
    let title = if view.lives_left.is_some() {
        "Run over"
    } else {
        "Game over"
    };
    let inner = framed(title, window, buf, theme);
    Paragraph::new(lines)
        .alignment(ratatui::layout::HorizontalAlignment::Center)
        .render(inner, buf);
    game_over_buttons(app, inner, buf, hits);
}

/// How the game ended: the run's points and the lives it lasted, or who
/// won and after how many hands.
fn outcome(app: &App, view: &PlayerView) -> Vec<Line<'static>> {
    let theme = app.theme();
    let names = app.names();
    let mut lines = Vec::new();
    let hands = app.hands_played();
    let plural = if hands == 1 { "" } else { "s" };
    if view.lives_left.is_some() {
        let run = crate::engine::quick::run_side(view.mode());
        let lives = view.rules.game.lives;
        lines.push(Line::styled(
            format!(
                "{}: {} points in {hands} hand{plural}",
                names.side_in_full(run),
                theme.number(view.totals[run].score),
            ),
            theme.accent(),
        ));
        lines.push(Line::from(format!(
            "until the last of {lives} {} was lost",
            if lives == 1 { "life" } else { "lives" }
        )));
    } else {
        if let Some(winner) = view.winner {
            lines.push(Line::styled(
                format!("{}!", names.winners(winner)),
                theme.accent(),
            ));
        }
        lines.push(Line::from(format!(
            "after {hands} hand{plural}, playing to {}",
            view.rules.target_score
        )));
    }
    lines
}

/// Each side's final score, the winner's marked.
fn final_scores(app: &App, view: &PlayerView) -> Vec<Line<'static>> {
    let theme = app.theme();
    let names = app.names();
    let mut lines = Vec::new();
    for (side, totals) in view.totals.pairs() {
        let score = totals.score;
        let mark = if view.winner == Some(side) && view.lives_left.is_none() {
            "*"
        } else {
            " "
        };
        lines.push(Line::from(format!(
            "{mark} {:<28}{:>6}",
            names.side_in_full(side),
            theme.number(score)
        )));
    }
    lines
}

/// Below the scores: the change in the player's rating, where the deals
/// came from, and where the game was recorded.
fn after_the_game(app: &App) -> Vec<Line<'static>> {
    let theme = app.theme();
    let mut lines = Vec::new();
    if !app.rating_note().is_empty() {
        lines.push(Line::from(""));
    }
    for line in wrap(app.rating_note(), 46) {
        lines.push(Line::styled(line, theme.accent()));
    }
    // The records are read aside; the note shows once they are.
    if app.rating_pending() {
        lines.push(Line::from(""));
        lines.push(Line::styled(
            "Reading your records for the rating...",
            theme.dim(),
        ));
    }
    lines.push(Line::from(""));
    let mut notes = wrap(&deals_after_the_game(app), 46);
    if let Some(path) = app.record_path() {
        // A path has no spaces to wrap at: the folder and the file each get
        // a line, shortened from the left if they must be.
        let folder = path.parent().map(home_relative).unwrap_or_default();
        let file = path.file_name().map(|f| f.to_string_lossy().into_owned());
        notes.push(format!("Recorded in {}", tail(&folder, 34)));
        notes.extend(file.map(|f| tail(&f, 46)));
    }
    for line in notes {
        lines.push(Line::styled(line, theme.dim()));
    }
    lines
}

/// Are the review and the replay of the game just played offered? Only
/// for a game of this table's own, with its record.
fn looks_back(app: &App) -> bool {
    !app.is_shared() && app.record_path().is_some()
}

/// Play again or quit, and over them the review and the replay of the
/// game; at a shared table, only leave.
fn game_over_buttons(app: &App, inner: Rect, buf: &mut Buffer, hits: &mut Hits) {
    let theme = app.theme();
    let y = inner.bottom().saturating_sub(1);
    if looks_back(app) {
        let y = y.saturating_sub(1);
        let mut x = inner.x + inner.width.saturating_sub(42) / 2;
        let review = "a  Review the game";
        x += button(buf, x, y, review, false, theme, Target::ReviewGame, hits);
        button(
            buf,
            x,
            y,
            "r  Replay it",
            false,
            theme,
            Target::ReplayGame,
            hits,
        );
    }
    if app.is_shared() {
        // A shared table's game is the host's to start again.
        let leave = if app.config().from_lobby {
            "q  Back to the lobby"
        } else {
            "q  Leave"
        };
        let width = crate::outside::columns(leave) as u16 + 6;
        let x = inner.x + inner.width.saturating_sub(width) / 2;
        button(buf, x, y, leave, true, theme, Target::Quit, hits);
        return;
    }
    let mut x = inner.x + inner.width.saturating_sub(36) / 2;
    x += button(
        buf,
        x,
        y,
        "n  Play again",
        true,
        theme,
        Target::PlayAgain,
        hits,
    ) + 2;
    button(buf, x, y, "q  Quit", false, theme, Target::Quit, hits);
}

/// Where the deals came from, once the game is over: the revealed seed, and
/// how to check it against the commitment.
fn deals_after_the_game(app: &App) -> Vec<String> {
    match (app.open_seed(), app.revealed()) {
        (Some(seed), _) => vec![format!("Seed {seed} replays this game.")],
        (None, Some(reveal)) => {
            let short = app.commitment().map(|c| c.short().to_string());
            vec![
                format!("Dealt from seed {}, committed", reveal.seed),
                format!("at the start as {}...", short.unwrap_or_default()),
                "spades verify checks the record.".to_string(),
            ]
        }
        (None, None) => Vec::new(),
    }
}
