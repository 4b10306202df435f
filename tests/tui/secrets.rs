//! Nothing another seat holds reaches the player's screen, or the app
//! behind it, before it is played. Whole games are driven through the
//! TUI's `App`; after every key and tick the frame is drawn and every card
//! on it, and every event the app was handed, is checked against the deal
//! (worked out here from the open seed, which the app never sees as cards).

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use spades::bots::Level;
use spades::engine::{Card, CardSet, Deal, Decision, Mode, Phase, Rules, SeatEvent};
use spades::session::YOU;
use spades::tui::app::Screen;
use spades::tui::{App, Key, PlayConfig, Speed, Theme, view};
use support::tui::{chars, press, tick};

/// Symbols on screen, so a card reads as rank then suit: `10♠`, `K♥`.
const UNICODE: Theme = Theme::UNICODE;

/// Every card drawn in a frame of `width` x `height`.
fn cards_on_screen(app: &mut App, width: u16, height: u16) -> CardSet {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| {
            view::render(app, frame.area(), frame.buffer_mut());
        })
        .unwrap();
    let buffer = terminal.backend().buffer();
    let mut seen = CardSet::EMPTY;
    for y in 0..height {
        let row: String = (0..width)
            .map(|x| buffer[(x, y)].symbol().to_string())
            .collect();
        seen |= cards_in(&row);
    }
    seen
}

/// Cards written as rank then suit symbol in `text`.
fn cards_in(text: &str) -> CardSet {
    let chars: Vec<char> = text.chars().collect();
    let mut found = CardSet::EMPTY;
    for (i, &c) in chars.iter().enumerate() {
        let suit = match c {
            '♠' => 'S',
            '♥' => 'H',
            '♦' => 'D',
            '♣' => 'C',
            _ => continue,
        };
        let rank = match (
            i.checked_sub(2).map(|j| chars[j]),
            i.checked_sub(1).map(|j| chars[j]),
        ) {
            (Some('1'), Some('0')) => 'T',
            (_, Some(r)) if "23456789JQKA".contains(r) => r,
            _ => continue,
        };
        if let Ok(card) = format!("{rank}{suit}").parse::<Card>() {
            found.insert(card);
        }
    }
    found
}

/// The cards the player must not see now: every card another seat holds,
/// and the card out of play, less those played this hand and those that
/// passed through the player's hands in the exchange.
fn hidden(app: &App, seed: u64) -> CardSet {
    let view = app.view();
    let deal = Deal::from_seed(seed, view.hand_no, view.mode(), view.dealer);
    let mut others = deal.out;
    for (seat, cards) in deal.hands.pairs() {
        if seat != YOU {
            others |= *cards;
        }
    }
    let mut known = view.play.played | view.cards();
    // Once every card is played, the card out of play may be shown too.
    if view.play.tricks_done == view.mode().hand_size() {
        known |= deal.out;
    }
    if let Some(exchange) = view.exchange {
        known |= exchange.given.unwrap_or_default() | exchange.received.unwrap_or_default();
    }
    others.minus(known)
}

/// Checks the frame at two sizes and the events handed over since `told`.
fn check_now(app: &mut App, seed: u64, told: &mut usize, context: &str) {
    let mut hidden = hidden(app, seed);
    // A trick still shown (held on the table, or in the last-trick window)
    // that is not this hand's last is the previous hand's: those cards were
    // played, and the player saw them played.
    let view = app.view();
    for trick in [app.held_trick().map(|h| h.trick), app.last_trick().copied()]
        .into_iter()
        .flatten()
        .filter(|t| view.tricks.last() != Some(t))
    {
        hidden = hidden.minus(trick.cards.iter().flatten().copied().collect());
    }
    for (w, h) in [(80, 24), (120, 40)] {
        let leaked = cards_on_screen(app, w, h).intersect(hidden);
        if !leaked.is_empty() {
            let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
            t.draw(|f| {
                view::render(app, f.area(), f.buffer_mut());
            })
            .unwrap();
            eprintln!("{}", t.backend());
        }
        assert!(leaked.is_empty(), "{context}: {leaked} on a {w}x{h} screen");
    }
    for event in &app.events()[*told..] {
        match event {
            SeatEvent::Exchange {
                from, to, cards, ..
            } => assert!(
                cards.is_none() || *from == YOU || *to == YOU,
                "{context}: another pair's exchange shown: {event:?}"
            ),
            SeatEvent::Dealt { .. } => assert!(event.cards().is_empty()),
            _ => {}
        }
        assert!(
            event.cards().intersect(hidden).is_empty() || matches!(event, SeatEvent::Play { .. }),
            "{context}: {event:?} shows a hidden card"
        );
    }
    *told = app.events().len();
}

