//! Bots think away from the table: the table hands a decision out, keeps
//! answering while it is thought about, and takes the answer back; a game
//! left while a bot thinks does not wait for it.

use std::sync::mpsc::channel;
use std::sync::{Arc, Barrier};

use spades::bots::normal::NormalBot;
use spades::bots::{Bot, BotRng, Level};
use spades::engine::{Bid, Card, CardSet, Mode, Phase, PlayerView};
use spades::fairness::Dealing;
use spades::table::{Player, Table};
use spades::tui::app::Overlay;
use spades::tui::{App, Input, Key, Speed, Theme};
use support::game::short;

/// `normal`, but each decision waits at a barrier until the test lets it
/// go: a bot that thinks for as long as the test likes.
struct Pondering {
    inner: NormalBot,
    gate: Arc<Barrier>,
}

impl Bot for Pondering {
    fn name(&self) -> &'static str {
        "normal"
    }
    fn fresh(&self) -> Box<dyn Bot> {
        Box::new(Pondering {
            inner: self.inner,
            gate: Arc::clone(&self.gate),
        })
    }
    fn blind_nil(&mut self, view: &PlayerView, rng: &mut BotRng) -> bool {
        self.gate.wait();
        self.inner.blind_nil(view, rng)
    }
    fn bid(&mut self, view: &PlayerView, rng: &mut BotRng) -> Bid {
        self.gate.wait();
        self.inner.bid(view, rng)
    }
    fn exchange(&mut self, view: &PlayerView, rng: &mut BotRng) -> CardSet {
        self.gate.wait();
        self.inner.exchange(view, rng)
    }
    fn play(&mut self, view: &PlayerView, rng: &mut BotRng) -> Card {
        self.gate.wait();
        self.inner.play(view, rng)
    }
}

fn pondering_table(gate: &Arc<Barrier>) -> Table {
    let players = (0..4)
        .map(|_| {
            Player::Bot(Box::new(Pondering {
                inner: NormalBot::default(),
                gate: Arc::clone(gate),
            }))
        })
        .collect();
    Table::new(short(Mode::Partnership, 200), Dealing::Open(3), players)
}

#[test]
fn a_decision_thought_about_elsewhere_plays_as_it_would_at_the_table() {
    // Thought about on threads, a game plays exactly as stepped in place.
    let gate = Arc::new(Barrier::new(1));
    let mut aside = pondering_table(&gate);
    let mut in_place = pondering_table(&gate);
    while aside.phase() != Phase::Over {
        if let Some(thinking) = aside.think() {
            let (tx, rx) = channel();
            std::thread::spawn(move || tx.send(thinking.think()).unwrap());
            aside.answer(rx.recv().unwrap()).expect("a legal answer");
        } else {
            assert!(aside.step_bot().is_some(), "a bot table deals on");
        }
        assert!(aside.results().len() < 100, "the game ends");
        in_place.step_bot().unwrap().unwrap();
        assert_eq!(aside.results(), in_place.results());
        for seat in Mode::Partnership.each_seat() {
            assert_eq!(aside.view(seat), in_place.view(seat));
        }
    }
}

#[test]
fn the_table_answers_while_a_bot_thinks_and_leaving_does_not_wait() {
    let gate = Arc::new(Barrier::new(2));
    let mut table = pondering_table(&gate);
    let thinking = table.think().expect("a bot's turn");
    let seat = thinking.seat();
    let thread = std::thread::spawn(move || thinking.think());
    // The bot is held at the gate: the table goes on answering.
    assert!(table.think().is_none(), "one decision out at a time");
    assert_eq!(table.bot_turn().map(|t| t.seat), Some(seat));
    assert!(!thread.is_finished());
    // Leaving while it thinks returns at once; the bot is let go after.
    table.leave();
    drop(table);
    assert!(!thread.is_finished(), "nobody waited for the bot");
    gate.wait();
    thread.join().expect("the bot finishes on its own");
}

#[test]
fn keys_are_answered_while_a_bot_is_thinking() {
    let mut config = support::tui::config(Mode::Partnership, 7);
    config.speed = Speed::Normal;
    config.game.difficulty = Level::Normal.into();
    let mut app = App::new(config, Theme::PLAIN).unwrap();
    let start = std::time::Instant::now();
    app.update(Input::Tick(start));
    assert!(app.is_thinking(), "the first bot thinks from its turn on");
    app.update(Input::Key(Key::Char('?')));
    assert_eq!(app.overlay(), Some(Overlay::Help));
    app.update(Input::Key(Key::Esc));
    app.update(Input::Key(Key::Char('q')));
    assert_eq!(app.overlay(), Some(Overlay::ConfirmQuit));
    app.update(Input::Key(Key::Char('y')));
    assert!(app.should_quit());
    let played = app.close();
    assert!(played.record_problem.is_none());
}
