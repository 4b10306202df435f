//! Keys at every moment of a trick's end, at every speed: no card is ever
//! played for the player but the one a key chose while the turn was on
//! screen (the card under the cursor, the card of the key pressed, the
//! card clicked), or a forced card auto-play plays after its full pause.

use std::time::{Duration, Instant};

use spades::engine::{Card, Decision, Mode, SeatEvent};
use spades::session::YOU;
use spades::tui::app::Screen;
use spades::tui::{App, CARD_KEYS, Input, Key, Speed, Target, Theme, hand_order};
use support::tui::*;

/// How the player presses, again and again.
#[derive(Debug, Clone, Copy)]
enum Press {
    Key(Key),
    /// A click on the hand's first card.
    ClickFirst,
}

/// What the player saw on the last frame drawn.
#[derive(Debug, Clone)]
struct Seen {
    /// The player's turn to play, with no finished trick over it.
    turn: bool,
    hand: Vec<Card>,
    cursor: Option<Card>,
    /// Only one card may be played.
    forced: bool,
    /// When this turn first showed.
    since: Instant,
}

fn my_plays(app: &App) -> Vec<Card> {
    app.events()
        .iter()
        .filter_map(|e| match e {
            SeatEvent::Play { seat, card, .. } if *seat == YOU => Some(*card),
            _ => None,
        })
        .collect()
}

/// What is on screen now (drawn, when the clicks need to know where).
fn look(app: &mut App, before: Option<&Seen>, clock: Instant, drawn: bool) -> Seen {
    if drawn {
        draw(app, 80, 24);
    }
    let turn = app.human_turn().map(|t| t.decision) == Some(Decision::Play)
        && app.held_trick().is_none()
        && app.screen() == Screen::Table;
    let view = app.hand_view();
    let hand = hand_order(view.cards());
    let since = match before {
        Some(b) if b.turn && turn && b.hand == hand => b.since,
        _ => clock,
    };
    Seen {
        turn,
        cursor: hand.get(app.hand_cursor()).copied(),
        forced: view.legal_plays().len() == 1,
        hand,
        since,
    }
}

/// The card a press would play, from what was on screen.
fn meant(press: Press, seen: &Seen) -> Option<Card> {
    match press {
        Press::Key(Key::Enter | Key::Space) => seen.cursor,
        Press::Key(Key::Char(c)) => {
            let place = CARD_KEYS.iter().position(|&k| char::from(k) == c)?;
            seen.hand.get(place).copied()
        }
        Press::Key(_) => None,
        Press::ClickFirst => seen.hand.first().copied(),
    }
}

fn send(app: &mut App, press: Press) {
    match press {
        Press::Key(key) => app.update(Input::Key(key)),
        Press::ClickFirst => {
            let first = hand_order(app.hand_view().cards()).first().copied();
            let spot = app
                .hits()
                .targets()
                .find(|(_, t)| first.is_some_and(|c| *t == Target::Card(c)))
                .map(|(area, _)| area);
            if let Some(area) = spot {
                app.update(Input::Click {
                    column: area.x + 1,
                    row: area.y + 1,
                });
            }
        }
    }
}

