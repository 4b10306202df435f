//! The table for low vision and colour blindness: the four-colour deck,
//! the high-contrast theme, and the signs that tell without colour what
//! may be played and which card is winning the trick. Text snapshots show
//! the signs; the colours are read from the drawn cells.

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};
use spades::engine::{Decision, Mode, Phase, Suit};
use spades::tui::app::Screen;
use spades::tui::{App, Key, PlayConfig, Theme};
use support::tui::*;

const FOUR_COLOR: Theme = Theme {
    color: true,
    four_color: true,
    ..Theme::UNICODE
};

const HIGH_CONTRAST: Theme = Theme {
    color: true,
    high_contrast: true,
    ..Theme::UNICODE
};

/// High contrast under `NO_COLOR`: bold and reverse only.
const HIGH_CONTRAST_NO_COLOR: Theme = Theme {
    high_contrast: true,
    ..Theme::UNICODE
};

fn themed(config: PlayConfig, theme: Theme) -> App {
    let mut app = App::new(config, theme).expect("a valid config");
    tick(&mut app);
    app
}

fn my_turn_to_play_mid_trick(app: &App) -> bool {
    app.human_turn().map(|t| t.decision) == Some(Decision::Play)
        && app.view().play.trick.iter().flatten().count() >= 2
}

fn buffer(app: &mut App) -> Buffer {
    draw(app, 80, 24).backend().buffer().clone()
}

/// The cells of the hand's faces, by the suit sign in them.
fn suit_cells(buf: &Buffer, row: u16, suit: Suit) -> Vec<ratatui::buffer::Cell> {
    let sign = suit.symbol().to_string();
    (0..buf.area.width)
        .map(|x| buf[(x, row)].clone())
        .filter(|c| c.symbol() == sign)
        .collect()
}

/// The row of the hand's faces at 80x24.
const FACES: u16 = 17;

#[test]
fn the_four_colour_deck_gives_each_suit_its_ink() {
    // Bidding: every card of the hand is drawn in full, none faded.
    let mut app = themed(config(Mode::Partnership, 7), FOUR_COLOR);
    let buf = buffer(&mut app);
    let ink = |suit| {
        let cells = suit_cells(&buf, FACES, suit);
        assert!(!cells.is_empty(), "seed 7 holds {suit:?}");
        for c in &cells {
            assert_eq!(c.bg, Color::White, "{suit:?} on the card's white");
        }
        cells[0].fg
    };
    let inks = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs].map(ink);
    assert_eq!(
        inks,
        [
            Color::Black,
            Color::Red,
            Color::Indexed(20),
            Color::Indexed(28)
        ]
    );
    // The classic deck: diamonds red as hearts, clubs black as spades.
    let classic = Theme {
        color: true,
        ..Theme::UNICODE
    };
    let mut app = themed(config(Mode::Partnership, 7), classic);
    let buf = buffer(&mut app);
    assert_eq!(suit_cells(&buf, FACES, Suit::Diamonds)[0].fg, Color::Red);
    assert_eq!(suit_cells(&buf, FACES, Suit::Clubs)[0].fg, Color::Black);
}

#[test]
fn the_four_colour_deck_reaches_the_table_and_the_replay_s_hands() {
    let mut app = themed(config(Mode::Partnership, 7), FOUR_COLOR);
    play_until(&mut app, my_turn_to_play_mid_trick);
    // Seed 7: clubs are led; the ace of clubs lies on the table.
    let buf = buffer(&mut app);
    let on_table: Vec<_> = (5..15)
        .flat_map(|y| suit_cells(&buf, y, Suit::Clubs))
        .collect();
    assert!(!on_table.is_empty());
    assert!(on_table.iter().all(|c| c.fg == Color::Indexed(28)));
    // The hand's review lays every hand face up in suit rows.
    play_until(&mut app, |a| a.screen() == Screen::Summary);
    chars(&mut app, "v");
    assert_eq!(app.screen(), Screen::Review);
    let buf = buffer(&mut app);
    let diamonds: Vec<_> = (0..24)
        .flat_map(|y| suit_cells(&buf, y, Suit::Diamonds))
        .collect();
    assert!(!diamonds.is_empty(), "the review shows diamonds");
    assert!(diamonds.iter().all(|c| c.fg == Color::Indexed(20)));
}

/// Every cell of a screen in high contrast: nothing faint, nothing grey,
/// all of it on black.
fn nothing_faint(buf: &Buffer, screen: &str, black: bool) {
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            let cell = &buf[(x, y)];
            assert!(
                !cell.modifier.contains(Modifier::DIM),
                "{screen}: ({x}, {y}) {:?} is dim",
                cell.symbol()
            );
            assert!(
                ![Color::DarkGray, Color::Gray].contains(&cell.fg),
                "{screen}: ({x}, {y}) {:?} is grey",
                cell.symbol()
            );
            if black && cell.bg != Color::White {
                assert_eq!(cell.bg, Color::Black, "{screen}: ({x}, {y}) on black");
            }
        }
    }
}

