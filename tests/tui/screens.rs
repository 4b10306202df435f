//! Snapshots of the main screens, drawn as plain text (ASCII suits, no
//! colour) so they read well in review and never depend on the terminal.

use spades::engine::{Decision, Mode, Phase};
use spades::tui::app::Screen;
use spades::tui::{Key, PlayConfig};
use support::tui::*;

fn my_turn_to_play_mid_trick(app: &spades::tui::App) -> bool {
    app.human_turn().map(|t| t.decision) == Some(Decision::Play)
        && app.view().play.trick.iter().any(Option::is_some)
}

fn blind_nil_on_offer(mode: Mode) -> PlayConfig {
    let mut config = config(mode, 7);
    config.game.rules = config
        .game
        .rules
        .with(|r| {
            r.blind_nil.min_deficit = 0;
        })
        .expect("valid rules");
    config
}

#[test]
fn bidding() {
    let mut app = app(config(Mode::Partnership, 7));
    assert_eq!(app.human_turn().map(|t| t.decision), Some(Decision::Bid));
    chars(&mut app, "4");
    insta::assert_snapshot!("bidding_80x24", screen_text(&mut app, 80, 24));
    insta::assert_snapshot!("bidding_120x40", screen_text(&mut app, 120, 40));
}

#[test]
fn blind_nil_offer_keeps_cards_face_down() {
    let mut app = app(blind_nil_on_offer(Mode::Partnership));
    assert_eq!(
        app.human_turn().map(|t| t.decision),
        Some(Decision::BlindNil)
    );
    assert_eq!(app.view().hand, None);
    let screen = screen_text(&mut app, 80, 24);
    assert!(screen.contains("|###|###|"), "cards are face down");
    insta::assert_snapshot!("blind_nil_offer_80x24", screen);
}

#[test]
fn exchange_after_my_blind_nil() {
    let mut app = app(blind_nil_on_offer(Mode::Partnership));
    chars(&mut app, "b");
    play_until(&mut app, |a| {
        a.human_turn().map(|t| t.decision) == Some(Decision::Exchange)
    });
    chars(&mut app, "1");
    insta::assert_snapshot!("exchange_80x24", screen_text(&mut app, 80, 24));
}

#[test]
fn mid_trick() {
    let mut app = app(config(Mode::Partnership, 7));
    play_until(&mut app, my_turn_to_play_mid_trick);
    insta::assert_snapshot!("mid_trick_80x24", screen_text(&mut app, 80, 24));
    insta::assert_snapshot!("mid_trick_120x40", screen_text(&mut app, 120, 40));
}

#[test]
fn illegal_card_says_why() {
    let mut app = app(config(Mode::Partnership, 7));
    play_until(&mut app, my_turn_to_play_mid_trick);
    // Seed 7: clubs are led and the hand starts with a spade.
    let view = app.view();
    assert!(
        !view
            .legal_plays()
            .contains(spades::tui::hand_order(view.cards())[0])
    );
    chars(&mut app, "1");
    insta::assert_snapshot!("illegal_card_80x24", screen_text(&mut app, 80, 24));
}

#[test]
fn hand_summary() {
    let mut app = app(config(Mode::Partnership, 7));
    play_until(&mut app, |a| a.screen() == Screen::Summary);
    insta::assert_snapshot!("hand_summary_80x24", screen_text(&mut app, 80, 24));
}

#[test]
fn game_over() {
    let mut app = finished_game();
    assert_eq!(app.view().phase, Phase::Over);
    insta::assert_snapshot!("game_over_80x24", screen_text(&mut app, 80, 24));
}

#[test]
fn help() {
    let mut app = app(config(Mode::Partnership, 7));
    chars(&mut app, "?");
    insta::assert_snapshot!("help_80x24", screen_text(&mut app, 80, 24));
}

#[test]
fn rules_in_force() {
    let mut app = app(config(Mode::Partnership, 7));
    chars(&mut app, "r");
    insta::assert_snapshot!("rules_80x24", screen_text(&mut app, 80, 24));
}

#[test]
fn last_trick() {
    let mut app = app(config(Mode::Partnership, 7));
    play_until(&mut app, |a| a.view().play.tricks_done == 2);
    chars(&mut app, "t");
    insta::assert_snapshot!("last_trick_80x24", screen_text(&mut app, 80, 24));
}

#[test]
fn quit_asks_first() {
    let mut app = app(config(Mode::Partnership, 7));
    chars(&mut app, "q");
    insta::assert_snapshot!("confirm_quit_80x24", screen_text(&mut app, 80, 24));
}

#[test]
fn too_small() {
    let mut app = app(config(Mode::Partnership, 7));
    insta::assert_snapshot!("too_small_79x24", screen_text(&mut app, 79, 24));
}

#[test]
fn cutthroat_table() {
    let mut app = app(config(Mode::Cutthroat, 3));
    play_until(&mut app, my_turn_to_play_mid_trick);
    insta::assert_snapshot!("cutthroat_80x24", screen_text(&mut app, 80, 24));
    insta::assert_snapshot!("cutthroat_120x40", screen_text(&mut app, 120, 40));
}

#[test]
fn individual_table() {
    let mut app = app(config(Mode::Individual, 5));
    play_until(&mut app, my_turn_to_play_mid_trick);
    insta::assert_snapshot!("individual_80x24", screen_text(&mut app, 80, 24));
}

