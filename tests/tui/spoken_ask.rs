//! The screen-reader mode's questions, asked of real games: each answer
//! is one line a screen reader can read, says what the player's seat may
//! see, and `o` and `m` name exactly the cards the table would take and
//! the cards held (checked here by reading the lines back, not by the
//! code that wrote them).

use std::time::{Duration, Instant};

use spades::config::preferences::Verbosity;
use spades::engine::{Bid, Card, CardSet, Decision, GameKind, Mode, Phase, Rules, Seat, Suit};
use spades::tui::app::Screen;
use spades::tui::spoken::ask::{Query, answer, help_lines};
use spades::tui::spoken::{LINE_MAX, Speech};
use spades::tui::{App, CARD_KEYS, Input, Key, Speed};
use support::tui::*;

const WORDS: Speech = Speech::NORMAL;
const SHORT: Speech = Speech::SHORT;
const BRIEF: Speech = Speech::BRIEF;
const FULL: Speech = Speech {
    verbosity: Verbosity::Full,
    short_cards: false,
};

/// Every question there is, `g` in each suit too.
fn every_query() -> Vec<Query> {
    let mut all = vec![
        Query::Turn,
        Query::Hand,
        Query::Options,
        Query::Trick,
        Query::Bids,
        Query::Score,
        Query::LastTrick,
        Query::Gone(None),
        Query::Rules,
    ];
    all.extend(Suit::ALL.map(|s| Query::Gone(Some(s))));
    all
}

fn ask(app: &App, key: &str) -> String {
    answer(Query::from_line(key).unwrap(), app, &WORDS)
}

fn until_my_turn(app: &mut App, decision: Decision) {
    play_until(app, |a| {
        a.human_turn().map(|t| t.decision) == Some(decision)
    });
}

/// A card read back from a short name: "QH", "10H".
fn short_card(text: &str) -> Card {
    text.replace("10", "T")
        .parse()
        .unwrap_or_else(|_| panic!("not a card: {text:?}"))
}

/// The cards a line lists short after `after` ("You may play: QH 7H."),
/// up to the sentence's end.
fn short_cards_after(line: &str, after: &str) -> CardSet {
    let start = line
        .find(after)
        .unwrap_or_else(|| panic!("{after:?} in {line:?}"))
        + after.len();
    let rest = &line[start..];
    let listed = &rest[..rest.find('.').unwrap_or(rest.len())];
    listed.split_whitespace().map(short_card).collect()
}