/// The screens a game passes through, in a theme: bidding, the help, a
/// trick being played, a card refused, the hand's score, its review, the
/// game's end.
fn every_screen(theme: Theme, mut look: impl FnMut(&Buffer, &str)) {
    let mut config = config(Mode::Partnership, 7);
    config.game.rules = support::game::short(Mode::Partnership, 60);
    let mut app = themed(config, theme);
    look(&buffer(&mut app), "bidding");
    chars(&mut app, "?");
    look(&buffer(&mut app), "help");
    press(&mut app, &[Key::Esc]);
    play_until(&mut app, my_turn_to_play_mid_trick);
    look(&buffer(&mut app), "mid trick");
    chars(&mut app, "1");
    look(&buffer(&mut app), "refused");
    chars(&mut app, "m");
    look(&buffer(&mut app), "cards played");
    chars(&mut app, "m");
    // The refused card holds the cursor: play a legal one by its key.
    let view = app.view();
    let hand = spades::tui::hand_order(view.cards());
    let legal = hand.iter().position(|&c| view.legal_plays().contains(c));
    let key = spades::tui::CARD_KEYS[legal.expect("a legal card")];
    chars(&mut app, &char::from(key).to_string());
    play_until(&mut app, |a| a.screen() == Screen::Summary);
    look(&buffer(&mut app), "summary");
    chars(&mut app, "v");
    look(&buffer(&mut app), "review");
    press(&mut app, &[Key::Esc]);
    play_until(&mut app, |a| a.screen() == Screen::GameOver);
    look(&buffer(&mut app), "game over");
}

#[test]
fn high_contrast_dims_nothing_on_any_screen() {
    every_screen(HIGH_CONTRAST, |buf, screen| {
        nothing_faint(buf, screen, true)
    });
    every_screen(HIGH_CONTRAST_NO_COLOR, |buf, screen| {
        nothing_faint(buf, screen, false)
    });
}

#[test]
fn the_classic_theme_still_dims_what_may_not_be_played() {
    let classic = Theme {
        color: true,
        ..Theme::UNICODE
    };
    let mut app = themed(config(Mode::Partnership, 7), classic);
    play_until(&mut app, my_turn_to_play_mid_trick);
    let buf = buffer(&mut app);
    // Seed 7: clubs led, the hand opens with spades, which may not be played.
    let spades = suit_cells(&buf, FACES, Suit::Spades);
    assert!(spades.iter().all(|c| c.modifier.contains(Modifier::DIM)));
    let clubs = suit_cells(&buf, FACES, Suit::Clubs);
    assert!(clubs.iter().all(|c| c.modifier.contains(Modifier::BOLD)));
}

#[test]
fn high_contrast_tells_playable_cards_by_bold_and_a_sign_not_by_fading() {
    for theme in [HIGH_CONTRAST, HIGH_CONTRAST_NO_COLOR] {
        let mut app = themed(config(Mode::Partnership, 7), theme);
        play_until(&mut app, my_turn_to_play_mid_trick);
        let buf = buffer(&mut app);
        let spades = suit_cells(&buf, FACES, Suit::Spades);
        let clubs = suit_cells(&buf, FACES, Suit::Clubs);
        assert!(spades.iter().all(|c| !c.modifier.contains(Modifier::BOLD)));
        assert!(clubs.iter().all(|c| c.modifier.contains(Modifier::BOLD)));
        // The cursor is reversed, with colour or without.
        let reversed = (0..80)
            .filter(|&x| buf[(x, FACES)].modifier.contains(Modifier::REVERSED))
            .count();
        assert!(reversed > 0, "the cursor shows");
    }
}

/// The hand's faces and, over each, whether its top edge is raised.
fn raised_cards(screen: &str) -> Vec<(String, bool)> {
    let lines: Vec<&str> = screen.lines().collect();
    let (top, faces) = (lines[16], lines[17]);
    let top: Vec<char> = top.chars().collect();
    let faces: Vec<char> = faces.chars().collect();
    let mut cards = Vec::new();
    for x in 0..faces.len().saturating_sub(4) {
        if faces[x] == '|' && faces[x + 4] == '|' {
            let face: String = faces[x + 1..x + 4].iter().collect();
            let edge: String = top[x + 1..x + 4].iter().collect();
            cards.push((face.trim().to_string(), edge == "==="));
        }
    }
    cards
}