#[test]
fn a_finished_trick_stays_with_its_winner_marked() {
    let mut config = config(Mode::Partnership, 7);
    config.speed = spades::tui::Speed::Normal;
    let mut app = spades::tui::App::new(config, spades::tui::Theme::PLAIN).unwrap();
    let start = std::time::Instant::now();
    let mut t = 0;
    // Far-apart ticks let one bot act each; the player answers in between.
    while app.held_trick().is_none() {
        t += 10;
        support::tui::tick_at(&mut app, start + std::time::Duration::from_secs(t));
        if app.human_turn().is_some() {
            if app.human_turn().map(|t| t.decision) == Some(Decision::Bid) {
                app.update(spades::tui::Input::Key(Key::Char('3')));
            }
            app.update(spades::tui::Input::Key(Key::Enter));
        }
    }
    insta::assert_snapshot!("trick_won_80x24", screen_text(&mut app, 80, 24));
}

/// The seating of a shared table as a friend who joined sees it: the code,
/// the seats round the table from them, the rules, and what the host does.
#[test]
fn seating_of_a_shared_table() {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use spades::bots::Level;
    use spades::engine::{Rules, Seat};
    use spades::net::client::seating::SeatingState;
    use spades::protocol::{SeatPlayer, Seating, TableSeat};
    use spades::tui::Theme;
    use spades::tui::seating::{SeatingKey, SeatingScreen};
    let code = "spades join K7QXM2PD4T9RWA3B.F3QZ7XJ2M4TDKRWA8P6N5YHVCE@192.168.1.5:4466";
    let mut state = SeatingState::new(Seat::new(2), false, Some(code.to_string()));
    state.watch_command = Some(code.replace("spades join", "spades watch"));
    let seat = |name: Option<&str>, player| TableSeat {
        name: name.map(str::to_string),
        player,
        rating: None,
        guest: false,
    };
    state.update(Seating {
        table: "K7QXM2PD4T9RWA3B".into(),
        rules: spades::config::commented_toml(&Rules::classic(Mode::Partnership)),
        seats: vec![
            TableSeat {
                // A signed-in player: her rating, still a guess.
                rating: Some(spades::protocol::lobby::ShownRating {
                    rating: 1562,
                    deviation: 290,
                    provisional: true,
                }),
                ..seat(Some("Ann"), SeatPlayer::Person)
            },
            seat(None, SeatPlayer::Empty),
            // Not signed in: a guest, marked.
            TableSeat {
                guest: true,
                ..seat(Some("Bob"), SeatPlayer::Person)
            },
            seat(None, SeatPlayer::Empty),
        ],
        bots: true,
        level: Level::Normal.into(),
        levels: vec![Level::Easy.into(), Level::Normal.into(), Level::Hard.into()],
        can_start: true,
        rated: false,
        // On a server with a ladder: why this table's game is not rated.
        unrated: Some("Bob is not signed in".into()),
    });
    let screen = SeatingScreen(&state);
    // Only the host fills seats or starts.
    assert_eq!(screen.key(Key::Enter), SeatingKey::Nothing);
    assert_eq!(screen.key(Key::Char('q')), SeatingKey::Leave);
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal
        .draw(|frame| screen.render(frame.area(), frame.buffer_mut(), &Theme::PLAIN))
        .unwrap();
    let text = terminal.backend().to_string();
    assert!(text.contains("K7QXM2PD4T9RWA3B.F3QZ7XJ2M4TDKRWA8P6N5YHVCE@192.168.1.5:4466"));
    assert!(text.contains("spades watch K7QXM2PD4T9RWA3B."), "{text}");
    assert!(text.contains("Ann  1562?+-290"), "{text}");
    assert!(
        text.contains("Ladder unrated: Bob is not signed in"),
        "{text}"
    );
    insta::assert_snapshot!("seating_80x24", text);
}

/// Waiting in the quick-match queue: the mode, who waits, the time left
/// before bots fill the seats counted down each second from what the
/// server said, and the key back to the lobby; at 80x24 and 100x30.
#[test]
fn waiting_for_a_quick_match() {
    use std::time::{Duration, Instant};

    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use spades::engine::Seat;
    use spades::net::client::seating::{InQueue, SeatingState};
    use spades::tui::Theme;
    use spades::tui::seating::{SeatingKey, SeatingScreen};
    let heard = Instant::now();
    let names = ["Ann", "Bob", "Cy"].map(String::from).to_vec();
    let mut state = SeatingState::new(Seat::new(0), false, None);
    state.queued = Some(InQueue::heard(Mode::Cutthroat, 5, names, Some(75), heard));
    let screen = SeatingScreen(&state);
    assert_eq!(screen.key(Key::Esc), SeatingKey::Leave);
    let draw = |size: (u16, u16), after: u64| {
        let mut terminal = Terminal::new(TestBackend::new(size.0, size.1)).unwrap();
        let now = heard + Duration::from_millis(after);
        terminal
            .draw(|frame| screen.render_at(frame.area(), frame.buffer_mut(), &Theme::PLAIN, now))
            .unwrap();
        terminal.backend().to_string()
    };
    let text = draw((80, 24), 0);
    assert!(text.contains("Quick match, cutthroat"), "{text}");
    assert!(
        text.contains("5, you included: Ann, Bob, Cy and 2 more"),
        "{text}"
    );
    assert!(text.contains("in 1:15, at the latest"), "{text}");
    assert!(text.contains("Esc  back to the lobby"), "{text}");
    insta::assert_snapshot!("quick_match_waiting_80x24", text);
    // A second and a half later the count is down by one (rounded up).
    assert!(draw((80, 24), 1_500).contains("in 1:14, at the latest"));
    assert!(draw((80, 24), 74_001).contains("in 0:01, at the latest"));
    assert!(draw((80, 24), 90_000).contains("take the seats left now"));
    insta::assert_snapshot!("quick_match_waiting_100x30", draw((100, 30), 60_000));
}
