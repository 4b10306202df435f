//! The review of a hand, opened with `v` from its summary during a game:
//! every seat's cards face up, trick by trick, made only from what the
//! player's seat was told; leaving it finds the summary as it was.

use spades::engine::{Mode, Rules, SeatEvent};
use spades::story::StepEvent;
use spades::tui::app::Screen;
use spades::tui::{App, Input, Key, PlayConfig};
use support::tui::{app, chars, config, play_until, press, screen_text};

/// Blind nil open to anyone, so the random bots bid it and pass cards.
fn blind_nil_for_all(seed: u64) -> PlayConfig {
    let mut config = config(Mode::Partnership, seed);
    config.game.rules = Rules::classic(Mode::Partnership)
        .with(|r| r.blind_nil.min_deficit = 0)
        .unwrap();
    config
}

/// The game's first hand summed up, from `config`.
fn at_summary(config: PlayConfig) -> App {
    let mut app = app(config);
    play_until(&mut app, |a| a.screen() == Screen::Summary);
    app
}

/// The exchange of the hand being summed up: (from, to, seen) each way.
fn passes(app: &App) -> Vec<(usize, usize, bool)> {
    let hand = app.summary().unwrap().0.hand;
    app.events()
        .iter()
        .filter_map(|e| match e {
            SeatEvent::Exchange {
                hand: h,
                from,
                to,
                cards,
            } if *h == hand => Some((from.index(), to.index(), cards.is_some())),
            _ => None,
        })
        .collect()
}

#[test]
fn v_opens_the_review_and_esc_goes_back_to_the_summary_as_it_was() {
    let mut app = at_summary(config(Mode::Partnership, 7));
    let summary = screen_text(&mut app, 80, 24);
    assert!(summary.contains("v  review the hand"), "{summary}");
    let (result, before) = app.summary().map(|(r, b)| (r.clone(), b)).unwrap();
    let events = app.events().len();

    chars(&mut app, "v");
    assert_eq!(app.screen(), Screen::Review);
    let start = screen_text(&mut app, 80, 24);
    assert!(start.contains("REVIEW  Hand 1"), "{start}");
    assert!(start.contains("Every hand is face up"), "{start}");
    insta::assert_snapshot!("hand_review_start_80x24", start);

    // Down: the bids made; the first trick; the second.
    press(&mut app, &[Key::Down, Key::Down, Key::Down]);
    let step = *app.review().unwrap().step().unwrap();
    assert!(matches!(
        step.event,
        StepEvent::Play {
            completes: Some(2),
            ..
        }
    ));
    let trick = screen_text(&mut app, 80, 24);
    assert!(trick.contains("trick 2"), "{trick}");
    insta::assert_snapshot!("hand_review_trick_80x24", trick);

    press(&mut app, &[Key::End]);
    let scored = screen_text(&mut app, 80, 24);
    assert!(scored.contains("Hand 1 scored"), "{scored}");
    assert!(scored.contains(" at trick "), "{scored}");
    insta::assert_snapshot!("hand_review_scored_80x24", scored);

    // Nothing moved at the table while the review was open.
    press(&mut app, &[Key::Esc]);
    assert_eq!(app.screen(), Screen::Summary);
    assert_eq!(screen_text(&mut app, 80, 24), summary);
    assert_eq!(
        app.summary().map(|(r, b)| (r.clone(), b)),
        Some((result, before))
    );
    assert_eq!(app.events().len(), events);
    assert_eq!(app.hands_played(), 1);
    // And the summary goes on as ever.
    press(&mut app, &[Key::Enter]);
    assert_eq!(app.screen(), Screen::Table);
}

#[test]
fn q_and_clicks_in_the_review_never_leave_the_game() {
    let mut app = at_summary(config(Mode::Partnership, 7));
    let summary = screen_text(&mut app, 80, 24);
    chars(&mut app, "v");
    screen_text(&mut app, 80, 24);
    // A click where the summary's button was does nothing here.
    for row in 0..24 {
        app.update(Input::Click { column: 40, row });
    }
    assert_eq!(app.screen(), Screen::Review);
    chars(&mut app, "?");
    let keys = screen_text(&mut app, 80, 24);
    assert!(keys.contains("back to the hand's summary"), "{keys}");
    assert!(!keys.contains("PgUp"), "one hand has no pages: {keys}");
    insta::assert_snapshot!("hand_review_keys_80x24", keys);
    chars(&mut app, "q"); // closes the keys
    assert_eq!(app.screen(), Screen::Review);
    chars(&mut app, "q");
    assert_eq!(app.screen(), Screen::Summary);
    assert!(!app.should_quit());
    assert_eq!(screen_text(&mut app, 80, 24), summary);
}

