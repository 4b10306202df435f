//! `h` at the player's turn: what `hard` would do, worked out from the
//! player's own view alone, said in a line with its chances, and the
//! cursor put on it (never played for them).

use spades::bots::hard::advise;
use spades::bots::{Effort, bot_rng};
use spades::engine::{Action, Decision, Mode, Rules};
use spades::tui::hand_order;
use support::tui::{app, chars, config, play_until};

#[test]
fn a_hint_for_a_card_names_it_with_its_chances_and_plays_nothing() {
    let mut app = app(config(Mode::Partnership, 12));
    play_until(&mut app, |a| {
        a.human_turn().map(|t| t.decision) == Some(Decision::Play)
            && a.view().legal_plays().len() > 1
    });
    let view = app.view();
    chars(&mut app, "h");
    let notice = app.notice().expect("a hint").to_string();
    assert!(notice.starts_with("Hint: play the "), "{notice}");
    assert!(notice.contains("points"), "{notice}");
    assert_eq!(app.view(), view, "nothing was played");

    // The hint is the search's answer on the player's view, and nothing
    // more: the same view and seed give the same card.
    let seed = u64::from(view.hand_no) << 8 | u64::from(view.play.played.len());
    let advice = advise(
        &view,
        Decision::Play,
        Effort::Usual,
        &mut bot_rng(seed, view.seat),
    );
    let Action::Play(card) = advice.chosen else {
        panic!("a card: {advice:?}")
    };
    assert!(view.legal_plays().contains(card));
    assert_eq!(hand_order(view.cards())[app.hand_cursor()], card);
    assert!(
        notice.contains(&spades::tui::Theme::PLAIN.card(card)),
        "{notice}"
    );
}

#[test]
fn a_hint_for_a_bid_says_the_contract_chance() {
    let mut app = app(config(Mode::Partnership, 12));
    play_until(&mut app, |a| {
        a.human_turn().map(|t| t.decision) == Some(Decision::Bid)
    });
    chars(&mut app, "h");
    let notice = app.notice().expect("a hint").to_string();
    assert!(notice.starts_with("Hint: bid "), "{notice}");
    assert!(notice.contains("contract "), "{notice}");
}

#[test]
fn no_hint_when_it_is_not_the_players_turn() {
    let mut cfg = config(Mode::Partnership, 12);
    cfg.speed = spades::tui::Speed::Normal;
    let mut app = spades::tui::App::new(cfg, spades::tui::Theme::PLAIN).unwrap();
    // The first bot to bid is still thinking: not the player's turn.
    app.update(spades::tui::Input::Tick(std::time::Instant::now()));
    assert!(app.human_turn().is_none());
    app.update(spades::tui::Input::Key(spades::tui::Key::Char('h')));
    assert_eq!(app.notice(), Some("A hint is for your turn."));
}

#[test]
fn hints_at_the_blind_nil_question_and_the_exchange() {
    let mut config = config(Mode::Partnership, 12);
    config.game.rules = Rules::classic(Mode::Partnership)
        .with(|r| r.blind_nil.min_deficit = 0)
        .unwrap();
    let mut app = app(config);
    play_until(&mut app, |a| {
        a.human_turn().map(|t| t.decision) == Some(Decision::BlindNil)
    });
    chars(&mut app, "h");
    // Level at the start: hard gambles on a blind nil only when behind.
    let notice = app.notice().expect("a hint").to_string();
    assert!(notice.starts_with("Hint: look at your cards"), "{notice}");

    chars(&mut app, "b");
    play_until(&mut app, |a| {
        a.human_turn().map(|t| t.decision) == Some(Decision::Exchange)
    });
    let view = app.view();
    chars(&mut app, "h");
    let notice = app.notice().expect("a hint").to_string();
    assert!(notice.starts_with("Hint: pass "), "{notice}");
    assert!(notice.contains("nil holds "), "{notice}");
    assert_eq!(app.view(), view, "nothing was passed");
    let seed = u64::from(view.hand_no) << 8 | u64::from(view.play.played.len());
    let advice = advise(
        &view,
        Decision::Exchange,
        Effort::Usual,
        &mut bot_rng(seed, view.seat),
    );
    let Action::Exchange(pass) = advice.chosen else {
        panic!("a pass: {advice:?}")
    };
    assert_eq!(pass.len(), 2);
    assert!(pass.is_subset(view.cards()));
    assert!(advice.ranked.len() > 1, "passes were weighed: {advice:?}");
}
