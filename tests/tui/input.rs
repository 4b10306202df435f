//! Keys and clicks drive the game through `App::update` alone, with no
//! terminal: a bid, a trick, refusals, pacing and quitting.

use std::time::{Duration, Instant};

use spades::engine::{Bid, Card, Decision, Mode, SeatEvent};
use spades::session::YOU;
use spades::tui::app::{Overlay, Screen};
use spades::tui::{App, Input, Key, Speed, Theme};
use spades::tui::{Target, hand_order};
use support::tui::*;

fn decision(app: &App) -> Option<Decision> {
    app.human_turn().map(|t| t.decision)
}

fn click(app: &mut App, target: Target) {
    draw(app, 80, 24);
    let (area, _) = *app
        .hits()
        .targets()
        .find(|(_, t)| *t == target)
        .unwrap_or_else(|| panic!("{target:?} is not on screen"));
    app.update(Input::Click {
        column: area.x + area.width / 2,
        row: area.y,
    });
    tick(app);
}

#[test]
fn keys_bid_then_play_a_whole_trick() {
    let mut app = app(config(Mode::Partnership, 7));
    assert_eq!(decision(&app), Some(Decision::Bid));
    // "1" then "2" is twelve; Left steps back to eleven.
    chars(&mut app, "12");
    press(&mut app, &[Key::Left, Key::Enter]);
    assert_eq!(app.view().bids()[YOU], Some(Bid::Tricks(11)));

    play_until(&mut app, |a| decision(a) == Some(Decision::Play));
    let view = app.view();
    let hand = hand_order(view.cards());
    let legal = view.legal_plays();
    // Walk the cursor to the first legal card from the far left, then play it.
    press(&mut app, &[Key::Left; 13]);
    assert_eq!(app.hand_cursor(), 0, "the cursor may rest on any card");
    let steps = hand.iter().position(|&c| legal.contains(c)).unwrap();
    for _ in 0..steps {
        press(&mut app, &[Key::Right]);
    }
    let before = app.view().play.tricks_done;
    press(&mut app, &[Key::Enter]);
    let played = SeatEvent::Play {
        hand: 1,
        seat: YOU,
        card: hand[steps],
    };
    assert!(app.events().contains(&played), "{:?}", app.events());
    // Instant speed: the bots finish the trick at once.
    play_until(&mut app, |a| a.view().play.tricks_done > before);
    assert!(app.last_trick().unwrap().cards[YOU] == Some(hand[steps]));
}

#[test]
fn an_illegal_card_is_refused_with_the_engines_reason() {
    let mut app = app(config(Mode::Partnership, 7));
    play_until(&mut app, |a| {
        decision(a) == Some(Decision::Play) && a.view().led_suit().is_some()
    });
    let view = app.view();
    let led = view.led_suit().unwrap();
    let hand = hand_order(view.cards());
    let place = hand
        .iter()
        .position(|&c| !view.legal_plays().contains(c))
        .expect("seed 7 holds a card that cannot follow");
    let key = char::from(spades::tui::CARD_KEYS[place]);
    chars(&mut app, &key.to_string());
    assert_eq!(app.view().cards(), view.cards(), "nothing was played");
    assert_eq!(
        app.notice(),
        Some(format!("You must follow {led}.").as_str())
    );
}

#[test]
fn mouse_bids_and_plays() {
    let mut app = app(config(Mode::Partnership, 7));
    // A click chooses a bid; a second click on it makes it.
    click(&mut app, Target::Bid(Bid::Tricks(3)));
    assert_eq!(app.view().bids()[YOU], None, "chosen, not yet made");
    click(&mut app, Target::Bid(Bid::Tricks(3)));
    assert_eq!(app.view().bids()[YOU], Some(Bid::Tricks(3)));
    play_until(&mut app, |a| decision(a) == Some(Decision::Play));
    let view = app.view();
    let card: Card = hand_order(view.cards())
        .into_iter()
        .find(|&c| view.legal_plays().contains(c))
        .unwrap();
    click(&mut app, Target::Card(card));
    assert!(app.events().iter().any(|e| matches!(e,
        SeatEvent::Play { seat, card: c, .. } if *seat == YOU && *c == card)));
}

#[test]
fn blind_nil_offer_then_look() {
    let mut config = config(Mode::Partnership, 7);
    config.game.rules = config
        .game
        .rules
        .with(|r| {
            r.blind_nil.min_deficit = 0;
        })
        .expect("valid rules");
    let mut app = app(config);
    assert_eq!(decision(&app), Some(Decision::BlindNil));
    assert!(app.view().hand.is_none());
    // Clicking a card does nothing while they are face down.
    draw(&mut app, 80, 24);
    assert!(
        !app.hits()
            .targets()
            .any(|(_, t)| matches!(t, Target::Card(_)))
    );
    click(&mut app, Target::Offer(spades::tui::OfferChoice::Look));
    assert!(app.view().hand.is_some());
    assert_eq!(decision(&app), Some(Decision::Bid));
    // Blind nil is gone now, and the engine says why.
    chars(&mut app, "b");
    assert_eq!(
        app.notice(),
        Some("Blind nil is not allowed: you have already looked at your cards.")
    );
}

