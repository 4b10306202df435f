//! Three players with a dummy at the table: the dummy's cards are laid
//! face up beside it (for its declarer from the end of the bidding, for
//! everyone once the opening lead is down), and a person who declares
//! plays the dummy's cards from the hand row in the dummy's turn.

use spades::bots::Level;
use spades::engine::{Card, CardSet, Decision, Mode, Phase, Rules, Seat};
use spades::session::YOU;
use spades::tui::app::Screen;
use spades::tui::{App, Key};
use support::tui::*;

const DUMMY: Seat = Seat::new(3);

/// Sensible bidders: a random bot may bid 13 with nothing.
fn dummy_game(seed: u64) -> App {
    app({
        let mut config = config(Mode::Dummy, seed);
        config.game.difficulty = Level::Normal.into();
        config
    })
}

/// Bids `bid` at the player's first turn to bid.
fn bid(app: &mut App, bid: &str) {
    play_until(app, |a| {
        a.human_turn().map(|t| t.decision) == Some(Decision::Bid)
    });
    chars(app, bid);
    press(app, &[Key::Enter]);
}

fn dummy_to_play_by_me(app: &App) -> bool {
    app.human_turn()
        .is_some_and(|t| t.decision == Decision::Play && t.seat == DUMMY)
}

/// The suit rows drawn at the dummy's place (right of the middle), as
/// plain text: a lone suit letter, then its ranks.
fn dummy_rows(screen: &str) -> Vec<String> {
    screen
        .lines()
        .filter_map(|line| {
            // The test backend quotes each row.
            let line = line.trim_matches('"');
            let b = line.as_bytes();
            let at = (50..b.len().saturating_sub(1))
                .find(|&i| b"SHCD".contains(&b[i]) && b[i - 1] == b' ' && b[i + 1] == b' ')?;
            Some(line[at..].trim_end().to_string())
        })
        .collect()
}

#[test]
fn declaring_you_play_the_dummys_cards_from_the_hand_row() {
    let mut app = dummy_game(7);
    bid(&mut app, "13");
    assert_eq!(
        app.view().teams().declarer(),
        Some(YOU),
        "13 is the top bid"
    );
    // The declarer sees the dummy as soon as the bidding is over.
    let dummy = app.view().seen_hand(DUMMY).expect("the declarer sees it");
    assert_eq!(dummy.len(), 13);

    play_until(&mut app, dummy_to_play_by_me);
    let mine = app.view().cards();
    let dummy = app.view().seen_hand(DUMMY).expect("shown");
    assert_eq!(app.acting_seat(), DUMMY);
    assert_eq!(
        app.hand_view().cards(),
        dummy,
        "the hand row is the dummy's"
    );
    let screen = screen_text(&mut app, 80, 24);
    assert!(screen.contains("Your turn for the dummy"), "{screen}");
    assert!(screen.contains("Your own hand:"), "{screen}");
    insta::assert_snapshot!("dummy_turn_80x24", screen);

    // Enter plays the card under the cursor: one of the dummy's, never
    // the player's own.
    let played_before = app.view().play.played;
    press(&mut app, &[Key::Enter]);
    let played: CardSet = app.view().play.played;
    let card: Card = played
        .minus(played_before)
        .lowest()
        .expect("a card was played");
    assert!(dummy.contains(card), "{card} came from the dummy");
    assert_eq!(
        app.view().cards(),
        mine,
        "the player's own hand is untouched"
    );
    assert_eq!(app.acting_seat(), YOU);
}

#[test]
fn a_defender_sees_the_dummy_only_after_the_opening_lead() {
    let mut app = dummy_game(7);
    play_until(&mut app, |a| {
        a.human_turn().map(|t| t.decision) == Some(Decision::Bid)
    });
    let bidding = screen_text(&mut app, 80, 24);
    assert!(dummy_rows(&bidding).is_empty(), "{bidding}");
    assert!(bidding.contains("face down"), "{bidding}");
    chars(&mut app, "1");
    press(&mut app, &[Key::Enter]);
    let declarer = app.view().teams().declarer().expect("the bidding is over");
    assert_ne!(declarer, YOU, "a bot outbid 1");
    // West leads (the dealer's left): by the player's first turn the
    // opening lead is down and the dummy lies face up for everyone.
    play_until(&mut app, |a| a.human_turn().is_some());
    assert!(!app.view().play.played.is_empty());
    let screen = screen_text(&mut app, 80, 24);
    let rows = dummy_rows(&screen);
    assert_eq!(rows.len(), 4, "{screen}");
    let shown = app.view().seen_hand(DUMMY).expect("shown to a defender");
    let ranks = rows
        .iter()
        .map(|r| r[2..].split_whitespace().filter(|w| *w != "-").count())
        .sum::<usize>();
    assert_eq!(ranks, shown.len() as usize, "{rows:?}");
    assert!(screen.contains(&format!("with {}", app.names().seat(declarer))));
    // The player never acts for the dummy when a bot declares.
    assert_eq!(app.acting_seat(), YOU);
}

#[test]
fn a_whole_game_declaring_every_hand() {
    let mut config = config(Mode::Dummy, 11);
    config.game.rules = Rules::classic(Mode::Dummy)
        .with(|r| {
            r.target_score = 100;
            r.losing_score = Some(-250);
        })
        .expect("valid rules");
    let mut app = app(config);
    let mut dummy_cards_played = 0;
    for _ in 0..20_000 {
        if app.screen() == Screen::GameOver {
            break;
        }
        match app.human_turn().map(|t| (t.decision, t.seat)) {
            Some((Decision::Bid, _)) => {
                chars(&mut app, "13");
                press(&mut app, &[Key::Enter]);
            }
            Some((Decision::Play, DUMMY)) => {
                dummy_cards_played += 1;
                press(&mut app, &[Key::Enter]);
            }
            _ => answer(&mut app),
        }
    }
    assert_eq!(app.screen(), Screen::GameOver);
    assert_eq!(app.view().phase, Phase::Over);
    assert!(
        dummy_cards_played >= 13,
        "the player played the dummy's cards ({dummy_cards_played})"
    );
}

/// Once a declarer is known, the score bar shows each defender the
/// defenders' contract (13 less the declarer's bid) on both defenders'
/// tricks, not the first bid it made; the declarer its bid on its own and
/// the dummy's tricks.
#[test]
fn the_score_bar_shows_the_defenders_contract() {
    let mut app = dummy_game(7);
    bid(&mut app, "1");
    let declarer = app.view().teams().declarer().expect("the bidding is over");
    assert_ne!(declarer, YOU, "a bot outbid 1");
    // Some tricks in, so the counts are not all 0.
    play_until(&mut app, |a| {
        a.view().play.tricks_won.iter().sum::<u8>() >= 4
    });
    let view = app.view();
    let declared = view.bids()[declarer].expect("bid").tricks();
    let won = view.play.tricks_won;
    let defenders: u8 = [0, 1, 2]
        .map(Seat::new)
        .iter()
        .filter(|&&s| s != declarer)
        .map(|&s| won[s])
        .sum();
    let screen = screen_text(&mut app, 80, 24);
    let bids = screen.lines().nth(3).unwrap();
    let contract = format!("contract {}, took {defenders}", 13 - declared);
    assert_eq!(bids.matches(&contract).count(), 2, "{contract}: {bids}");
    let declaring = format!("bid {declared}, took {}", won[declarer] + won[DUMMY]);
    assert_eq!(bids.matches(&declaring).count(), 1, "{declaring}: {bids}");
    assert!(!bids.contains("bid 1,"), "the player's first bid: {bids}");
}
