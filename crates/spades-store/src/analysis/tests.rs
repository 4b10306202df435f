use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use rand::SeedableRng;

use super::cache::{self, Key};
use super::judge::verdict;
use super::replay::walk;
use super::*;
use crate::bots::normal::NormalBot;
use crate::bots::{Bot, BotRng};
use crate::engine::{Bid, Card, CardSet, Event, Mode, PlayerView, Rules};
use crate::fairness::Dealing;
use crate::record::{GameInfo, MemoryRecord, read_games};
use crate::table::{Player, Table};

/// What a seat was asked, and the view the table gave it.
type Seen = Arc<Mutex<Vec<(Decision, PlayerView)>>>;

/// `normal`, noting every view the table hands it; on hand 1 it bids
/// `first_bid` instead of its own, when given one.
#[derive(Debug)]
struct Spy {
    seen: Seen,
    first_bid: Option<Bid>,
}

impl Bot for Spy {
    fn name(&self) -> &'static str {
        "spy"
    }
    fn fresh(&self) -> Box<dyn Bot> {
        Box::new(Spy {
            seen: Arc::clone(&self.seen),
            first_bid: self.first_bid,
        })
    }
    fn blind_nil(&mut self, view: &PlayerView, rng: &mut BotRng) -> bool {
        NormalBot::default().blind_nil(view, rng)
    }
    fn bid(&mut self, view: &PlayerView, rng: &mut BotRng) -> Bid {
        match self.first_bid {
            Some(bid) if view.hand_no == 1 => bid,
            _ => NormalBot::default().bid(view, rng),
        }
    }
    fn exchange(&mut self, view: &PlayerView, rng: &mut BotRng) -> CardSet {
        NormalBot::default().exchange(view, rng)
    }
    fn play(&mut self, view: &PlayerView, rng: &mut BotRng) -> Card {
        NormalBot::default().play(view, rng)
    }
    fn act(&mut self, decision: Decision, view: &PlayerView, rng: &mut BotRng) -> Action {
        if let Ok(mut seen) = self.seen.lock() {
            seen.push((decision, view.clone()));
        }
        match decision {
            Decision::BlindNil
                if view.check_bid(Bid::BlindNil).is_ok() && self.blind_nil(view, rng) =>
            {
                Action::Bid(Bid::BlindNil)
            }
            Decision::BlindNil => Action::Look,
            Decision::Bid => Action::Bid(self.bid(view, rng)),
            Decision::Exchange => Action::Exchange(self.exchange(view, rng)),
            Decision::Play => Action::Play(self.play(view, rng)),
        }
    }
}

/// A partnership game to `points`, seat 0 a spy among `normal` bots:
/// its record, and what seat 0 was shown.
fn played(seed: u64, points: i32, first_bid: Option<Bid>) -> (String, Vec<(Decision, PlayerView)>) {
    let rules = Rules::classic(Mode::Partnership)
        .with(|r| {
            r.target_score = points;
            r.losing_score = Some(-points);
        })
        .unwrap();
    let seen = Seen::default();
    let mut players = vec![Player::Bot(Box::new(Spy {
        seen: Arc::clone(&seen),
        first_bid,
    }))];
    for _ in 1..4 {
        players.push(Player::Bot(Box::new(NormalBot::default())));
    }
    let mut table = Table::new(rules, Dealing::Open(seed), players);
    let memory = MemoryRecord::default();
    let names = ["spy", "b", "c", "d"].map(String::from).to_vec();
    table
        .record_to(Box::new(memory.clone()), names, GameInfo::arena())
        .unwrap();
    table.run_bots().unwrap();
    drop(table);
    let seen = seen.lock().unwrap().clone();
    (memory.text(), seen)
}

fn first_game(text: &str) -> crate::record::RecordedGame {
    read_games(text).unwrap().remove(0)
}

