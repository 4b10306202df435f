//! The analysis in the replay viewer (`a`): it runs aside with its
//! progress in the bottom line while the viewer stays usable, Esc stops
//! it, and once done its panel lists the verdicts, moving through them
//! takes the replay to each, and the step of a judged decision carries its
//! mark. The analysis here is a stand-in that returns a review built by
//! hand from the game's own moves, so the screens are tested apart from
//! the search.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use spades::analysis::{
    ANALYSIS_VERSION, AllSeen, AnalysisError, Category, Class, GameReview, HandReview, Progress,
    Verdict,
};
use spades::engine::{Action, Bid, Card, Decision, Seat};
use spades::story::{StepEvent, Story};
use spades::tui::Key;
use spades::tui::replay::analysis::{Analyser, State};
use spades::tui::replay::{Outcome, Viewer};

use super::replay::{UNICODE, partnership, recorded, screen, screen_in, viewer};

/// A verdict on `chosen`, where `best` would have kept `lost` more of the
/// chance of winning.
fn judged(hand: u32, trick: Option<u8>, chosen: Action, best: Action, lost: f64) -> Verdict {
    let class = match lost {
        l if l >= 0.20 => Some(Class::Blunder),
        l if l >= 0.10 => Some(Class::Mistake),
        l if l >= 0.05 => Some(Class::Inaccuracy),
        _ => None,
    };
    Verdict {
        hand: hand as u16,
        trick,
        decision: match chosen {
            Action::Bid(_) => Decision::Bid,
            _ => Decision::Play,
        },
        chosen,
        // As the review names it: the choice itself when it lost nothing.
        best: if lost > 0.0 { best } else { chosen },
        win_chosen: 0.6 - lost,
        win_best: 0.6,
        points_chosen: 40.0,
        points_best: 40.0 + 100.0 * lost,
        class,
        category: if matches!(chosen, Action::Bid(_)) {
            Category::Bidding
        } else {
            Category::Play
        },
        not_judged: None,
    }
}

/// A review of seat 0 in `story`: every bid and card it made, judged
/// fine but for a few picked out — a bid a mistake, the third card of
/// the first hand a blunder, the first card of the second hand an
/// inaccuracy — with a chance of winning after each hand and, for the
/// first, what every card seen would have made.
fn review_of(story: &Story) -> GameReview {
    let seat = Seat::new(0);
    let mut decisions = Vec::new();
    let mut cards_seen = BTreeMap::new();
    for step in &story.steps {
        let hand = story.hands[step.hand].hand;
        let nth = cards_seen.entry(hand).or_insert(0);
        let trick = Some(step.tricks_done as u8 + 1);
        let verdict = match step.event {
            StepEvent::Bid { seat: s, bid } if s == seat => {
                let best = Action::Bid(Bid::Tricks(3));
                let lost = if hand == 1 { 0.12 } else { 0.0 };
                judged(hand, None, Action::Bid(bid), best, lost)
            }
            StepEvent::Play { seat: s, card, .. } if s == seat => {
                *nth += 1;
                let lost = match (hand, *nth) {
                    (1, 3) => 0.24,
                    (2, 1) => 0.06,
                    _ => 0.0,
                };
                let best = Action::Play("3H".parse::<Card>().unwrap());
                judged(hand, trick, Action::Play(card), best, lost)
            }
            _ => continue,
        };
        decisions.push(verdict);
    }
    let hands = story
        .hands
        .iter()
        .enumerate()
        .map(|(i, h)| HandReview {
            hand: h.hand as u16,
            win_after: [0.55, 0.38, 0.62, 0.8, 1.0][i.min(4)],
            points_lost: match h.hand {
                1 => BTreeMap::from([(Category::Bidding, 12.0), (Category::Play, 24.0)]),
                2 => BTreeMap::from([(Category::Play, 6.0)]),
                _ => BTreeMap::new(),
            },
            all_seen: (h.hand == 1).then_some(AllSeen {
                side_tricks: 9,
                side_bid: 7,
            }),
        })
        .collect();
    GameReview {
        version: ANALYSIS_VERSION,
        seat,
        decisions,
        hands,
    }
}

/// The stand-in analysis: it says it is 3 decisions of 12 in, then waits
/// for the test to let it finish, or for `stop`; `stopped` says whether it
/// saw the stop.
struct Fake {
    analyser: Analyser,
    finish: mpsc::Sender<()>,
    stopped: Arc<AtomicBool>,
}