/// Plays a whole game as a player would, bidding blind nil when offered
/// in some games and peeking at the last trick now and then. Returns how
/// many exchanges the player took part in.
fn play_checking(mode: Mode, seed: u64, difficulty: &str) -> usize {
    let rules = Rules::classic(mode)
        .with(|r| {
            r.target_score = 150;
            r.losing_score = Some(-150);
            r.blind_nil.min_deficit = 0;
        })
        .unwrap();
    let config = {
        let mut config = PlayConfig::new(rules, seed);
        config.speed = Speed::Instant;
        config.game.difficulty = difficulty.parse().expect("a bot level");
        config
    };
    let mut app = App::new(config, UNICODE).unwrap();
    let mut told = 0;
    let mut step = 0u32;
    loop {
        step += 1;
        assert!(step < 20_000, "{mode} seed {seed}: the game never ended");
        let context = format!("{mode} seed {seed} step {step}");
        check_now(&mut app, seed, &mut told, &context);
        if app.screen() == Screen::GameOver {
            assert_eq!(app.view().phase, Phase::Over);
            return app
                .events()
                .iter()
                .filter(|e| matches!(e, SeatEvent::Exchange { cards: Some(_), .. }))
                .count();
        }
        if app.screen() == Screen::Summary {
            press(&mut app, &[Key::Enter]);
            continue;
        }
        match app.human_turn().map(|t| t.decision) {
            Some(Decision::BlindNil) => {
                chars(&mut app, if seed.is_multiple_of(2) { "b" } else { "c" })
            }
            Some(Decision::Bid) => {
                chars(&mut app, "2");
                press(&mut app, &[Key::Enter]);
            }
            Some(Decision::Exchange) => {
                let count = app.view().exchange.map_or(0, |e| e.count);
                for i in 0..count {
                    chars(&mut app, &(i + 1).to_string());
                    check_now(&mut app, seed, &mut told, &context);
                }
                press(&mut app, &[Key::Enter]);
            }
            Some(Decision::Play) => {
                if step.is_multiple_of(7) && app.last_trick().is_some() {
                    chars(&mut app, "t");
                    check_now(&mut app, seed, &mut told, &context);
                    press(&mut app, &[Key::Esc]);
                }
                press(&mut app, &[Key::Enter]);
            }
            None => tick(&mut app),
        }
    }
}

#[test]
fn no_frame_or_event_shows_a_card_before_it_is_played() {
    let mut exchanges = 0;
    for mode in Mode::ALL {
        for seed in 0..4u64 {
            let difficulty = if seed.is_multiple_of(2) {
                "normal"
            } else {
                "random"
            };
            exchanges += play_checking(mode, seed, difficulty);
        }
    }
    assert!(
        exchanges > 0,
        "the games must include the player's exchanges"
    );
}

#[test]
fn the_check_catches_a_hidden_card_on_screen() {
    // The scanner reads cards as the screen draws them, and a card of
    // another seat's hand counts as hidden until it is played.
    assert_eq!(cards_in("│10♠ K♥ x2♣ 9"), "TS KH 2C".parse().unwrap());
    let config = {
        let mut config = PlayConfig::new(Rules::default(), 3);
        config.speed = Speed::Instant;
        config.game.difficulty = Level::Random.into();
        config
    };
    let app = App::new(config, UNICODE).unwrap();
    let view = app.view();
    let deal = Deal::from_seed(3, 1, Mode::Partnership, view.dealer);
    let west = deal.hands[spades::engine::Seat::new(1)];
    assert_eq!(hidden(&app, 3).intersect(west), west);
    assert!(hidden(&app, 3).intersect(view.cards()).is_empty());
}
