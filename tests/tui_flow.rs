//! The flow of play at the table: the end of a hand, pauses that never
//! throw a card, where the cursor starts, auto-play, bids typed and
//! clicked, the exchange, and the screens between.

mod support;

use std::time::{Duration, Instant};

use spades::engine::{Decision, Mode};
use spades::tui::app::Screen;
use spades::tui::{Key, PlayConfig, Speed};
use support::tui::*;

/// The last trick of a hand stays over the finished hand, then the summary,
/// and only then is the next hand dealt.
#[test]
fn a_hand_ends_on_its_own_table_then_the_summary_then_the_next_deal() {
    let mut app = app(PlayConfig {
        speed: Speed::Fast,
        ..config(Mode::Partnership, 7)
    });
    // Time passes only when the test says, so the pause is seen as it is.
    let mut clock = Instant::now();
    while !(app.held_trick().is_some() && app.view().play.tricks_done == 13) {
        match app.human_turn().map(|t| t.decision) {
            Some(Decision::BlindNil) => chars(&mut app, "c"),
            Some(Decision::Bid) => {
                chars(&mut app, "2");
                press(&mut app, &[Key::Enter]);
            }
            Some(Decision::Play) if app.held_trick().is_none() => press(&mut app, &[Key::Enter]),
            _ => {
                clock += Duration::from_secs(2);
                tick_at(&mut app, clock);
            }
        }
    }
    assert_eq!(app.screen(), Screen::Table);
    let screen = screen_text(&mut app, 80, 24);
    assert!(screen.contains("Hand 1,"), "{screen}");
    assert!(screen.contains("Trick 13 of 13"), "{screen}");
    assert!(screen.contains("takes it"), "{screen}");
    assert!(
        app.view().cards().is_empty(),
        "no new cards in the hand row"
    );
    let took: u8 = app.view().play.tricks_won.iter().sum();
    assert_eq!(took, 13, "every trick counted on the finished hand");

    press(&mut app, &[Key::Char('x')]);
    assert_eq!(app.screen(), Screen::Summary);
    let screen = screen_text(&mut app, 80, 24);
    assert!(screen.contains("Hand 1 scored"), "{screen}");
    assert!(screen.contains("Hand 1,"), "{screen}");
    assert_eq!(app.view().hand_no, 1);

    press(&mut app, &[Key::Enter]);
    assert_eq!(app.screen(), Screen::Table);
    assert_eq!(app.view().hand_no, 2);
    // Thirteen new cards, face down while a blind nil is on offer.
    let hand = app.view().hand;
    assert!(hand.is_none_or(|h| h.len() == 13), "{hand:?}");
    assert_eq!(app.view().play.tricks_done, 0);
    assert_ne!(
        app.human_turn().map(|t| t.decision),
        Some(Decision::Play),
        "a new hand starts with the bidding"
    );
}