#[test]
fn blind_nil_then_pass_two_cards() {
    let mut config = config(Mode::Partnership, 7);
    config.game.rules = config
        .game
        .rules
        .with(|r| {
            r.blind_nil.min_deficit = 0;
        })
        .expect("valid rules");
    let mut app = app(config);
    chars(&mut app, "b");
    assert_eq!(app.view().bids()[YOU], Some(Bid::BlindNil));
    play_until(&mut app, |a| decision(a) == Some(Decision::Exchange));
    // One card is not enough: the engine says how many.
    chars(&mut app, "1");
    press(&mut app, &[Key::Enter]);
    assert_eq!(app.notice(), Some("Pass exactly 2 cards (you chose 1)."));
    press(&mut app, &[Key::Right, Key::Space, Key::Enter]);
    assert!(app.events().iter().any(
        |e| matches!(e, SeatEvent::Exchange { from, to, .. } if from.index() == 0 && to.index() == 2)
    ));
    assert_eq!(app.view().cards().len(), 13);
}

#[test]
fn bots_act_one_at_a_time_at_normal_speed() {
    let mut config = config(Mode::Partnership, 7);
    config.speed = Speed::Normal;
    let mut app = App::new(config, Theme::PLAIN).unwrap();
    let start = Instant::now();
    let at = |ms| start + Duration::from_millis(ms);
    let count = |app: &App| app.events().len();
    tick_at(&mut app, at(0));
    assert_eq!(
        count(&app),
        1,
        "only the deal: the first bot waits its turn"
    );
    tick_at(&mut app, at(100));
    assert_eq!(count(&app), 1, "still within the pause");
    tick_at(&mut app, at(700));
    assert_eq!(count(&app), 2, "one bid after the pause");
    app.update(Input::Key(Key::Enter));
    assert_eq!(app.notice(), Some("Wait: it is East's turn."));
    tick_at(&mut app, at(700));
    assert_eq!(count(&app), 2, "the next bot waits again");
    tick_at(&mut app, at(1400));
    assert_eq!(count(&app), 3);
    assert_eq!(app.notice(), None, "a wait notice goes once someone moves");
}

#[test]
fn a_key_lifts_a_finished_trick() {
    let mut config = config(Mode::Partnership, 7);
    config.speed = Speed::Slow;
    let mut app = App::new(config, Theme::PLAIN).unwrap();
    let start = Instant::now();
    let mut t = 0;
    while app.held_trick().is_none() {
        t += 10;
        tick_at(&mut app, start + Duration::from_secs(t));
        if decision(&app) == Some(Decision::Bid) {
            app.update(Input::Key(Key::Char('2')));
        }
        app.update(Input::Key(Key::Enter));
    }
    let bot_events = app.events().len();
    tick_at(&mut app, start + Duration::from_secs(t));
    assert!(app.held_trick().is_some(), "it stays while its pause runs");
    app.update(Input::Key(Key::Char('x')));
    assert!(app.held_trick().is_none());
    assert_eq!(app.events().len(), bot_events, "the key did nothing else");
}

#[test]
fn quitting_asks_mid_game_and_ctrl_c_does_not() {
    let mut app = app(config(Mode::Partnership, 7));
    chars(&mut app, "q");
    assert_eq!(app.overlay(), Some(Overlay::ConfirmQuit));
    chars(&mut app, "n");
    assert_eq!(app.overlay(), None);
    assert!(!app.should_quit());
    chars(&mut app, "qy");
    assert!(app.should_quit());

    let mut app = self::app(config(Mode::Partnership, 7));
    press(&mut app, &[Key::Interrupt]);
    assert!(app.should_quit());
}

#[test]
fn help_rules_and_last_trick_open_and_close() {
    let mut app = app(config(Mode::Partnership, 7));
    chars(&mut app, "t");
    assert_eq!(app.overlay(), None);
    assert_eq!(app.notice(), Some("No trick has been played yet."));
    for (key, overlay) in [('?', Overlay::Help), ('r', Overlay::Rules)] {
        chars(&mut app, &key.to_string());
        assert_eq!(app.overlay(), Some(overlay));
        // Keys meant for the game do nothing while a window is open.
        chars(&mut app, "5");
        assert_eq!(app.view().bids()[YOU], None);
        press(&mut app, &[Key::Esc]);
        assert_eq!(app.overlay(), None);
    }
}

#[test]
fn game_over_offers_a_new_game_with_a_new_seed() {
    let mut app = finished_game();
    assert_eq!(app.screen(), Screen::GameOver);
    click(&mut app, Target::PlayAgain);
    assert_eq!(app.screen(), Screen::Table);
    let next = app.open_seed().expect("an open seed leads to another");
    assert_ne!(next, 7);
    assert_eq!(app.view().hand_no, 1);
    chars(&mut app, "q");
    assert!(!app.should_quit(), "mid-game again, so it asks");
}

#[test]
fn unknown_difficulty_is_refused_before_play() {
    // No table is given a level that does not exist: it is refused where
    // it is read, and the message names it.
    let error = "grandmaster"
        .parse::<spades::bots::BotSpec>()
        .expect_err("refused");
    assert!(
        error.to_string().contains("unknown bot `grandmaster`"),
        "{error}"
    );
}