#[test]
fn the_judge_is_given_the_view_the_table_gave_the_seat() {
    let mut blind = 0;
    for seed in 0..6 {
        let (text, seen) = played(seed, 500, None);
        blind += seen
            .iter()
            .filter(|(d, _)| *d == Decision::BlindNil)
            .count();
        let walked = walk(&first_game(&text), Seat::new(0)).unwrap();
        let judged: Vec<(Decision, PlayerView)> = walked
            .moments
            .iter()
            .map(|m| (m.decision, m.view.clone()))
            .collect();
        assert!(!seen.is_empty());
        assert_eq!(judged.len(), seen.len(), "seed {seed}");
        for (k, (walked, table)) in judged.iter().zip(&seen).enumerate() {
            assert_eq!(walked, table, "seed {seed}, decision {k}");
            // Face down before a blind nil is decided: no card at all.
            if walked.0 == Decision::BlindNil {
                assert_eq!(walked.1.hand, None);
            }
        }
    }
    assert!(blind > 0, "a blind nil on offer was among the decisions");
}

#[test]
fn a_game_still_being_played_is_judged_as_far_as_it_goes() {
    let (text, _) = played(3, 300, None);
    let lines: Vec<&str> = text.lines().collect();
    // Cut in the middle of the second hand, as a record still being written.
    let second = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.contains("\"event\":\"deal\""))
        .nth(1)
        .map(|(i, _)| i)
        .unwrap();
    let cut = lines[..second + 20].join("\n") + "\n";
    let whole = walk(&first_game(&text), Seat::new(0)).unwrap();
    let part = walk(&first_game(&cut), Seat::new(0)).unwrap();
    assert_eq!(part.hands.len(), 1, "only the first hand is scored");
    assert!(part.moments.len() > 13 && part.moments.len() < whole.moments.len());
    let m = part.moments.len();
    assert_eq!(
        part.moments.iter().map(|m| m.taken).collect::<Vec<_>>(),
        whole.moments[..m]
            .iter()
            .map(|m| m.taken)
            .collect::<Vec<_>>()
    );
}

#[test]
fn bidding_thirteen_on_an_ordinary_hand_is_a_blunder() {
    let (text, _) = played(5, 300, Some(Bid::Tricks(13)));
    let walked = walk(&first_game(&text), Seat::new(0)).unwrap();
    let bid = walked
        .moments
        .iter()
        .find(|m| m.decision == Decision::Bid)
        .unwrap();
    assert_eq!(bid.taken, Action::Bid(Bid::Tricks(13)));
    let mut rng = BotRng::seed_from_u64(1);
    let v = verdict(bid, crate::bots::Effort::Deals(48), &mut rng).unwrap();
    assert_eq!(v.class, Some(Class::Blunder), "{v:?}");
    assert_eq!(v.category, Category::Bidding);
    assert_ne!(v.best, v.chosen);
    assert!(
        v.lost() >= class::BLUNDER && v.points_best > v.points_chosen,
        "{v:?}"
    );
}

#[test]
fn a_hand_judged_alone_is_judged_as_in_the_whole_games_review() {
    let (text, _) = played(3, 300, None);
    let game = first_game(&text);
    let (seat, effort, stop) = (
        Seat::new(0),
        crate::bots::Effort::Deals(8),
        AtomicBool::new(false),
    );
    let whole = analyze(&game, seat, effort, &stop, &mut |_| {}).unwrap();
    let mut heard = Vec::new();
    let alone = analyze_hand(&game, seat, 2, effort, &stop, &mut |p| heard.push(p)).unwrap();
    assert_eq!(alone, whole.of_hand(2));
    assert!(!alone.decisions.is_empty() && alone.decisions.iter().all(|d| d.hand == 2));
    assert_eq!(
        heard.last().map(|p| (p.done, p.total)),
        Some((heard.len(), heard.len()))
    );
}