#[test]
fn too_small_a_terminal_asks_for_more_and_q_still_only_leaves_the_review() {
    let mut app = at_summary(config(Mode::Partnership, 7));
    chars(&mut app, "v");
    let text = screen_text(&mut app, 70, 20);
    assert!(text.contains("at least 80x24"), "{text}");
    chars(&mut app, "q");
    assert_eq!(app.screen(), Screen::Summary);
    assert!(!app.should_quit());
}

#[test]
fn the_players_own_exchange_is_shown_card_by_card() {
    // Seed 8's second hand: North bid blind nil and passed with the player.
    let mut app = app(blind_nil_for_all(8));
    play_until(&mut app, |a| {
        a.screen() == Screen::Summary && a.summary().unwrap().0.hand == 2
    });
    assert_eq!(passes(&app), [(0, 2, true), (2, 0, true)]);
    chars(&mut app, "v");
    press(&mut app, &[Key::Down, Key::Down]);
    assert_eq!(
        app.review().unwrap().step().unwrap().event,
        StepEvent::Exchange
    );
    let text = screen_text(&mut app, 80, 24);
    assert!(text.contains("You pass "), "{text}");
    assert!(text.contains("North passes "), "{text}");
    assert!(!text.contains("unseen"), "{text}");
    insta::assert_snapshot!("hand_review_own_exchange_80x24", text);
}

#[test]
fn an_exchange_between_others_stays_unseen() {
    // Seed 11's first hand: West and East passed cards the player was
    // never shown; the review does not show them either.
    let mut app = at_summary(blind_nil_for_all(11));
    assert_eq!(passes(&app), [(1, 3, false), (3, 1, false)]);
    chars(&mut app, "v");
    let start = screen_text(&mut app, 80, 24);
    assert!(start.contains("passed cards you did not see"), "{start}");
    press(&mut app, &[Key::Down, Key::Down]);
    assert_eq!(
        app.review().unwrap().step().unwrap().event,
        StepEvent::Exchange
    );
    let text = screen_text(&mut app, 80, 24);
    assert!(text.contains("West passes cards to East unseen"), "{text}");
    insta::assert_snapshot!("hand_review_unseen_exchange_80x24", text);
}

#[test]
fn readable_at_100x30() {
    let mut app = at_summary(config(Mode::Partnership, 7));
    chars(&mut app, "v");
    press(&mut app, &[Key::Down, Key::Down, Key::Right]);
    insta::assert_snapshot!("hand_review_100x30", screen_text(&mut app, 100, 30));
}

#[test]
fn a_cutthroat_hand_reviewed() {
    let mut app = at_summary(config(Mode::Cutthroat, 3));
    chars(&mut app, "v");
    press(&mut app, &[Key::Down, Key::Down, Key::Down, Key::Right]);
    let text = screen_text(&mut app, 80, 24);
    assert!(text.contains("Out of play: "), "{text}");
    insta::assert_snapshot!("hand_review_cutthroat_80x24", text);
}

#[test]
fn a_in_the_summary_opens_the_review_with_the_hands_analysis_started() {
    use spades::tui::replay::analysis::State;
    let dir = tempfile::tempdir().unwrap();
    let mut recorded = config(Mode::Partnership, 7);
    recorded.game.records = Some(dir.path().to_path_buf());
    // The smallest budget: the test is about the screens, not the verdicts.
    recorded.game.effort = spades::bots::Effort::Deals(1);
    let mut app = at_summary(recorded);
    let summary = screen_text(&mut app, 80, 24);
    assert!(summary.contains("a  analyse it"), "{summary}");
    app.update(Input::Key(Key::Char('a')));
    assert_eq!(app.screen(), Screen::Review);
    let review = app.review().unwrap();
    assert!(matches!(review.analysis().state(), State::Running(_)));
    // It reads the game's record aside, and gets as far as the analysis.
    let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while matches!(app.review().unwrap().analysis().state(), State::Running(_)) {
        assert!(
            std::time::Instant::now() < until,
            "the analysis never ended"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
        support::tui::tick(&mut app);
    }
    let said = app.review().unwrap().analysis().said().unwrap_or_default();
    assert!(!said.contains("record"), "{said}");
    // Without a record there is nothing to analyse, and a says so.
    let mut app = at_summary(config(Mode::Partnership, 7));
    chars(&mut app, "a");
    let text = screen_text(&mut app, 80, 24);
    assert!(text.contains("This game is not recorded"), "{text}");
}