#[test]
fn the_cards_that_may_be_played_are_raised_in_every_theme() {
    for theme in [Theme::PLAIN, FOUR_COLOR, HIGH_CONTRAST] {
        let theme = Theme {
            ascii: true,
            ..theme
        };
        let mut app = themed(config(Mode::Partnership, 7), theme);
        // Bidding: nothing is raised; the cards are not being played.
        let bidding = raised_cards(&screen_text(&mut app, 80, 24));
        assert_eq!(bidding.len(), 13);
        assert!(bidding.iter().all(|(_, raised)| !raised));
        play_until(&mut app, my_turn_to_play_mid_trick);
        let view = app.view();
        let legal: Vec<String> = spades::tui::hand_order(view.legal_plays())
            .into_iter()
            .map(|c| Theme::PLAIN.card(c))
            .collect();
        let raised: Vec<String> = raised_cards(&screen_text(&mut app, 80, 24))
            .into_iter()
            .filter(|(_, raised)| *raised)
            .map(|(face, _)| face)
            .collect();
        assert!(legal.len() < 13, "seed 7 must follow clubs");
        assert_eq!(raised, legal);
    }
}

#[test]
fn the_card_winning_the_trick_is_starred_and_only_it() {
    let mut app = themed(config(Mode::Partnership, 7), Theme::PLAIN);
    play_until(&mut app, my_turn_to_play_mid_trick);
    let view = app.view();
    let winner = view.play.winning.expect("a trick under way");
    let card = view.play.trick[winner].expect("the winner's card");
    let screen = screen_text(&mut app, 80, 24);
    let lines: Vec<&str> = screen.lines().collect();
    // The starred box's face sits a row under its top corners.
    let starred: Vec<String> = lines
        .iter()
        .enumerate()
        .filter_map(|(y, line)| {
            // The top corners: the bottom ones have no face under them.
            let x = line.find("*---*")?;
            let under = lines.get(y + 1)?;
            (under.as_bytes()[x] == b'|').then(|| under[x + 1..x + 4].trim().to_string())
        })
        .collect();
    assert_eq!(starred, [Theme::PLAIN.card(card)], "{screen}");
    // A trick of one card has no contest: nothing starred.
    let mut app = themed(config(Mode::Partnership, 7), Theme::PLAIN);
    play_until(&mut app, |a| {
        a.view().play.trick.iter().flatten().count() == 1
    });
    assert!(!screen_text(&mut app, 80, 24).contains("*---*"));
}

/// The screen as text, drawn from an app the caller may not change.
fn text_of(app: &App) -> String {
    let area = ratatui::layout::Rect::new(0, 0, 80, 24);
    let mut buf = Buffer::empty(area);
    spades::tui::view::render(app, area, &mut buf);
    (0..24)
        .map(|y| (0..80).map(|x| buf[(x, y)].symbol()).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The marker stands at the seat the table waits for, and only there.
fn marked_alone(app: &App, mode: Mode) {
    let Some(seat) = app.waiting_for() else {
        return;
    };
    let screen = text_of(app);
    let name = app.names().seat(seat).to_string();
    assert_eq!(screen.matches("> ").count(), 1, "{mode:?}\n{screen}");
    assert!(screen.contains(&format!("> {name} ")), "{mode:?}\n{screen}");
}

#[test]
fn whose_turn_is_marked_by_a_sign_at_every_seat_and_phase() {
    for mode in [Mode::Partnership, Mode::Cutthroat, Mode::Dummy] {
        // At a bot's pace the table is seen waiting for each seat in turn.
        let config = PlayConfig {
            speed: spades::tui::Speed::Fast,
            ..config(mode, 7)
        };
        let mut app = themed(config, Theme::PLAIN);
        let mut seen = Vec::new();
        let started = std::time::Instant::now();
        while app.view().play.tricks_done < 1 {
            assert!(started.elapsed().as_secs() < 60, "{mode:?}: stuck");
            if app.screen() == Screen::Table && app.held_trick().is_none() {
                marked_alone(&app, mode);
                let at = (app.waiting_for(), app.view().phase);
                if !seen.contains(&at) {
                    seen.push(at);
                }
            }
            if app.human_turn().is_some() && !app.key_held_back() {
                answer(&mut app);
            } else {
                std::thread::sleep(std::time::Duration::from_millis(10));
                tick(&mut app);
            }
        }
        // Every seat that bids was seen bidding, and every seat playing.
        for seat in mode.each_seat() {
            if mode.is_player(seat) {
                assert!(
                    seen.contains(&(Some(seat), Phase::Bidding)),
                    "{mode:?} {seat:?}"
                );
            }
            assert!(
                seen.contains(&(Some(seat), Phase::Playing)),
                "{mode:?} {seat:?}"
            );
        }
    }
}

#[test]
fn four_colour_and_high_contrast_tables() {
    for (name, theme) in [
        ("four_color_mid_trick_80x24", FOUR_COLOR),
        ("high_contrast_mid_trick_80x24", HIGH_CONTRAST),
    ] {
        let mut app = themed(config(Mode::Partnership, 7), theme);
        play_until(&mut app, my_turn_to_play_mid_trick);
        insta::assert_snapshot!(name, screen_text(&mut app, 80, 24));
    }
    let mut app = themed(config(Mode::Partnership, 7), HIGH_CONTRAST_NO_COLOR);
    insta::assert_snapshot!("high_contrast_bidding_80x24", screen_text(&mut app, 80, 24));
}