/// With every card seen, what one side can take the other cannot: the two
/// sides' figures for a hand add up to its 13 tricks, each beside its own
/// side's bid as the record has it.
#[test]
fn the_two_sides_seen_whole_share_the_hands_tricks() {
    let (text, _) = played(3, 300, None);
    let game = first_game(&text);
    let (effort, stop) = (crate::bots::Effort::Deals(1), AtomicBool::new(false));
    let seen = |seat: usize| {
        let review = analyze_hand(&game, Seat::new(seat), 1, effort, &stop, &mut |_| {}).unwrap();
        review.hands[0]
            .all_seen
            .expect("a partnership hand is solved")
    };
    let (ours, theirs) = (seen(0), seen(1));
    assert_eq!(
        ours.side_tricks + theirs.side_tricks,
        13,
        "{ours:?} {theirs:?}"
    );
    let bids: Vec<u8> = game
        .events
        .iter()
        .take_while(|(_, e)| !matches!(e, Event::Play { .. }))
        .filter_map(|(_, e)| match e {
            Event::Bid { bid, .. } => Some(bid.tricks()),
            _ => None,
        })
        .collect();
    assert_eq!(
        u32::from(ours.side_bid + theirs.side_bid),
        bids.iter().map(|&b| u32::from(b)).sum::<u32>()
    );
}

#[test]
fn a_stopped_analysis_says_so() {
    let (text, _) = played(3, 300, None);
    let stop = AtomicBool::new(true);
    let got = analyze(
        &first_game(&text),
        Seat::new(0),
        crate::bots::Effort::Deals(8),
        &stop,
        &mut |_| {},
    );
    assert_eq!(got, Err(AnalysisError::Stopped));
}

#[test]
fn the_accuracy_by_win_chance_falls_with_the_chance_lost() {
    assert!((chance_accuracy(0.0) - 100.0).abs() < 0.01);
    assert!(chance_accuracy(0.02) > 90.0 && chance_accuracy(0.10) < 70.0);
    assert_eq!(chance_accuracy(1.0), 0.0);
    assert_eq!(class::class_of(0.02, true), None);
    assert_eq!(class::class_of(0.04, true), Some(Class::Inaccuracy));
    assert_eq!(class::class_of(0.07, true), Some(Class::Mistake));
    assert_eq!(class::class_of(0.5, true), Some(Class::Blunder));
    // A choice `hard` would have made itself is no mistake, whatever it lost.
    assert_eq!(class::class_of(0.5, false), None);
}

fn review(seat: Seat) -> GameReview {
    GameReview {
        version: ANALYSIS_VERSION,
        seat,
        decisions: Vec::new(),
        hands: Vec::new(),
    }
}

#[test]
fn a_kept_analysis_is_found_until_its_record_changes() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game-1.jsonl");
    let text = "{\"event\":\"game\"}\n";
    std::fs::write(&record, text).unwrap();
    let seat = Seat::new(2);
    let key = Key::new(text, 1, seat, Depth::of(crate::bots::Effort::Deals(10))).unwrap();
    assert_eq!(cache::lookup(&record, &key), None);
    cache::store(&record, &key, &review(seat)).unwrap();
    assert_eq!(cache::lookup(&record, &key), Some(review(seat)));
    assert_eq!(cache::current(&record, text).len(), 1);
    // Another budget, another seat or another seed is another analysis.
    let other = Key::new(text, 1, seat, Depth::of(crate::bots::Effort::Deals(11))).unwrap();
    assert_eq!(cache::lookup(&record, &other), None);
    // A record that changed finds nothing, and its old analyses go.
    let changed = "{\"event\":\"game\"}\n{}\n";
    let new_key = Key::new(changed, 1, seat, Depth::of(crate::bots::Effort::Deals(10))).unwrap();
    assert_eq!(cache::lookup(&record, &new_key), None);
    assert!(cache::current(&record, changed).is_empty());
    cache::store(&record, &new_key, &review(seat)).unwrap();
    assert!(cache::current(&record, text).is_empty());
    assert_eq!(cache::current(&record, changed).len(), 1);
    // Another version of the analysis is another key.
    let mut old = new_key.clone();
    old.version = ANALYSIS_VERSION + 1;
    assert_eq!(cache::lookup(&record, &old), None);
    // A timed budget is never kept: its verdicts depend on the machine.
    let timed = crate::bots::Effort::Time(std::time::Duration::from_millis(5));
    assert_eq!(Key::new(text, 1, seat, Depth::of(timed)), None);
}