fn fake(review: GameReview) -> Fake {
    let (finish, finished) = mpsc::channel::<()>();
    let finished = Mutex::new(finished);
    let stopped = Arc::new(AtomicBool::new(false));
    let saw = Arc::clone(&stopped);
    let run = move |stop: &AtomicBool,
                    progress: &mut dyn FnMut(Progress)|
          -> Result<GameReview, AnalysisError> {
        progress(Progress { done: 3, total: 12 });
        loop {
            if stop.load(Ordering::Relaxed) {
                saw.store(true, Ordering::Relaxed);
                return Err(AnalysisError::Stopped);
            }
            if finished.lock().unwrap().try_recv().is_ok() {
                return Ok(review.clone());
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    };
    Fake {
        analyser: Analyser::Run(Arc::new(run)),
        finish,
        stopped,
    }
}

/// Polls the viewer, as its loop does, until `done` holds of it.
fn wait_for(viewer: &mut Viewer, done: impl Fn(&Viewer) -> bool) {
    let until = Instant::now() + Duration::from_secs(20);
    while !done(viewer) {
        assert!(Instant::now() < until, "the analysis never got there");
        std::thread::sleep(Duration::from_millis(2));
        viewer.poll();
    }
}

fn running(viewer: &Viewer) -> bool {
    matches!(viewer.analysis().state(), State::Running(r) if r.progress().is_some())
}

fn done(viewer: &Viewer) -> bool {
    viewer.analysis().reviewed().is_some()
}

/// The viewer of a short game, with the stand-in analysis.
fn with_fake() -> (Viewer, Fake) {
    let game = recorded(partnership(), 7);
    let v = viewer(&game);
    let fake = fake(review_of(v.story()));
    (v.with_analyser(fake.analyser.clone()), fake)
}

#[test]
fn a_runs_the_analysis_aside_with_its_progress_and_esc_stops_it() {
    let (mut viewer, fake) = with_fake();
    assert_eq!(viewer.key(Key::Char('a')), Outcome::Stay);
    wait_for(&mut viewer, running);
    let text = screen(&viewer, 80, 24);
    assert!(text.contains("Analysing: 3 of 12 decisions"), "{text}");
    assert!(text.contains("a or Esc stops"), "{text}");
    insta::assert_snapshot!("replay_analysing_80x24", text);
    // The viewer goes on answering while it runs.
    viewer.key(Key::Right);
    viewer.key(Key::Right);
    assert_eq!(viewer.at(), 2);
    assert!(running(&viewer));
    // Esc stops it, and does not leave.
    assert_eq!(viewer.key(Key::Esc), Outcome::Stay);
    assert!(matches!(viewer.analysis().state(), State::Idle));
    let text = screen(&viewer, 80, 24);
    assert!(text.contains("Analysis stopped"), "{text}");
    let until = Instant::now() + Duration::from_secs(20);
    while !fake.stopped.load(Ordering::Relaxed) {
        assert!(Instant::now() < until, "the analysis never saw the stop");
        std::thread::sleep(Duration::from_millis(2));
    }
    // The line goes with the next key; a starts it again, and a stops it.
    viewer.key(Key::Left);
    assert!(!screen(&viewer, 80, 24).contains("Analysis stopped"));
    viewer.key(Key::Char('a'));
    wait_for(&mut viewer, running);
    viewer.key(Key::Char('a'));
    assert!(matches!(viewer.analysis().state(), State::Idle));
    assert_eq!(
        viewer.key(Key::Esc),
        Outcome::Leave,
        "Esc leaves once stopped"
    );
}

#[test]
fn the_finished_panel_lists_the_verdicts_and_moving_through_them_moves_the_replay() {
    let (mut viewer, fake) = with_fake();
    viewer.key(Key::Char('a'));
    wait_for(&mut viewer, running);
    fake.finish.send(()).unwrap();
    wait_for(&mut viewer, done);
    let reviewed = viewer.analysis().reviewed().unwrap();
    assert!(reviewed.is_open());
    let steps: Vec<Option<usize>> = reviewed.listed().map(|(_, s)| s).collect();
    assert!(steps.len() >= 3 && steps.iter().all(Option::is_some));
    let text = screen(&viewer, 80, 24);
    for part in ["Accuracy", "1 blunder ??", "1 mistake ?", "1 inaccuracy ?!"] {
        assert!(text.contains(part), "{part}: {text}");
    }
    assert!(text.contains("With all cards seen"), "{text}");
    assert!(text.contains("9 tricks, bid 7"), "{text}");
    insta::assert_snapshot!("replay_review_panel_80x24", text);
    insta::assert_snapshot!("replay_review_panel_100x30", screen(&viewer, 100, 30));
    let unicode = screen_in(&viewer, &UNICODE, 80, 24);
    insta::assert_snapshot!("replay_review_panel_unicode_80x24", unicode);
    // Down chooses the next decision and takes the replay to its step.
    viewer.key(Key::Down);
    assert_eq!(viewer.analysis().reviewed().unwrap().selected(), 1);
    assert_eq!(Some(viewer.at()), steps[1]);
    viewer.key(Key::End);
    assert_eq!(Some(viewer.at()), *steps.last().unwrap());
    viewer.key(Key::Home);
    assert_eq!(Some(viewer.at()), steps[0]);
    // Left and Right do nothing under the panel.
    viewer.key(Key::Right);
    assert_eq!(Some(viewer.at()), steps[0]);
    // Esc closes it where it is; a opens it again.
    assert_eq!(viewer.key(Key::Esc), Outcome::Stay);
    assert!(!viewer.analysis().reviewed().unwrap().is_open());
    viewer.key(Key::Char('a'));
    assert!(viewer.analysis().reviewed().unwrap().is_open());
}

#[test]
fn the_step_of_a_judged_decision_shows_its_mark_and_the_better_choice() {
    let (mut viewer, fake) = with_fake();
    viewer.key(Key::Char('a'));
    fake.finish.send(()).unwrap();
    wait_for(&mut viewer, done);
    // The blunder is second in the list, after the bid: Enter goes there.
    viewer.key(Key::Down);
    assert_eq!(viewer.key(Key::Enter), Outcome::Stay);
    assert!(!viewer.analysis().reviewed().unwrap().is_open());
    let text = screen(&viewer, 80, 24);
    assert!(
        text.contains("?? A blunder: the 3H was better (-24% win chance, -24 points)."),
        "{text}"
    );
    insta::assert_snapshot!("replay_marked_step_80x24", text);
    // A step nobody judged has the usual line.
    viewer.key(Key::Right);
    assert!(!screen(&viewer, 80, 24).contains("A blunder"));
    // n and N go to the next and the last judged decision, and choose it.
    let steps: Vec<Option<usize>> = viewer
        .analysis()
        .reviewed()
        .unwrap()
        .listed()
        .map(|(_, s)| s)
        .collect();
    viewer.key(Key::Char('n'));
    assert_eq!(Some(viewer.at()), steps[2]);
    assert_eq!(viewer.analysis().reviewed().unwrap().selected(), 2);
    viewer.key(Key::Char('n'));
    assert_eq!(Some(viewer.at()), steps[2], "nothing judged after the last");
    viewer.key(Key::Char('N'));
    viewer.key(Key::Char('N'));
    assert_eq!(Some(viewer.at()), steps[0]);
    viewer.key(Key::Char('a'));
    assert!(screen(&viewer, 80, 24).contains("> ?  Hand 1, bidding"));
}

#[test]
fn a_says_why_when_there_is_nothing_to_analyse() {
    let game = recorded(partnership(), 7);
    let mut viewer = viewer(&game).with_analyser(Analyser::Unavailable(
        "This game is not recorded, so it cannot be analysed.".into(),
    ));
    viewer.key(Key::Char('a'));
    assert!(matches!(viewer.analysis().state(), State::Idle));
    let text = screen(&viewer, 80, 24);
    assert!(text.contains("This game is not recorded"), "{text}");
}

#[test]
fn a_failed_analysis_says_why_in_a_line() {
    let game = recorded(partnership(), 7);
    let failing = Analyser::Run(Arc::new(|_: &AtomicBool, _: &mut dyn FnMut(Progress)| {
        Err(AnalysisError::Unfit("game review is not built yet".into()))
    }));
    let mut viewer = viewer(&game).with_analyser(failing);
    viewer.key(Key::Char('a'));
    wait_for(&mut viewer, |v| v.analysis().said().is_some());
    let text = screen(&viewer, 80, 24);
    assert!(
        text.contains("The game cannot be analysed: game review is not built yet."),
        "{text}"
    );
}

#[test]
fn leaving_the_viewer_stops_the_analysis() {
    let (mut viewer, fake) = with_fake();
    viewer.key(Key::Char('a'));
    wait_for(&mut viewer, running);
    assert_eq!(viewer.key(Key::Char('q')), Outcome::Leave);
    drop(viewer);
    let until = Instant::now() + Duration::from_secs(20);
    while !fake.stopped.load(Ordering::Relaxed) {
        assert!(
            Instant::now() < until,
            "the analysis went on after the viewer"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn a_long_game_scrolls_the_hands_and_the_decisions_to_the_one_chosen() {
    let game = recorded(partnership(), 7);
    let v = viewer(&game);
    let mut review = review_of(v.story());
    // Twelve hands, and a blunder in each: more than the panel has rows for.
    for hand in 4..=12u16 {
        review.hands.push(HandReview {
            hand,
            win_after: f64::from(hand) / 12.0,
            points_lost: BTreeMap::from([(Category::Bags, f64::from(hand))]),
            all_seen: None,
        });
        let mut blunder = review.decisions[5].clone();
        blunder.hand = hand;
        blunder.class = Some(Class::Blunder);
        blunder.win_chosen = blunder.win_best - 0.3;
        blunder.points_chosen = blunder.points_best - 30.0;
        blunder.best = Action::Play("3H".parse::<Card>().unwrap());
        review.decisions.push(blunder);
    }
    let fake = fake(review);
    let mut viewer = v.with_analyser(fake.analyser.clone());
    viewer.key(Key::Char('a'));
    fake.finish.send(()).unwrap();
    wait_for(&mut viewer, done);
    let first = screen(&viewer, 80, 24);
    assert!(first.contains("Hand 1, trick 3"), "{first}");
    assert!(!first.contains("Hand 12, trick"), "{first}");
    viewer.key(Key::End);
    let last = screen(&viewer, 80, 24);
    assert!(last.contains("Hand 12, trick"), "{last}");
    assert!(last.contains("  12  100%  bags 12"), "{last}");
    assert!(last.contains("> ?? Hand 12, trick"), "{last}");
    assert!(!last.contains("Hand 1, bidding"), "{last}");
    insta::assert_snapshot!("replay_review_panel_scrolled_80x24", last);
}
