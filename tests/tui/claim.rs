//! Claiming the rest of the tricks (`C`) and taking back a decision (`u`)
//! at a local table: the table checks a claim on the whole deal and plays
//! the hand out; a refusal shows the line that beats it in a practice game
//! only; `u` passes over the cards that were the only ones.

use spades::engine::{Decision, Mode, Phase};
use spades::tui::app::Screen;
use spades::tui::{App, Input, Key};
use support::game::short;
use support::tui::{app, chars, config, play_until, tick};

const HIDDEN: &str = "Refused: the other seats can take a trick against your cards.";
const CHECKING: &str = "Checking your claim…";

/// A short game recording into `dir`, practice or not.
fn game(dir: &tempfile::TempDir, seed: u64, practice: bool) -> App {
    app({
        let mut config = config(Mode::Partnership, seed);
        config.game.practice = practice;
        config.game.records = Some(dir.path().join("records"));
        config.game.saves = Some(dir.path().join("saves"));
        config.game.rules = short(Mode::Partnership, 150);
        config
    })
}

/// The player's turn to play with at most `cards` cards left, or the game
/// over.
fn late_turn(app: &mut App, cards: u32) {
    play_until(app, |a| {
        a.screen() == Screen::GameOver
            || (a.human_turn().map(|t| t.decision) == Some(Decision::Play)
                && a.view().hand.is_some_and(|h| h.len() <= cards))
    });
}

/// What came of the claims made along a whole game: granted, refused.
fn claim_each_hand(app: &mut App, practice: bool) -> (u32, u32) {
    let (mut granted, mut refused) = (0, 0);
    loop {
        late_turn(app, 4);
        if app.screen() == Screen::GameOver {
            return (granted, refused);
        }
        let before = app.view();
        let you = app.you();
        // The answer is read on the tick that brings it, before time
        // passes: a card that is the only one is played for the player
        // after a pause, and the notice goes.
        app.update(Input::Key(Key::Char('C')));
        assert_eq!(app.notice(), Some(CHECKING));
        tick(app);
        let notice = app.notice().unwrap_or_default().to_string();
        if notice.starts_with("Claimed: ") {
            granted += 1;
            // Every card left was played, and every trick left is the
            // player's.
            let (result, _) = app.summary().expect("the hand is scored");
            let left = before.hand.unwrap().len() as u8;
            assert_eq!(
                result.tricks[you],
                before.play.tricks_won[you] + left,
                "{notice}"
            );
        } else {
            refused += 1;
            assert!(notice.starts_with("Refused: "), "{notice}");
            assert_eq!(app.view(), before, "a refused claim changes nothing");
            if practice {
                assert_ne!(notice, HIDDEN, "a practice game shows the line");
            } else {
                assert_eq!(notice, HIDDEN, "a real game shows no card of the others'");
            }
            // On with the hand: the next turn may claim again.
            play_until(app, |a| {
                a.human_turn().map(|t| t.decision) != Some(Decision::Play)
                    || a.view().play.played.len() != before.play.played.len()
            });
        }
        tick(app);
        play_until(app, |a| {
            a.screen() == Screen::GameOver || a.view().hand_no != before.hand_no
        });
    }
}

#[test]
fn claims_along_whole_games_are_granted_or_refused_and_the_records_verify() {
    for practice in [true, false] {
        let (mut granted, mut refused) = (0, 0);
        for seed in [3, 11] {
            let dir = tempfile::tempdir().unwrap();
            let mut app = game(&dir, seed, practice);
            let (g, r) = claim_each_hand(&mut app, practice);
            granted += g;
            refused += r;
            assert_eq!(app.view().phase, Phase::Over);
            let played = app.close();
            let record = played.records.last().expect("a record");
            let text = std::fs::read_to_string(record).unwrap();
            let verdicts = spades::verify::verify(&text).expect("a record that reads");
            assert!(verdicts[0].is_verified(), "{verdicts:?}");
        }
        assert!(
            granted > 0 && refused > 0,
            "{granted} granted, {refused} refused"
        );
    }
}

#[test]
fn a_claim_waits_for_the_players_turn_to_play() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = game(&dir, 5, true);
    play_until(&mut app, |a| {
        a.human_turn().map(|t| t.decision) == Some(Decision::Bid)
    });
    let before = app.view();
    chars(&mut app, "C");
    assert_eq!(app.notice(), Some("Claim at your turn to play a card."));
    assert_eq!(app.view(), before);
}

/// The solver checks a claim on a thread of its own: until its verdict
/// is in, a card played is refused and nothing moves; a hand taken back
/// meanwhile drops the claim rather than playing out another position.
#[test]
fn nothing_moves_while_a_claim_is_checked_and_a_hand_taken_back_drops_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = game(&dir, 3, true);
    late_turn(&mut app, 8);
    let before = app.view();
    app.update(Input::Key(Key::Char('C')));
    assert!(app.checking_claim());
    let card = before.legal_plays().iter().next().unwrap();
    app.play(card);
    assert_eq!(app.notice(), Some(CHECKING));
    assert_eq!(
        app.view(),
        before,
        "no card is played while the claim is checked"
    );
    tick(&mut app);
    assert!(!app.checking_claim());
    let told = app.notice().unwrap_or_default();
    assert!(
        told.starts_with("Refused: ") || told.starts_with("Claimed: "),
        "{told}"
    );

    // A claim checked while the player takes their card back.
    let mut app = game(&dir, 11, true);
    late_turn(&mut app, 8);
    let before = app.view();
    let card = before.legal_plays().iter().next().unwrap();
    app.play(card);
    play_until(&mut app, |a| {
        a.human_turn().map(|t| t.decision) == Some(Decision::Play)
    });
    app.update(Input::Key(Key::Char('C')));
    assert!(app.checking_claim());
    app.update(Input::Key(Key::Char('u')));
    tick(&mut app);
    assert_eq!(
        app.notice(),
        Some("The claim was dropped: the hand moved on.")
    );
}

#[test]
fn undo_passes_over_the_cards_that_were_the_only_ones() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = game(&dir, 21, true);
    // The hand's last card is always the only one, and auto-play plays it.
    play_until(&mut app, |a| a.screen() == Screen::Summary);
    let scored = app.view();
    chars(&mut app, "u");
    assert_eq!(app.notice(), Some("Taken back."));
    let view = app.view();
    assert_eq!(view.hand_no, scored.hand_no, "the same hand");
    assert_eq!(app.human_turn().map(|t| t.decision), Some(Decision::Play));
    assert!(view.hand.unwrap().len() >= 2, "not the last card");
    assert!(
        view.legal_plays().len() >= 2,
        "a card the player chose, not one that was the only one: {view:?}"
    );
}