/// A choice as good as the best one is named as the best, the card the
/// player played (not the equal one the search tried for it); one that
/// lost anything is not; and every hand scored has its review.
#[test]
fn a_choice_as_good_as_the_best_is_the_best() {
    let (text, _) = played(3, 300, None);
    let recorded = first_game(&text);
    let stop = AtomicBool::new(false);
    let mut heard = Vec::new();
    let effort = crate::bots::Effort::Deals(8);
    let review = analyze(&recorded, Seat::new(0), effort, &stop, &mut |p| {
        heard.push(p)
    })
    .unwrap();
    assert!(review.decisions.len() > 20);
    for v in &review.decisions {
        assert_eq!(v.lost() == 0.0, v.best == v.chosen, "{v:?}");
        // Classed by the thresholds, and only where hard would not have
        // made the choice.
        if let Some(class) = v.class {
            assert_eq!(Some(class), class::class_of(v.lost(), true), "{v:?}");
        }
    }
    let last = heard.last().unwrap();
    assert_eq!(last.done, last.total);
    let scored = text.matches("\"event\":\"score\"").count();
    assert_eq!(review.hands.len(), scored);
    let end = review.hands.last().unwrap().win_after;
    assert!(end == 0.0 || end == 1.0, "the game is decided: {end}");
}

#[test]
fn classes_are_counted_in_words() {
    assert_eq!(Class::Inaccuracy.counted(0), "0 inaccuracies");
    assert_eq!(Class::Inaccuracy.counted(1), "1 inaccuracy");
    assert_eq!(Class::Blunder.counted(2), "2 blunders");
    assert_eq!(Category::NilCover.name(), "covering nil");
}

/// Seat 0's verdicts in a short seeded game at a small budget, no hand
/// solved with every card seen: what the review says is pinned, so a
/// change to the search or the bots it plays out with shows here. When
/// this snapshot changes because the search changed, raise
/// `ANALYSIS_VERSION`: reviews kept beside records were judged the old way.
#[test]
fn a_seeded_games_verdicts_are_pinned() {
    let (text, _) = played(3, 200, None);
    let depth = Depth {
        effort: crate::bots::Effort::Deals(16),
        seed: 0,
        all_seen: false,
    };
    let stop = AtomicBool::new(false);
    let review =
        analyze_seeded(&first_game(&text), Seat::new(0), depth, &stop, &mut |_| {}).unwrap();
    let lines: Vec<String> = review
        .decisions
        .iter()
        .map(|d| {
            serde_json::json!({
                "hand": d.hand,
                "trick": d.trick,
                "chosen": d.chosen,
                "best": d.best,
                "class": d.class,
            })
            .to_string()
        })
        .collect();
    insta::assert_snapshot!(lines.join("\n"));
}

/// Seat 0 bids nil on hand 1 and keeps it into the hand's last tricks:
/// its cards before them are weighed but not judged (a hint keeps
/// `normal`'s card there, `search_trusted`), while those of the last
/// tricks, which the search solves exactly, are judged as any other.
#[test]
fn a_card_beside_a_live_nil_is_judged_only_in_the_exact_endgame() {
    use crate::search::endgame::EXACT_TRICKS;
    let me = Seat::new(0);
    let live = |m: &replay::Moment| m.view.play.tricks_won[me] == 0;
    let endgame = |m: &replay::Moment| 13 - m.view.play.tricks_done <= EXACT_TRICKS;
    let choice = |m: &replay::Moment| m.view.legal_plays().len() >= 2;
    let plays = (0..16)
        .find_map(|seed| {
            let (text, _) = played(seed, 300, Some(Bid::Nil));
            let walked = walk(&first_game(&text), me).unwrap();
            let plays: Vec<_> = walked
                .moments
                .into_iter()
                .filter(|m| m.hand == 1 && m.decision == Decision::Play && live(m))
                .collect();
            let late = plays.iter().any(|m| endgame(m) && choice(m));
            late.then_some(plays)
        })
        .expect("some seed's nil lives into the last tricks with a choice left");
    let mut rng = BotRng::seed_from_u64(1);
    let (mut early, mut late) = (0, 0);
    for m in &plays {
        let Some(v) = verdict(m, crate::bots::Effort::Deals(8), &mut rng) else {
            continue;
        };
        if endgame(m) {
            assert_eq!(v.not_judged, None, "{v:?}");
            assert!(
                v.class.is_none() || v.class == class::class_of(v.lost(), true),
                "{v:?}"
            );
            late += 1;
        } else {
            assert_eq!(v.not_judged, Some(NotJudged::SideNil), "{v:?}");
            assert_eq!((v.class, v.best, v.lost()), (None, v.chosen, 0.0), "{v:?}");
            early += 1;
        }
    }
    assert!(early > 0 && late > 0, "early {early}, late {late}");
}

