use super::*;
use crate::analysis::{Category, Class, GameReview, Verdict};
use crate::engine::{Action, Bid, Card, Decision, Seat};
use crate::spoken::LINE_MAX;
use crate::story::Story;

const WORDS: Speech = Speech::NORMAL;
const SHORT: Speech = Speech::SHORT;

/// A partnership game between random bots, two hands of it, as recorded.
fn story() -> Story {
    story_of(crate::engine::Mode::Partnership)
}

/// A game of `mode` between random bots, two hands of it, as recorded;
/// the last seat's player is "You".
fn story_of(mode: crate::engine::Mode) -> Story {
    use crate::bots::random::RandomBot;
    use crate::engine::Rules;
    use crate::fairness::Dealing;
    use crate::record::{GameInfo, MemoryRecord, read_games};
    use crate::table::{Player, Table};
    let rules = Rules::classic(mode);
    let players = (0..mode.players())
        .map(|_| Player::Bot(Box::new(RandomBot)))
        .collect();
    let mut table = Table::new(rules, Dealing::Open(9), players);
    let out = MemoryRecord::default();
    // As a real record names them: the dummy by its role.
    let names = mode
        .each_seat()
        .map(|s| match mode.is_player(s) {
            true => ["West", "North", "East", "You"][s.index()].to_string(),
            false => "Dummy".to_string(),
        })
        .collect();
    let info = GameInfo {
        player_seat: mode.each_player().last(),
        ..GameInfo::default()
    };
    table.record_to(Box::new(out.clone()), names, info).unwrap();
    while table.hand_no() <= 2 {
        if table.step_bot().is_none() {
            break;
        }
    }
    table.abandon();
    drop(table);
    let games = read_games(&out.text()).unwrap();
    Story::from_record(&games[0]).unwrap()
}

#[test]
fn a_hand_is_read_deal_bids_tricks_and_score() {
    let story = story();
    let said = hand::lines(&story, 0, &WORDS);
    let hand = &story.hands[0];
    assert!(said[0].starts_with("Hand 1 of "), "{said:?}");
    // Every seat's cards, the player's as "You hold".
    assert!(said[4].starts_with("You hold "), "{said:?}");
    assert!(said.iter().any(|l| l.starts_with("Bids: West bids ")));
    // A line for each trick the engine completed, in order, each naming
    // its winner and every card played to it.
    let tricks: Vec<&String> = said.iter().filter(|l| l.starts_with("Trick ")).collect();
    assert_eq!(tricks.len(), hand.tricks.len());
    let voices = Voices::of(&story);
    for (k, (line, done)) in tricks.iter().zip(&hand.tricks).enumerate() {
        assert!(line.starts_with(&format!("Trick {}: ", k + 1)), "{line}");
        let winner = voices.seat(done.winner);
        assert!(line.contains(&format!("; {winner} won.")), "{line}");
        let leader = done.cards[done.leader].unwrap();
        let led = format!(
            "{} led the {}",
            voices.seat(done.leader),
            words::card(leader, &WORDS)
        );
        assert!(line.contains(&led), "{line} lacks {led}");
        let cards = line.split("; ").next().unwrap();
        assert_eq!(cards.matches(", ").count() + 1, 4, "{line}");
    }
    // One line a side for the score.
    let scores: Vec<&String> = said.iter().filter(|l| l.starts_with("Score, ")).collect();
    assert_eq!(scores.len(), 2, "{said:?}");
    assert!(
        scores[1].starts_with("Score, North and You: "),
        "{}",
        scores[1]
    );
    assert!(
        said.iter()
            .all(|l| !l.contains("->") && l.chars().count() <= LINE_MAX)
    );
}

#[test]
fn a_card_of_the_suit_led_is_said_by_its_rank() {
    let story = story();
    let (plays, _) = &hand::tricks(&story, 0)[0];
    let said = hand::lines(&story, 0, &WORDS);
    let line = said.iter().find(|l| l.starts_with("Trick 1:")).unwrap();
    let led = plays[0].1.printed_suit();
    for &(_, card) in &plays[1..] {
        let word = if card.printed_suit() == led && !card.rank().is_above_ace() {
            crate::theme::rank_in_words(card.rank()).to_string()
        } else {
            words::card(card, &WORDS)
        };
        assert!(
            line.contains(&format!(" the {word}")),
            "{line} lacks {word}"
        );
    }
    // Short, for braille: every card as on its face.
    let short = hand::lines(&story, 0, &SHORT);
    let line = short.iter().find(|l| l.starts_with("Trick 1:")).unwrap();
    for &(_, card) in plays {
        assert!(line.contains(&words::card(card, &SHORT)), "{line}");
    }
}

fn verdict(class: Option<Class>) -> Verdict {
    Verdict {
        hand: 4,
        trick: None,
        decision: Decision::BlindNil,
        chosen: Action::Look,
        best: Action::Bid(Bid::BlindNil),
        win_chosen: 0.241,
        win_best: 0.398,
        points_chosen: 10.0,
        points_best: 30.0,
        class,
        category: Category::Bidding,
        not_judged: None,
    }
}

