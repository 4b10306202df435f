//! `h` at the player's turn: what `hard` would do, worked out from the
//! player's own view alone, said in two lines with its chance of winning
//! the game and why, and the cursor put on it (never played for them).

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
    assert!(notice.contains("wins the game "), "{notice}");
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
    // Both answers with their chances of winning the game, whichever is
    // advised.
    let notice = app.notice().expect("a hint").to_string();
    let (looks, blind) = (": look at your cards: wins the game ", "; blind nil ");
    let (bids, looking) = (": bid blind nil: wins the game ", "; looking ");
    assert!(
        (notice.contains(looks) && notice.contains(blind))
            || (notice.contains(bids) && notice.contains(looking)),
        "{notice}"
    );

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

/// The whole percents a hint shows: the advised choice's chance of
/// winning the game on its first line, then the next choices' on the
/// second, in the order shown.
fn shown_figures(lines: &[String; 2]) -> (u32, Vec<u32>) {
    let percent = |s: &str| s.trim_end_matches(['.', '%']).parse::<u32>().unwrap();
    let top = lines[0]
        .split("wins the game ")
        .nth(1)
        .and_then(|rest| rest.split(['%']).next())
        .map(|n| n.parse::<u32>().unwrap())
        .expect("the advised choice's chance");
    let others = lines[1]
        .rsplit_once(" Else ")
        .map(|(_, list)| {
            // The list ends at its full stop; a sentence may follow.
            let list = list.split('.').next().unwrap_or_default();
            list.split(", ")
                .map(|item| percent(item.rsplit(' ').next().unwrap()))
                .collect()
        })
        .unwrap_or_default();
    (top, others)
}

/// On hundreds of seeded positions of every kind of decision, weighed
/// on few deals (where the noise is largest), the hint ranks and shows
/// one figure: every choice listed after the advised one shows a chance
/// of winning the game no higher than the advised one's, and no higher
/// than the one before it. Each line fits the notice at 80 columns.
#[test]
fn the_hint_ranks_and_shows_the_same_figure() {
    use spades::bots::advice::advise;
    use spades::bots::hard::Cancel;
    use spades::tui::hint::{HINT_WIDTH, hint_lines};
    let mut checked = [0usize; 4];
    for seed in 0..12u64 {
        let rules = crate::search_support::blind_nil_rules(Mode::Partnership);
        crate::search_support::play(rules, seed, 2, true, |game, turn, _| {
            let view = game.view(turn.seat);
            let mut rng = bot_rng(seed ^ u64::from(view.hand_no), turn.seat);
            let advice = advise(
                &view,
                turn.decision,
                Effort::Deals(16),
                &Cancel::default(),
                &mut rng,
            );
            let lines = hint_lines(&advice, false, &spades::tui::Theme::PLAIN);
            for line in &lines {
                assert!(line.chars().count() <= HINT_WIDTH, "{line}");
            }
            let Some(top) = advice.top() else {
                return;
            };
            let (shown, others) = shown_figures(&lines);
            let figure = format!("{:.0}", 100.0 * top.win);
            assert_eq!(shown.to_string(), figure, "{lines:?}");
            let mut last = shown;
            for figure in others {
                assert!(figure <= last, "{lines:?}");
                last = figure;
            }
            checked[turn.decision as usize] += 1;
        });
    }
    // Every kind of decision was weighed, hundreds in all.
    assert!(checked.iter().all(|&n| n > 0), "{checked:?}");
    assert!(checked.iter().sum::<usize>() >= 300, "{checked:?}");
}