/// A decision not judged counts in neither the accuracy nor the classes,
/// however far its figures lie from the best's.
#[test]
fn a_decision_not_judged_leaves_the_accuracy_alone() {
    let card = Action::Play("AS".parse().unwrap());
    let decision = |win_chosen: f64, not_judged| Verdict {
        hand: 1,
        trick: Some(1),
        decision: Decision::Play,
        chosen: card,
        best: card,
        win_chosen,
        win_best: 0.5,
        points_chosen: (win_chosen - 0.5) * 100.0,
        points_best: 0.0,
        class: None,
        category: Category::NilCover,
        not_judged,
    };
    let mut review = review(Seat::new(0));
    review.decisions = vec![decision(0.5, None), decision(0.1, Some(NotJudged::SideNil))];
    assert_eq!(review.accuracy(), Some(100.0));
    assert_eq!(review.chance_accuracy(), Some(chance_accuracy(0.0)));
    assert!(review.counts().is_empty());
    review.decisions.pop();
    review.decisions.push(decision(0.1, None));
    assert!(review.accuracy().unwrap() < 60.0);
    assert!(review.chance_accuracy().unwrap() < 60.0);
}

/// A play decision with these figures for the chosen and the best choice.
fn weighed(win: (f64, f64), points: (f64, f64)) -> Verdict {
    let card = Action::Play("AS".parse().unwrap());
    Verdict {
        hand: 1,
        trick: Some(1),
        decision: Decision::Play,
        chosen: card,
        best: card,
        win_chosen: win.0,
        win_best: win.1,
        points_chosen: points.0,
        points_best: points.1,
        class: None,
        category: Category::Play,
        not_judged: None,
    }
}

/// The formula of docs/analysis.md: `100 e^(-(p + m) / 10)`, `p` the
/// points lost (never below 0), `m` 10 for a choice that was not the best.
#[test]
fn a_decisions_accuracy_falls_with_the_points_lost() {
    let close = |a: f64, b: f64| (a - b).abs() < 0.05;
    // The best choice, or one as good: nothing lost.
    assert_eq!(decision_accuracy(0.0, true), 100.0);
    // Not the best, though it kept as many points: a trick's worth.
    assert!(close(decision_accuracy(0.0, false), 36.79));
    // A choice that lost a trick of its contract, 10 points.
    assert!(close(decision_accuracy(10.0, false), 13.53));
    // A bag.
    assert!(close(decision_accuracy(1.0, false), 33.29));
    // A contract of 4 set instead of made (40 + 40 points): about 0.
    assert!(decision_accuracy(80.0, false) < 0.02);
    // More points than the best (the best is ranked by win chance): no
    // more than nothing lost, never above 100, never below 0.
    assert_eq!(
        decision_accuracy(-12.0, false),
        decision_accuracy(0.0, false)
    );
    assert_eq!(decision_accuracy(-12.0, true), 100.0);
    assert!(decision_accuracy(1e9, false) >= 0.0);
    // Read from a verdict: the points the best choice kept and the
    // chosen one did not, never below 0.
    assert_eq!(weighed((0.5, 0.5), (40.0, 50.0)).points_lost(), 10.0);
    assert_eq!(weighed((0.4, 0.5), (60.0, 50.0)).points_lost(), 0.0);
}

