//! Where the bid cursor starts: on a number the hand could make, at every
//! deal, whatever was bid in the hand before; nil only on purpose.

use spades::engine::{Bid, Decision, Mode};
use spades::tui::app::Screen;
use spades::tui::{App, Key, PlayConfig};
use support::tui::*;

fn bidding_in(app: &App, hand: u32) -> bool {
    app.view().hand_no == hand && app.human_turn().map(|t| t.decision) == Some(Decision::Bid)
}

fn under_cursor(app: &App) -> Bid {
    app.bid_options(&app.view())[app.bid_cursor()]
}

/// Bids nil in hand `nil_hand` by moving the cursor onto it, then plays on
/// to the bidding of the next hand.
fn nil_then_next_deal(config: PlayConfig, nil_hand: u32) -> App {
    let mut app = app(config);
    play_until(&mut app, |a| bidding_in(a, nil_hand));
    while under_cursor(&app) != Bid::Nil {
        press(&mut app, &[Key::Right]);
    }
    press(&mut app, &[Key::Enter]);
    assert_eq!(app.view().bids()[app.you()], Some(Bid::Nil));
    play_until(&mut app, |a| {
        a.screen() != Screen::Summary && bidding_in(a, nil_hand + 1)
    });
    app
}

/// Seed 1: after a nil in hand 6, hand 7 holds two aces and five spades;
/// one Enter must not bid nil with them.
#[test]
fn a_new_deal_after_a_nil_starts_the_bid_on_a_number() {
    let mut app = nil_then_next_deal(config(Mode::Partnership, 1), 6);
    let screen = screen_text(&mut app, 80, 24);
    assert!(
        screen.contains("|10S|9S |7S |6S |4S |AH |9H |6H |8C |AD |QD |9D |4D |"),
        "{screen}"
    );
    let start = under_cursor(&app);
    assert!(
        matches!(start, Bid::Tricks(n) if n >= 3),
        "{start:?}\n{screen}"
    );
    assert!(
        screen.contains(&format!("[{}]", start.tricks())),
        "{screen}"
    );
}

#[test]
fn quick_play_starts_each_bid_on_a_number_too() {
    let mut config = config(Mode::Partnership, 1);
    config.game.rules = spades::presets::find("quick").unwrap().rules().unwrap();
    let app = nil_then_next_deal(config, 1);
    let start = under_cursor(&app);
    assert!(matches!(start, Bid::Tricks(n) if n >= 1), "{start:?}");
}
