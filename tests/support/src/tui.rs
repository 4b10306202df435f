//! Drives the TUI's `App` without a terminal: inputs in, frames out.

use std::time::Instant;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use spades::bots::Level;
use spades::engine::{Decision, Mode, Phase, Rules};
use spades::tui::app::Screen;
use spades::tui::{App, Input, Key, PlayConfig, Speed, Theme, view};

pub fn config(mode: Mode, seed: u64) -> PlayConfig {
    let mut config = PlayConfig {
        speed: Speed::Instant,
        ascii: true,
        ..PlayConfig::new(Rules::classic(mode), seed)
    };
    config.game.difficulty = Level::Random.into();
    config
}

pub fn app(config: PlayConfig) -> App {
    let mut app = App::new(config, Theme::PLAIN).expect("a valid config");
    tick(&mut app);
    app
}

pub fn tick(app: &mut App) {
    tick_at(app, Instant::now());
}

pub fn press(app: &mut App, keys: &[Key]) {
    for &k in keys {
        app.update(Input::Key(k));
        tick(app);
    }
}

pub fn chars(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, &[Key::Char(c)]);
    }
}

/// Draws the app at a size, as the terminal would, and keeps the click map.
pub fn draw(app: &mut App, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test terminal");
    let mut hits = None;
    terminal
        .draw(|frame| hits = Some(view::render(app, frame.area(), frame.buffer_mut())))
        .expect("draw");
    app.set_hits(hits.unwrap_or_default());
    terminal
}

pub fn screen_text(app: &mut App, width: u16, height: u16) -> String {
    draw(app, width, height).backend().to_string()
}

/// One plain answer to whatever the game asks: look at the cards, bid 2,
/// pass the first cards, play the first legal card, move past summaries.
pub fn answer(app: &mut App) {
    if app.screen() == Screen::Summary {
        return press(app, &[Key::Enter]);
    }
    match app.human_turn().map(|t| t.decision) {
        Some(Decision::BlindNil) => chars(app, "c"),
        Some(Decision::Bid) => {
            chars(app, "2");
            press(app, &[Key::Enter]);
        }
        Some(Decision::Exchange) => {
            let count = app.view().exchange.map_or(0, |e| e.count);
            for i in 0..count {
                chars(app, &(i + 1).to_string());
            }
            press(app, &[Key::Enter]);
        }
        Some(Decision::Play) => press(app, &[Key::Enter]),
        None => tick(app),
    }
}

/// Answers until `done` holds; panics if the game ends first.
pub fn play_until(app: &mut App, mut done: impl FnMut(&App) -> bool) {
    for _ in 0..10_000 {
        if done(app) {
            return;
        }
        assert!(
            app.view().phase != Phase::Over || app.screen() != Screen::GameOver,
            "the game ended first"
        );
        answer(app);
    }
    panic!("never got there");
}

/// An app whose short game (to 60, or down to -60) has been played out.
pub fn finished_game() -> App {
    finished_game_with(|_| {})
}

/// `finished_game`, with its config changed first.
pub fn finished_game_with(change: impl FnOnce(&mut PlayConfig)) -> App {
    let mut config = config(Mode::Partnership, 7);
    config.game.rules = crate::game::short(Mode::Partnership, 60);
    change(&mut config);
    let mut app = app(config);
    play_until(&mut app, |a| a.screen() == Screen::GameOver);
    wait_for_rating(&mut app);
    app
}

/// Waits while the records are read aside (the game-over note on the
/// rating), so a test sees the note whatever the machine's load.
pub fn wait_for_rating(app: &mut App) {
    let started = Instant::now();
    while app.reading_records() {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(30),
            "the rating's note never came"
        );
        std::thread::sleep(std::time::Duration::from_millis(1));
        // An update that lets no time pass: the answer is taken in.
        app.update(Input::Resize);
    }
}

/// Lets time pass as the app sees it: a tick at `at`. A bot due to act
/// then thinks on a thread of its own: its answer is waited for, so a test
/// sees the same table whatever the machine's load.
pub fn tick_at(app: &mut App, at: Instant) {
    app.update(Input::Tick(at));
    let started = Instant::now();
    // A hint the player asked for, the records read aside for a window
    // and a claim being checked are waited for the same way.
    while app.waits_for_bot() || app.hint_pending() || app.reading_records() || app.checking_claim()
    {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(30),
            "a bot or a hint never answered"
        );
        std::thread::sleep(std::time::Duration::from_millis(1));
        app.update(Input::Tick(at));
    }
}