/// The game's accuracy is the plain average of its judged decisions'
/// accuracies (points lost, and whether each was the best); the one by win
/// chance, of theirs by win chance lost. A game where the chance hardly
/// moves still shows the choices that were not the best.
#[test]
fn a_games_accuracy_is_the_average_of_its_decisions() {
    let other = Action::Play("2S".parse().unwrap());
    let not_best = |mut v: Verdict| {
        v.best = other;
        v
    };
    let mut review = review(Seat::new(0));
    review.decisions = vec![
        weighed((0.999, 0.999), (50.0, 50.0)),
        not_best(weighed((0.998, 0.999), (40.0, 50.0))),
        not_best(weighed((0.9985, 0.999), (50.0, 50.0))),
        not_best(weighed((0.9, 0.999), (-50.0, 50.0))),
    ];
    let by_points = (100.0 + 13.534 + 36.788 + 0.0) / 4.0;
    let got = review.accuracy().unwrap();
    assert!((got - by_points).abs() < 0.01, "{got} against {by_points}");
    let by_chance = [0.0, 0.001, 0.0005, 0.099].map(chance_accuracy);
    let want = by_chance.iter().sum::<f64>() / 4.0;
    assert!((review.chance_accuracy().unwrap() - want).abs() < 1e-9);
    // The first three lost at most a tenth of a point of win chance: by
    // win chance they read as near perfect, by this accuracy they do not.
    review.decisions.pop();
    assert!(review.chance_accuracy().unwrap() > 99.0);
    assert!(review.accuracy().unwrap() < 60.0);
    review.decisions.clear();
    assert_eq!((review.accuracy(), review.chance_accuracy()), (None, None));
}

/// A partnership game to `points` of four `hard` bots, each thinking
/// `effort` per decision, blind nil on offer whatever the scores: its
/// record.
fn hard_game(seed: u64, points: i32, effort: crate::bots::Effort) -> String {
    use crate::bots::hard::HardBot;
    let rules = Rules::classic(Mode::Partnership)
        .with(|r| {
            r.target_score = points;
            r.losing_score = Some(-points);
            r.blind_nil.min_deficit = 0;
        })
        .unwrap();
    let players = (0..4)
        .map(|_| Player::Bot(Box::new(HardBot::with_effort(effort))))
        .collect();
    let mut table = Table::new(rules, Dealing::Open(seed), players);
    let memory = MemoryRecord::default();
    let names = ["a", "b", "c", "d"].map(String::from).to_vec();
    table
        .record_to(Box::new(memory.clone()), names, GameInfo::arena())
        .unwrap();
    table.run_bots().unwrap();
    drop(table);
    memory.text()
}

/// `hard` against itself: the review faults only what `hard` would not
/// have done (the search sure another choice wins more, the blind-nil
/// rule's choice at the offer), so over seeded games it calls `hard`'s
/// own choices blunders at most about once in two games. Blind nil is on
/// offer every hand, so the rule meets the review often. Kept cheap for a
/// debug build: games to 300, `hard` thinking 48 deals a decision (not
/// its 300), the review 240 (not its 5000), one seat's review a game; at
/// the real budgets the figure is measured in docs/analysis.md. Judged as
/// before (classed by the mean win chance lost alone, blind nil by the
/// search's mean), these games showed 6 blunders, 4 of them a "look".
#[test]
fn the_review_rarely_calls_hards_own_choices_blunders() {
    use crate::bots::Effort;
    const GAMES: u64 = 4;
    let depth = Depth {
        effort: Effort::Deals(240),
        seed: 0,
        all_seen: false,
    };
    let stop = AtomicBool::new(false);
    let mut blunders = Vec::new();
    for seed in 0..GAMES {
        let text = hard_game(seed, 300, Effort::Deals(48));
        let seat = Seat::new(seed as usize % 4);
        let review = analyze_seeded(&first_game(&text), seat, depth, &stop, &mut |_| {}).unwrap();
        let faulted: Vec<&Verdict> = review
            .decisions
            .iter()
            .filter(|v| v.class == Some(Class::Blunder))
            .collect();
        blunders.extend(faulted.into_iter().cloned());
    }
    assert!(
        blunders.len() as u64 <= GAMES.div_ceil(2),
        "{} blunders in {GAMES} games: {blunders:#?}",
        blunders.len()
    );
}