/// Plays hand 1 of `seed` at `speed`, pressing `press` every `every` steps
/// of 50 ms (and a legal card on a turn shown a full second, so play goes on),
/// checking every card the player plays.
fn play_hand(seed: u64, speed: Speed, press: Press, every: u32) {
    let pace = speed.pace();
    let mut config = config(Mode::Partnership, seed);
    config.speed = speed;
    let mut app = App::new(config, Theme::PLAIN).unwrap();
    let mut clock = Instant::now();
    tick_at(&mut app, clock);
    let mut seen: Option<Seen> = None;
    let what = format!("seed {seed}, {speed}, {press:?} every {every}");
    for step in 0..20_000u32 {
        if app.view().hand_no > 1 || app.screen() == Screen::Summary {
            return;
        }
        let now = look(
            &mut app,
            seen.as_ref(),
            clock,
            matches!(press, Press::ClickFirst),
        );
        // Bids are made plainly; only the play is watched.
        match app.human_turn().map(|t| t.decision) {
            Some(Decision::BlindNil) => app.update(Input::Key(Key::Char('c'))),
            Some(Decision::Bid) => app.update(Input::Key(Key::Enter)),
            _ => {}
        }
        // A turn shown a full second is answered with a legal card's key.
        let legal = app.hand_view().legal_plays();
        let unstick = now
            .hand
            .iter()
            .position(|&c| legal.contains(c))
            .map(|at| Press::Key(Key::Char(char::from(CARD_KEYS[at]))))
            .filter(|_| now.turn && clock >= now.since + Duration::from_secs(1));
        for press in [(step % every == 0).then_some(press), unstick]
            .into_iter()
            .flatten()
        {
            let before = my_plays(&app).len();
            send(&mut app, press);
            if let Some(&card) = my_plays(&app).get(before) {
                assert!(
                    now.turn,
                    "{what}: {press:?} played {card} with no turn on screen"
                );
                assert_eq!(
                    Some(card),
                    meant(press, &now),
                    "{what}: {press:?} at {step}"
                );
            }
        }
        let before = my_plays(&app).len();
        clock += Duration::from_millis(50);
        tick_at(&mut app, clock);
        if let Some(&card) = my_plays(&app).get(before) {
            assert!(
                now.turn && now.forced,
                "{what}: {card} played by itself at step {step}, not a forced card on screen: {now:?}"
            );
            assert!(
                clock >= now.since + pace.bot,
                "{what}: forced {card} played {:?} after its turn showed, before the pause of {:?}",
                clock - now.since,
                pace.bot
            );
        }
        seen = Some(now);
    }
    panic!("{what}: the hand never ended");
}

#[test]
fn no_card_is_played_but_the_one_a_key_chose_on_screen_or_a_forced_one() {
    for speed in Speed::ALL {
        for press in [
            Press::Key(Key::Space),
            Press::Key(Key::Enter),
            Press::Key(Key::Char('1')),
            Press::ClickFirst,
        ] {
            for every in [1, 3, 7] {
                play_hand(1, speed, press, every);
            }
        }
    }
}

/// The key of a legal card in the hand shown.
fn legal_key(app: &App) -> Key {
    let legal = app.hand_view().legal_plays();
    let hand = hand_order(app.hand_view().cards());
    let at = hand.iter().position(|&c| legal.contains(c)).unwrap();
    Key::Char(char::from(CARD_KEYS[at]))
}

/// While the player's only card waits its pause to be played for them,
/// the keys pressed for it (Enter, space, its key) are dropped: it is
/// played once, by auto-play, when the pause is over, and no key is left
/// over for the turn after it.
#[test]
fn keys_pressed_while_the_only_card_waits_are_dropped() {
    let speed = Speed::Normal;
    let mut config = config(Mode::Partnership, 1);
    config.speed = speed;
    let mut app = App::new(config, Theme::PLAIN).unwrap();
    let mut clock = Instant::now();
    tick_at(&mut app, clock);
    let mut forced_since: Option<Instant> = None;
    let mut forced_played = 0;
    for _ in 0..20_000u32 {
        if app.view().hand_no > 1 || app.screen() == Screen::Summary {
            break;
        }
        let turn = app.human_turn().map(|t| t.decision);
        match turn {
            Some(Decision::BlindNil) => app.update(Input::Key(Key::Char('c'))),
            Some(Decision::Bid) => app.update(Input::Key(Key::Enter)),
            _ => {}
        }
        let playing = turn == Some(Decision::Play)
            && app.held_trick().is_none()
            && app.screen() == Screen::Table;
        let forced = playing && app.hand_view().legal_plays().len() == 1;
        if forced {
            forced_since.get_or_insert(clock);
            let before = my_plays(&app).len();
            for key in [Key::Enter, Key::Space, legal_key(&app)] {
                app.update(Input::Key(key));
            }
            let played = my_plays(&app);
            assert_eq!(played.len(), before, "a key played {:?}", played.last());
        } else if playing {
            // A turn with a choice: its card, once the guard lets it.
            app.update(Input::Key(legal_key(&app)));
        }
        let before = my_plays(&app).len();
        clock += Duration::from_millis(50);
        tick_at(&mut app, clock);
        if my_plays(&app).len() > before
            && let Some(since) = forced_since.take()
        {
            assert!(forced, "a card played with no forced turn on screen");
            assert!(clock >= since + speed.pace().bot, "played before its pause");
            forced_played += 1;
        }
        if !forced {
            forced_since = None;
        }
    }
    assert!(forced_played >= 1, "the hand had no forced card");
}
