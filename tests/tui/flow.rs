//! The flow of play at the table: the end of a hand, pauses that never
//! throw a card, where the cursor starts, auto-play, bids typed and
//! clicked, the exchange, and the screens between.

use spades::bots::Level;
use std::time::{Duration, Instant};

use spades::engine::{Decision, Mode};
use spades::tui::Target;
use spades::tui::app::Screen;
use spades::tui::{Key, PlayConfig, Speed, Theme};
use support::tui::*;

/// The last trick of a hand stays over the finished hand, then the summary,
/// and only then is the next hand dealt.
#[test]
fn a_hand_ends_on_its_own_table_then_the_summary_then_the_next_deal() {
    let mut app = app({
        let mut config = config(Mode::Partnership, 7);
        config.speed = Speed::Fast;
        config
    });
    // Time passes only when the test says, so the pause is seen as it is.
    let mut clock = Instant::now();
    while !(app.held_trick().is_some() && app.view().play.tricks_done == 13) {
        clock += Duration::from_secs(2);
        tick_at(&mut app, clock);
        match app.human_turn().map(|t| t.decision) {
            Some(Decision::BlindNil) => chars(&mut app, "c"),
            Some(Decision::Bid) => {
                chars(&mut app, "2");
                press(&mut app, &[Key::Enter]);
            }
            Some(Decision::Play) if app.held_trick().is_none() => press(&mut app, &[Key::Enter]),
            _ => {}
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

    // A key at once is still the pause's; a moment later it moves on.
    press(&mut app, &[Key::Enter]);
    assert_eq!(app.screen(), Screen::Summary);
    tick_at(&mut app, clock + Duration::from_secs(3));
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

/// A game at fast speed whose clock only moves when the test moves it.
struct Clocked {
    app: spades::tui::App,
    clock: Instant,
}

impl Clocked {
    fn new(config: PlayConfig) -> Clocked {
        let mut app = app(config);
        let clock = Instant::now();
        tick_at(&mut app, clock);
        Clocked { app, clock }
    }

    fn wait(&mut self, ms: u64) {
        self.clock += Duration::from_millis(ms);
        tick_at(&mut self.app, self.clock);
    }

    fn key(&mut self, key: Key) {
        self.app.update(spades::tui::Input::Key(key));
    }

    fn decision(&self) -> Option<Decision> {
        self.app.human_turn().map(|t| t.decision)
    }

    /// Answers bids plainly and lets time pass until `done` holds.
    fn until(&mut self, mut done: impl FnMut(&spades::tui::App) -> bool) {
        for _ in 0..20_000 {
            if done(&self.app) {
                return;
            }
            match self.decision() {
                Some(Decision::BlindNil) => self.key(Key::Char('c')),
                Some(Decision::Bid) => {
                    self.key(Key::Char('2'));
                    self.wait(1_000);
                    self.key(Key::Enter);
                }
                Some(Decision::Play) if self.app.held_trick().is_none() => {
                    self.wait(1_000);
                    self.key(Key::Enter);
                }
                _ if self.app.screen() == Screen::Summary => self.key(Key::Enter),
                _ => self.wait(300),
            }
        }
        panic!("never got there");
    }

    fn cards_held(&self) -> u32 {
        self.app.view().cards().len()
    }
}

fn fast(seed: u64) -> PlayConfig {
    PlayConfig {
        speed: Speed::Fast,
        ..config(Mode::Partnership, seed)
    }
}

/// The player won a trick and leads the next: keys pressed to skip the
/// pause, or a moment after it ends, never play a card.
#[test]
fn keys_meant_for_the_pause_never_play_a_card() {
    let mut game = Clocked::new(fast(7));
    game.until(|a| {
        a.held_trick()
            .is_some_and(|h| h.trick.winner == spades::session::YOU)
    });
    let held = game.cards_held();
    // Enter lifts the trick off the table, and that is all it does.
    game.key(Key::Enter);
    assert!(game.app.held_trick().is_none());
    assert_eq!(game.cards_held(), held, "the pause's key played a card");
    // A second press at once is taken for the pause too.
    game.key(Key::Space);
    game.key(Key::Enter);
    game.key(Key::Char('1'));
    assert_eq!(
        game.cards_held(),
        held,
        "a key just after the pause played a card"
    );
    // A moment later the player's keys act again; but an only card (here
    // the last) is played for them after its pause, the key dropped.
    game.wait(1_000);
    let only = game.app.hand_view().legal_plays().len() == 1;
    game.key(Key::Enter);
    if only {
        assert_eq!(game.cards_held(), held, "the key played the only card");
        game.wait(1_000);
    }
    assert_eq!(game.cards_held(), held - 1);
}

/// The same when the pause ends by itself just before the key arrives.
#[test]
fn a_key_just_after_the_pause_times_out_plays_nothing() {
    let mut game = Clocked::new(fast(7));
    game.until(|a| {
        a.held_trick()
            .is_some_and(|h| h.trick.winner == spades::session::YOU)
    });
    let held = game.cards_held();
    game.wait(800); // past the fast pause of 700 ms
    assert!(game.app.held_trick().is_none());
    assert_eq!(game.decision(), Some(Decision::Play));
    game.key(Key::Enter);
    assert_eq!(
        game.cards_held(),
        held,
        "the key meant to skip the pause played"
    );
    game.wait(1_000);
    game.key(Key::Enter);
    assert_eq!(game.cards_held(), held - 1);
}

/// At every turn to play, the cursor starts on the card a careful player
/// would most often play.
#[test]
fn the_cursor_starts_on_the_careful_card() {
    for seed in [7, 11] {
        let mut app = app(config(Mode::Partnership, seed));
        let mut turns = 0;
        play_until(&mut app, |a| {
            if a.human_turn().map(|t| t.decision) == Some(Decision::Play) {
                let view = a.view();
                let under = spades::tui::hand_order(view.cards())[a.hand_cursor()];
                assert_eq!(
                    Some(under),
                    spades::bots::cautious_play(&view),
                    "seed {seed}"
                );
                turns += 1;
            }
            turns >= 13
        });
    }
}

/// With auto-play on, the only card the player may play is played for
/// them after the usual pause; `p` turns it off.
#[test]
fn auto_play_plays_a_forced_card_after_the_pause() {
    for auto in [true, false] {
        let mut game = Clocked::new(fast(7));
        if !auto {
            game.key(Key::Char('p'));
            assert!(!game.app.auto_play());
        }
        // The last card of the hand is always forced.
        game.until(|a| {
            a.human_turn().map(|t| t.decision) == Some(Decision::Play)
                && a.held_trick().is_none()
                && a.view().legal_plays().len() == 1
        });
        let held = game.cards_held();
        game.wait(100);
        assert_eq!(game.cards_held(), held, "not before the pause");
        game.wait(1_000);
        game.wait(1_000);
        let played = game.cards_held() < held;
        assert_eq!(played, auto, "auto-play {auto}");
    }
}

/// Digits typed within a second make one bid; after a pause, a new one.
#[test]
fn typed_bids_join_digits_only_within_a_second() {
    for (pause, want) in [(500, 13), (1_500, 3)] {
        let mut game = Clocked::new({
            let mut config = config(Mode::Partnership, 3);
            config.speed = Speed::Fast;
            config
        });
        game.until(|a| a.human_turn().map(|t| t.decision) == Some(Decision::Bid));
        // Digits only choose: they are taken even as the turn begins.
        game.key(Key::Char('1'));
        game.wait(pause);
        game.key(Key::Char('3'));
        let view = game.app.view();
        let chosen = game.app.bid_options(&view)[game.app.bid_cursor()];
        assert_eq!(
            chosen,
            spades::engine::Bid::Tricks(want),
            "{pause} ms apart"
        );
    }
}

/// A screen too small for the table acts on no key but quit.
#[test]
fn a_screen_too_small_answers_only_quit() {
    let mut app = app(config(Mode::Partnership, 7));
    play_until(&mut app, |a| {
        a.human_turn().map(|t| t.decision) == Some(Decision::Play)
    });
    let held = app.view().cards().len();
    draw(&mut app, 40, 12);
    for key in [
        Key::Char('6'),
        Key::Enter,
        Key::Space,
        Key::Char('?'),
        Key::Char('r'),
    ] {
        press(&mut app, &[key]);
    }
    assert_eq!(app.view().cards().len(), held);
    assert_eq!(app.overlay(), None, "no window opened unseen");
    press(&mut app, &[Key::Char('q')]);
    assert!(app.should_quit());
}

/// The exchange takes exactly its count, and a refusal goes once the choice
/// changes; after it, the partner's cards are named.
#[test]
fn the_exchange_takes_exactly_its_count() {
    let mut config = config(Mode::Partnership, 7);
    config.game.rules = config
        .game
        .rules
        .with(|r| r.blind_nil.min_deficit = 0)
        .unwrap();
    let mut app = app(config);
    chars(&mut app, "b");
    play_until(&mut app, |a| {
        a.human_turn().map(|t| t.decision) == Some(Decision::Exchange)
    });
    chars(&mut app, "123");
    assert_eq!(app.to_pass().len(), 2, "a third card is refused");
    assert!(
        app.notice().is_some_and(|n| n.contains("exactly 2")),
        "{:?}",
        app.notice()
    );
    chars(&mut app, "1");
    assert_eq!(app.to_pass().len(), 1);
    assert_eq!(app.notice(), None, "the refusal goes with the change");
    press(&mut app, &[Key::Enter]);
    assert!(app.notice().is_some_and(|n| n.contains("you chose 1")));
    chars(&mut app, "3");
    assert_eq!(app.notice(), None);
    press(&mut app, &[Key::Enter]);
    let received = app
        .view()
        .exchange
        .and_then(|e| e.received)
        .expect("cards received");
    let notice = app.notice().expect("the partner's cards named");
    assert!(notice.contains("passed you"), "{notice}");
    for card in received {
        assert!(notice.contains(&Theme::PLAIN.card(card)), "{notice}");
    }
    // And they are marked in the hand, underlined, for the first trick:
    // on the cards' bottom edge (a raised top edge is a card to play).
    let screen = screen_text(&mut app, 80, 24);
    let bottom_edge = screen.lines().nth(18).unwrap();
    assert!(bottom_edge.contains("+---+") || bottom_edge.contains("+===+"));
    assert_eq!(bottom_edge.matches("===").count(), received.len() as usize);
}

/// The quit window starts on Stay; keys and clicks work on both buttons.
#[test]
fn the_quit_window_starts_on_stay() {
    let mut app = app(config(Mode::Partnership, 7));
    chars(&mut app, "q");
    assert_eq!(app.overlay(), Some(spades::tui::app::Overlay::ConfirmQuit));
    press(&mut app, &[Key::Enter]);
    assert_eq!(app.overlay(), None);
    assert!(!app.should_quit(), "Enter on Stay stays");
    chars(&mut app, "q");
    press(&mut app, &[Key::Tab, Key::Enter]);
    assert!(app.should_quit(), "Tab to Quit, Enter quits");

    let mut app = app_with_quit_window();
    click_target(&mut app, Target::Continue);
    assert_eq!(app.overlay(), None, "a click on Stay closes the window");
    let mut app = app_with_quit_window();
    click_target(&mut app, Target::Quit);
    assert!(app.should_quit(), "a click on Quit quits");
}

fn app_with_quit_window() -> spades::tui::App {
    let mut app = app(config(Mode::Partnership, 7));
    chars(&mut app, "q");
    app
}

fn click_target(app: &mut spades::tui::App, target: Target) {
    draw(app, 80, 24);
    let (area, _) = *app
        .hits()
        .targets()
        .find(|(_, t)| *t == target)
        .expect("the target is on screen");
    app.update(spades::tui::Input::Click {
        column: area.x,
        row: area.y,
    });
}

/// Text drawn with Unicode symbols, as most terminals show it.
fn unicode_text(app: &mut spades::tui::App) -> String {
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).unwrap();
    terminal
        .draw(|f| {
            spades::tui::view::render(app, f.area(), f.buffer_mut());
        })
        .unwrap();
    terminal.backend().to_string()
}

/// Negative numbers wear one minus sign everywhere: the score bar, the
/// summary and the final scores.
#[test]
fn one_minus_sign_everywhere() {
    let unicode = Theme::UNICODE;
    let mut app = spades::tui::App::new(
        {
            let mut config = config(Mode::Partnership, 7);
            config.game.rules = spades::engine::Rules::default()
                .with(|r| {
                    r.target_score = 60;
                    r.losing_score = Some(-60);
                })
                .unwrap();
            config
        },
        unicode,
    )
    .unwrap();
    // Every summary and the final screen, as drawn.
    let mut negatives = 0;
    loop {
        let screen = app.screen();
        if matches!(screen, Screen::Summary | Screen::GameOver) {
            let text = unicode_text(&mut app);
            let ascii_minus = text
                .as_bytes()
                .windows(2)
                .any(|w| w[0] == b'-' && w[1].is_ascii_digit());
            assert!(!ascii_minus, "{text}");
            negatives += text.matches('−').count();
        }
        if screen == Screen::GameOver {
            break;
        }
        answer(&mut app);
    }
    assert!(negatives > 0, "the game shows a negative score");
}

/// The game-over window says where the record is.
#[test]
fn the_game_over_window_says_where_the_record_is() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = finished_game_with(|c| c.game.records = Some(dir.path().to_path_buf()));
    let path = app.record_path().expect("a record written").to_path_buf();
    let screen = screen_text(&mut app, 100, 30);
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    assert!(screen.contains("Recorded in"), "{screen}");
    assert!(screen.contains(&name[..12]), "{screen}");
}

/// In cutthroat the card out of play is shown once the hand is over.
#[test]
fn cutthroat_shows_the_card_out_after_the_hand() {
    let mut app = app(config(Mode::Cutthroat, 7));
    play_until(&mut app, |a| a.screen() == Screen::Summary);
    let screen = screen_text(&mut app, 80, 24);
    assert!(screen.contains("Card out of play: "), "{screen}");
    let out = spades::engine::CardSet::DECK.minus(app.view().play.played);
    assert_eq!(out.len(), 1);
    let card = Theme::PLAIN.card(out.lowest().unwrap());
    assert!(
        screen.contains(&format!("Card out of play: {card}")),
        "{screen}"
    );
}

/// The rules window wraps a long line instead of cutting it off, and names
/// the computer players' level; + and - change the speed.
#[test]
fn the_rules_window_wraps_and_names_the_level_and_speed() {
    let mut app = app({
        let mut config = config(Mode::Partnership, u64::MAX);
        config.game.difficulty = Level::Easy.into();
        config.speed = Speed::Normal;
        config
    });
    chars(&mut app, "+");
    assert_eq!(app.speed(), Speed::Fast);
    chars(&mut app, "r");
    let screen = screen_text(&mut app, 80, 24);
    assert!(screen.contains(&u64::MAX.to_string()), "{screen}");
    assert!(screen.contains("replays this game"), "{screen}");
    assert!(screen.contains("3 easy computer players"), "{screen}");
    assert!(screen.contains("Speed      fast"), "{screen}");
    chars(&mut app, "r");
    chars(&mut app, "--");
    assert_eq!(app.speed(), Speed::Slow);
}

/// The rules window counts the players each mode seats: the dummy is no
/// computer player, and blind nil's terms are not told where it is not
/// bid.
#[test]
fn the_rules_window_counts_the_players_of_each_mode() {
    for (mode, players) in [
        (Mode::Partnership, "you and 3 easy computer players"),
        (Mode::Cutthroat, "you and 2 easy computer players"),
        (Mode::Individual, "you and 3 easy computer players"),
        (Mode::Dummy, "you, 2 easy computer players and the dummy"),
    ] {
        let mut app = app({
            let mut config = config(mode, 1);
            config.game.difficulty = Level::Easy.into();
            config
        });
        chars(&mut app, "r");
        let screen = screen_text(&mut app, 80, 30);
        let line = screen
            .lines()
            .find(|l| l.contains("Players "))
            .unwrap_or_else(|| panic!("{mode}: {screen}"));
        assert!(
            line.contains(&format!("Players    {players} ")),
            "{mode}: {line}"
        );
        let blind = screen.contains("Blind nil  not bid with a dummy");
        assert_eq!(blind, mode == Mode::Dummy, "{mode}: {screen}");
        if blind {
            assert!(!screen.contains("one per side"), "{screen}");
            assert!(!screen.contains("exchange"), "{screen}");
        }
    }
}

/// With the exact-total house rule, a refused last bid is explained once.
#[test]
fn a_refused_bid_is_explained_once() {
    let mut config = config(Mode::Cutthroat, 2);
    config.game.rules = config
        .game
        .rules
        .with(|r| r.bidding.forbid_exact_total = true)
        .unwrap();
    for seed in 0..40 {
        config.game.seed = Some(seed);
        let mut app = app(config.clone());
        play_until(&mut app, |a| {
            a.human_turn().map(|t| t.decision) == Some(Decision::Bid)
        });
        let view = app.view();
        let others: u8 = view.bids().iter().flatten().map(|b| b.tricks()).sum();
        // Only the last bidder can be refused: the others have all bid.
        if view.bids().iter().flatten().count() != 2 || others >= 17 {
            continue;
        }
        let forbidden = 17 - others;
        chars(&mut app, &forbidden.to_string());
        press(&mut app, &[Key::Enter]);
        let screen = screen_text(&mut app, 80, 24);
        assert_eq!(screen.matches("house rule").count(), 1, "{screen}");
        return;
    }
    panic!("no seed left the player bidding last");
}