#[test]
fn a_verdict_is_said_in_the_analysis_figures() {
    let line = review::verdict_line(&verdict(Some(Class::Blunder)), "you", &WORDS);
    assert_eq!(
        line.as_deref(),
        Some(
            "Hand 4, bidding: you chose look at the cards, a blunder; \
             bid blind nil wins 39.8% against 24.1%."
        )
    );
    assert_eq!(review::verdict_line(&verdict(None), "you", &WORDS), None);
    let played = Verdict {
        trick: Some(5),
        decision: Decision::Play,
        chosen: Action::Play("KS".parse::<Card>().unwrap()),
        best: Action::Play("3H".parse::<Card>().unwrap()),
        ..verdict(Some(Class::Inaccuracy))
    };
    assert_eq!(
        review::verdict_line(&played, "North", &SHORT).unwrap(),
        "Hand 4, trick 5: North chose the KS, an inaccuracy; the 3H wins 39.8% against 24.1%."
    );
}

#[test]
fn a_hand_without_a_bad_decision_says_so() {
    let story = story();
    let voices = Voices::of(&story);
    let review = GameReview {
        version: crate::analysis::ANALYSIS_VERSION,
        seat: Seat::new(3),
        decisions: vec![verdict(None), verdict(Some(Class::Mistake))],
        hands: Vec::new(),
    };
    assert_eq!(
        review::hand_lines(&review, 3, &voices, &WORDS),
        ["Hand 3: no inaccuracy, mistake or blunder in your 0 judged decisions."]
    );
    let four = review::hand_lines(&review, 4, &voices, &WORDS);
    assert_eq!(four.len(), 1);
    assert!(
        four[0].contains("you chose look at the cards, a mistake"),
        "{four:?}"
    );
    // The accuracy is the analysis's own figure.
    let accuracy = review.accuracy().unwrap();
    assert_eq!(
        review::summary(&review, &voices),
        format!(
            "Review of your 2 decisions: 0 inaccuracies, 1 mistake, 0 blunders; accuracy {accuracy:.0}%."
        )
    );
}

#[test]
fn typed_words_are_the_replays_commands() {
    assert_eq!(Command::of(""), Some(Command::Next));
    assert_eq!(Command::of(" N "), Some(Command::Next));
    assert_eq!(Command::of("p"), Some(Command::Previous));
    assert_eq!(Command::of("hand 4"), Some(Command::Hand(4)));
    assert_eq!(Command::of("hand four"), None);
    assert_eq!(Command::of("a"), Some(Command::Analyse));
    assert_eq!(Command::of("review"), Some(Command::Review));
    assert_eq!(Command::of("q"), Some(Command::Leave));
    assert_eq!(Command::of("play qh"), None);
}

#[test]
fn brief_leaves_out_the_verbs() {
    let story = story();
    let brief = Speech {
        verbosity: Verbosity::Brief,
        short_cards: true,
    };
    let said = hand::lines(&story, 0, &brief);
    assert!(said[1].starts_with("West: "), "{said:?}");
    assert!(said.iter().any(|l| l.starts_with("Bids: West ")));
    assert!(
        !said
            .iter()
            .any(|l| l.contains(" bids ") || l.contains(" holds "))
    );
    let (plays, winner) = &hand::tricks(&story, 0)[0];
    let voices = Voices::of(&story);
    let cards: Vec<String> = plays
        .iter()
        .map(|&(seat, card)| format!("{} {}", voices.within(seat), words::card(card, &brief)))
        .collect();
    let first = said.iter().find(|l| l.starts_with("Trick 1:")).unwrap();
    let expected = format!(
        "Trick 1: {}; {} won.",
        cards.join(", "),
        voices.seat(*winner)
    );
    // The first seat is said as it starts the list.
    let expected = expected.replacen(" you ", " You ", usize::from(plays[0].0 == Seat::new(3)));
    assert!(first.starts_with(&expected), "{first}\n{expected}");
    assert_eq!(Command::of("v"), Some(Command::Verbosity));
}

#[test]
fn with_a_dummy_the_declarer_and_the_defenders_are_said() {
    let story = story_of(crate::engine::Mode::Dummy);
    let hand = &story.hands[0];
    let declarer = hand.teams.declarer().expect("the bidding is over");
    let said = hand::lines(&story, 0, &WORDS);
    let voices = Voices::of(&story);
    let line = said
        .iter()
        .find(|l| l.contains(" with the dummy; "))
        .unwrap_or_else(|| panic!("{said:?}"));
    assert!(line.starts_with(voices.seat(declarer)), "{line}");
    assert!(line.ends_with(" defend."), "{line}");
    // The dummy's cards are read with the others'; each trick has four.
    let dummy = story.mode().dummy().unwrap();
    let dummy = voices.seat(dummy);
    assert!(
        said.iter()
            .any(|l| l.starts_with(&format!("{dummy} holds ")))
    );
    let trick = said.iter().find(|l| l.starts_with("Trick 1: ")).unwrap();
    assert_eq!(trick.split("; ").next().unwrap().matches(", ").count(), 3);
}

#[test]
fn the_keys_fit_in_a_line() {
    assert!(KEYS.chars().count() <= LINE_MAX, "{}", KEYS.len());
    assert_eq!(Command::of("t"), Some(Command::Trick));
}