/// A hand read back from its short form by suit: "S: A 10 4; H: Q".
fn hand_by_suit(listed: &str) -> CardSet {
    listed
        .split("; ")
        .flat_map(|part| {
            let (suit, ranks) = part.split_once(": ").unwrap();
            ranks
                .split_whitespace()
                .map(move |rank| short_card(&format!("{rank}{suit}")))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A card's name in words, written here apart from the mode's own
/// naming (classic decks only).
fn in_words(card: Card) -> String {
    let rank = match card.rank().face() {
        "A" => "ace",
        "K" => "king",
        "Q" => "queen",
        "J" => "jack",
        "10" => "ten",
        "9" => "nine",
        "8" => "eight",
        "7" => "seven",
        "6" => "six",
        "5" => "five",
        "4" => "four",
        "3" => "three",
        "2" => "two",
        other => panic!("no joker in a classic deck: {other}"),
    };
    let suit = match card.suit() {
        Suit::Spades => "spades",
        Suit::Hearts => "hearts",
        Suit::Diamonds => "diamonds",
        Suit::Clubs => "clubs",
    };
    format!("{rank} of {suit}")
}

#[test]
fn at_the_first_bid_every_question_has_its_answer() {
    let mut app = app(config(Mode::Partnership, 3));
    until_my_turn(&mut app, Decision::Bid);
    assert_eq!(ask(&app, "w"), "Your turn to bid.");
    assert_eq!(answer(Query::Turn, &app, &BRIEF), "You to bid.");
    assert_eq!(ask(&app, "o"), "You may bid 1 to 13 or nil.");
    assert_eq!(ask(&app, "t"), "No trick on the table: the bidding is on.");
    assert_eq!(ask(&app, "l"), "No trick played yet this hand.");
    assert_eq!(ask(&app, "g"), "No card played yet this hand.");
    assert_eq!(ask(&app, "g h"), "No hearts played yet.");
    assert_eq!(
        ask(&app, "s"),
        "You and North 0, 0 bags; West and East 0, 0 bags. Game to 500."
    );
    assert_eq!(
        answer(Query::Score, &app, &BRIEF),
        "Score: 0, 0 bags; 0, 0 bags; to 500."
    );
    assert_eq!(
        ask(&app, "r"),
        "Rules: partnership, to 500, bags 10/−100, nil 100, blind nil 200."
    );
    let hand = app.view().cards();
    let said = answer(Query::Hand, &app, &SHORT);
    let listed = said.strip_prefix("You hold 13 cards: ").unwrap();
    assert_eq!(hand_by_suit(listed.trim_end_matches('.')), hand, "{said}");
    // The seats that bid before the player, and the ones still to.
    let bids = ask(&app, "b");
    assert!(bids.starts_with("You yet to bid; West "), "{bids}");
    // Sides are summed up once the bidding is over.
    assert!(!bids.contains("You and North"), "{bids}");
}

#[test]
fn in_the_play_the_trick_the_bids_and_the_last_trick_are_said() {
    let mut app = app(config(Mode::Partnership, 5));
    until_my_turn(&mut app, Decision::Bid);
    chars(&mut app, "4");
    press(&mut app, &[Key::Enter]);
    until_my_turn(&mut app, Decision::Play);
    let bids = ask(&app, "b");
    assert!(bids.starts_with("You bid 4, took 0; West "), "{bids}");
    assert!(bids.contains("You and North: bid 4+"), "{bids}");
    let brief = answer(Query::Bids, &app, &BRIEF);
    assert!(brief.starts_with("Bid and took: you 4 0; West "), "{brief}");
    // Play on into the second trick, to the player's turn.
    play_until(&mut app, |a| {
        a.view().play.tricks_done >= 1
            && a.human_turn().map(|t| t.decision) == Some(Decision::Play)
            && a.held_trick().is_none()
    });
    let view = app.view();
    let trick = ask(&app, "t");
    let number = view.play.tricks_done + 1;
    match view.play.trick[view.play.leader] {
        Some(card) => {
            let leader = app.names().seat(view.play.leader).to_string();
            let led = format!("Trick {number}: {leader} led the {}", in_words(card));
            assert!(trick.starts_with(&led), "{trick}");
            assert!(trick.ends_with("; you to play."), "{trick}");
        }
        None => assert_eq!(trick, format!("Trick {number}: you to lead.")),
    }
    let last = ask(&app, "l");
    assert!(last.starts_with("Last trick, trick "), "{last}");
    let winner = view.tricks.last().unwrap().winner;
    let took = if winner == app.you() {
        "you took it.".to_string()
    } else {
        format!("{} took it.", app.names().seat(winner))
    };
    assert!(last.ends_with(&took), "{last}");
    // What is gone is what was played, read back suit by suit.
    let gone = answer(Query::Gone(None), &app, &SHORT);
    let listed = gone.strip_prefix("Played so far: ").unwrap();
    let listed = &listed[..listed.find('.').unwrap()];
    assert_eq!(hand_by_suit(listed), view.play.played, "{gone}");
}

#[test]
fn cutthroat_and_individual_name_every_seat_in_the_score() {
    let app_ = app(config(Mode::Cutthroat, 2));
    assert_eq!(
        ask(&app_, "s"),
        "You 0, 0 bags; West 0, 0 bags; East 0, 0 bags. Game to 500."
    );
    assert_eq!(
        answer(Query::Score, &app_, &BRIEF),
        "Score: you 0, 0 bags; West 0, 0 bags; East 0, 0 bags; to 500."
    );
    let mut app_ = app(config(Mode::Individual, 2));
    until_my_turn(&mut app_, Decision::Bid);
    assert!(!ask(&app_, "b").contains(':'), "{}", ask(&app_, "b"));
}

#[test]
fn quick_play_says_the_lives_left() {
    let mut config = config(Mode::Partnership, 4);
    config.game.rules = Rules::default()
        .with(|r| r.game.kind = GameKind::Quick)
        .unwrap();
    let app = app(config);
    let score = ask(&app, "s");
    assert!(score.ends_with("Quick Play: 3 of 3 lives left."), "{score}");
}

#[test]
fn the_declarer_is_told_when_the_dummy_is_theirs_to_play() {
    let mut config = config(Mode::Dummy, 7);
    config.game.difficulty = spades::bots::Level::Normal.into();
    let mut app = app(config);
    until_my_turn(&mut app, Decision::Bid);
    chars(&mut app, "13");
    press(&mut app, &[Key::Enter]);
    let dummy = Seat::new(3);
    play_until(&mut app, |a| {
        a.human_turn()
            .is_some_and(|t| t.decision == Decision::Play && t.seat == dummy)
    });
    let turn = ask(&app, "w");
    assert!(
        turn == "Your turn to play from the dummy." || turn == "Your turn to lead from the dummy.",
        "{turn}"
    );
    let options = answer(Query::Options, &app, &SHORT);
    let legal = app.hand_view().legal_plays();
    assert_eq!(
        short_cards_after(&options, "You may play from the dummy: "),
        legal,
        "{options}"
    );
    let hand = ask(&app, "m");
    assert!(hand.contains(" The dummy holds "), "{hand}");
    let bids = ask(&app, "b");
    assert!(bids.contains("the dummy took"), "{bids}");
    assert!(bids.contains("You: bid 13"), "{bids}");
}

#[test]
fn a_nil_pass_asks_for_the_cards_to_pass() {
    let mut config = config(Mode::Partnership, 11);
    config.game.rules = Rules::default().with(|r| r.nil.pass = 2).unwrap();
    let mut app = app(config);
    until_my_turn(&mut app, Decision::Bid);
    chars(&mut app, "n");
    until_my_turn(&mut app, Decision::Exchange);
    assert_eq!(ask(&app, "w"), "Your turn to pass 2 cards to North.");
    assert_eq!(
        ask(&app, "o"),
        "You may pass any 2 of your cards to North: pass and the cards."
    );
}

#[test]
fn the_blind_offer_is_said_before_the_cards_are_seen() {
    let mut config = config(Mode::Partnership, 6);
    config.game.rules = Rules::default()
        .with(|r| r.blind_nil.min_deficit = 0)
        .unwrap();
    let mut app = app(config);
    until_my_turn(&mut app, Decision::BlindNil);
    assert_eq!(
        ask(&app, "w"),
        "Your turn to bid blind nil or look at your cards."
    );
    assert_eq!(
        ask(&app, "o"),
        "You may bid blind nil, or look at your cards."
    );
    assert_eq!(
        ask(&app, "m"),
        "Your cards are face down until you bid blind or look at them."
    );
}

#[test]
fn the_house_rules_are_said_as_far_as_the_line_has_room() {
    let mut config = config(Mode::Partnership, 1);
    config.game.rules = Rules::default()
        .with(|r| r.play.spades_lead = spades::engine::SpadesLead::AnyTime)
        .unwrap();
    let one = ask(&app(config.clone()), "r");
    assert!(one.ends_with(" Spades may be led at any time."), "{one}");
    config.game.rules = Rules::default()
        .with(|r| {
            r.deck.jokers = spades::engine::Jokers::DeucesHigh;
            r.play.spades_lead = spades::engine::SpadesLead::AnyTime;
        })
        .unwrap();
    let many = ask(&app(config), "r");
    assert!(many.chars().count() <= LINE_MAX, "{many}");
    assert!(many.starts_with("Rules: partnership, to 500"), "{many}");
    // The deck's long line gives way to the shorter rules after it.
    assert!(many.contains("Spades may be led at any time."), "{many}");
    assert!(many.ends_with("And 1 more house rule."), "{many}");
}

#[test]
fn the_keys_fit_in_four_lines() {
    let lines = help_lines(&WORDS);
    assert!(lines.len() <= 4);
    let all = lines.join(" ");
    for (key, _) in Query::KEYS {
        assert!(all.contains(&format!("{key} ")), "{key}: {all}");
    }
    for words in [
        "h a hint",
        "v verbosity",
        "?",
        "bid 4",
        "blind nil",
        "play qh",
        "quit",
    ] {
        assert!(all.contains(words), "{words}: {all}");
    }
    for line in &lines {
        assert!(line.chars().count() <= LINE_MAX, "{line}");
    }
}

/// Checks one position: every answer in every way of speaking is a line
/// a screen reader reads, and `o` and `m` say exactly the cards.
fn check_position(app: &App) {
    for speech in [WORDS, SHORT, BRIEF, FULL] {
        for query in every_query() {
            let line = answer(query, app, &speech);
            assert!(!line.is_empty(), "{query:?}");
            assert!(line.chars().count() <= LINE_MAX, "{query:?}: {line}");
            assert!(!line.chars().any(char::is_control), "{query:?}: {line:?}");
        }
    }
    let view = app.view();
    // `m`: exactly the hand.
    let hand = answer(Query::Hand, app, &SHORT);
    match view.hand {
        Some(cards) if cards.is_empty() => {
            assert!(hand.starts_with("You hold no cards."), "{hand}")
        }
        Some(cards) => {
            let prefix = format!("You hold {} card", cards.len());
            assert!(hand.starts_with(&prefix), "{hand}");
            let listed = &hand[hand.find(": ").unwrap() + 2..];
            let listed = &listed[..listed.find('.').unwrap()];
            assert_eq!(hand_by_suit(listed), cards, "{hand}");
        }
        None => assert!(hand.contains("face down"), "{hand}"),
    }
    // `o`: exactly the legal plays, in short and in words.
    let turn = app.human_turn();
    let options = answer(Query::Options, app, &SHORT);
    match turn.map(|t| t.decision) {
        Some(Decision::Play) => {
            let legal = app.hand_view().legal_plays();
            assert_eq!(short_cards_after(&options, ": "), legal, "{options}");
            let said = answer(Query::Options, app, &WORDS);
            if said.contains(" of ") {
                for card in legal.iter() {
                    assert!(said.contains(&in_words(card)), "{card}: {said}");
                }
                assert_eq!(said.matches(" of ").count(), legal.len() as usize, "{said}");
            } else {
                assert_eq!(short_cards_after(&said, ": "), legal, "{said}");
            }
        }
        Some(Decision::Bid) => {
            assert!(options.starts_with("You may bid "), "{options}");
            let allowed = view.allowed_bids();
            if allowed.contains(&Bid::Nil) {
                assert!(options.contains("nil"), "{options}");
            }
        }
        Some(_) => {}
        None => assert!(options.starts_with("Nothing to choose now: "), "{options}"),
    }
    // `w`: the player's turn, or the seat the table waits for.
    let whose = answer(Query::Turn, app, &WORDS);
    match (turn, app.waiting_for()) {
        (Some(_), _) => assert!(whose.starts_with("Your turn to "), "{whose}"),
        (None, Some(seat)) if view.phase != Phase::AwaitingDeal => {
            let player = view.teams().player_for(seat);
            let name = app.names().seat(player);
            assert!(whose.starts_with(&format!("{name}'s turn to ")), "{whose}");
        }
        _ => assert!(whose.starts_with("No one's"), "{whose}"),
    }
}

/// The tables the positions come from: every mode, Quick Play, and
/// rules that bring the blind offer and an exchange to the player.
fn tables() -> Vec<(Mode, Rules)> {
    let classic = |mode| (mode, Rules::classic(mode));
    let with = |change: fn(&mut spades::engine::RuleSettings)| {
        (Mode::Partnership, Rules::default().with(change).unwrap())
    };
    vec![
        classic(Mode::Partnership),
        classic(Mode::Cutthroat),
        classic(Mode::Individual),
        classic(Mode::Dummy),
        with(|r| r.game.kind = GameKind::Quick),
        with(|r| r.blind_nil.min_deficit = 0),
        with(|r| r.nil.pass = 1),
    ]
}

/// What a position asked of the player, to show the positions cover
/// every kind.
#[derive(Debug, Default)]
struct Seen {
    positions: usize,
    plays: usize,
    bids: usize,
    offers_or_exchanges: usize,
    others_turns: usize,
    tricks_held: usize,
    hands_over: usize,
}

impl Seen {
    fn note(&mut self, app: &App) {
        self.positions += 1;
        match app.human_turn().map(|t| t.decision) {
            Some(Decision::Play) => self.plays += 1,
            Some(Decision::Bid) => self.bids += 1,
            Some(_) => self.offers_or_exchanges += 1,
            None if app.view().phase == Phase::AwaitingDeal => self.hands_over += 1,
            None => self.others_turns += 1,
        }
        if app.held_trick().is_some() {
            self.tricks_held += 1;
        }
    }
}

#[test]
fn hundreds_of_positions_in_every_mode_are_answered_in_a_line() {
    let mut seen = Seen::default();
    for (i, (mode, rules)) in tables().into_iter().enumerate() {
        for seed in 0..2u64 {
            let mut config = config(mode, 100 + seed + 10 * i as u64);
            config.game.rules = rules;
            // At a pace, so the positions include the others' turns and
            // tricks held on the table; time passes as the test says.
            config.speed = Speed::Fast;
            let mut app = app(config);
            let mut at = Instant::now();
            for _ in 0..90 {
                if app.screen() == Screen::GameOver {
                    break;
                }
                check_position(&app);
                seen.note(&app);
                at += Duration::from_millis(350);
                step_at(&mut app, at);
            }
        }
    }
    assert!(seen.positions >= 300, "{seen:?}");
    let kinds = [
        seen.plays,
        seen.bids,
        seen.offers_or_exchanges,
        seen.others_turns,
        seen.tricks_held,
        seen.hands_over,
    ];
    assert!(kinds.iter().all(|&n| n > 0), "{seen:?}");
}

/// One step of the game at `at`: the player's plain answer to what is
/// asked (look, bid 2, pass the first cards, play the card under the
/// cursor, go on from a summary), then time passing.
fn step_at(app: &mut App, at: Instant) {
    let keys: Vec<Key> = if app.screen() == Screen::Summary {
        vec![Key::Enter]
    } else {
        match app.human_turn().map(|t| t.decision) {
            Some(Decision::BlindNil) => vec![Key::Char('c')],
            Some(Decision::Bid) => vec![Key::Char('2'), Key::Enter],
            Some(Decision::Exchange) => {
                let count = app.view().exchange.map_or(0, |e| usize::from(e.count));
                // Cards already chosen (a pass refused) are let go first.
                let chosen = app.to_pass().len() as usize;
                let first = |n: usize| CARD_KEYS[..n].iter().map(|&k| Key::Char(k as char));
                first(chosen)
                    .chain(first(count))
                    .chain([Key::Enter])
                    .collect()
            }
            Some(Decision::Play) => vec![Key::Enter],
            None => Vec::new(),
        }
    };
    for key in keys {
        app.update(Input::Key(key));
    }
    tick_at(app, at);
}
