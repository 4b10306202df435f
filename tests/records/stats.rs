//! Statistics and rating worked out from a records folder the real table
//! wrote: every figure is counted again here straight from the record's
//! JSON lines (bids, tricks and each side's score lines), without the
//! engine, and the rating's first steps are worked out with Glickman's
//! formulas by hand.

use serde_json::Value;
use spades::engine::Mode;
use spades::history::{History, Outcome};
use spades::rating::{self, Ledger};
use spades::stats::{self, Stats};
use support::played::{End, Spec, play_into};

/// What a record's lines say, counted by hand.
#[derive(Debug, Default, PartialEq)]
struct Counted {
    games: u32,
    won: u32,
    lost: u32,
    left: u32,
    unfinished: u32,
    hands: u32,
    hands_won: u32,
    made: u32,
    set: u32,
    nils: (u32, u32),
    blind_nils: (u32, u32),
    bags: i64,
    penalties: u32,
    penalty_points: i64,
    points: i64,
    streak: u32,
}

/// Counts one player's game (seat 0, side 0) from its record's lines.
fn count(text: &str, into: &mut Counted, streak: &mut u32) {
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let game = &lines[0];
    let partnership = game["mode"] == "partnership";
    let penalty_each = game["rules"]["bags"]["penalty"].as_i64().unwrap();
    // The player's seats: seat 0, and seat 2 in partnership.
    let ours: &[usize] = if partnership { &[0, 2] } else { &[0] };
    let mut bids: Vec<Value> = Vec::new();
    into.games += 1;
    let mut closed = false;
    for line in &lines[1..] {
        match line["event"].as_str().unwrap() {
            "deal" => bids = vec![Value::Null; game["names"].as_array().unwrap().len()],
            "bid" => bids[line["seat"].as_u64().unwrap() as usize] = line["bid"].clone(),
            "score" => {
                let tricks: Vec<i64> = line["tricks"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t.as_i64().unwrap())
                    .collect();
                let sides = line["sides"].as_array().unwrap();
                let points: Vec<i64> = sides
                    .iter()
                    .map(|s| s["points"].as_i64().unwrap())
                    .collect();
                into.hands += 1;
                if points[1..].iter().all(|&p| p < points[0]) {
                    into.hands_won += 1;
                }
                into.points += points[0];
                into.bags += sides[0]["bags_added"].as_i64().unwrap();
                let penalty = sides[0]["penalty"].as_i64().unwrap();
                into.penalty_points += penalty;
                into.penalties += (penalty / penalty_each) as u32;
                // The contract: the numeric bids, and their bidders' tricks.
                let numeric: Vec<usize> =
                    ours.iter().copied().filter(|&s| bids[s].is_u64()).collect();
                if !numeric.is_empty() {
                    let bid: u64 = numeric.iter().map(|&s| bids[s].as_u64().unwrap()).sum();
                    let taken: i64 = numeric.iter().map(|&s| tricks[s]).sum();
                    if taken >= bid as i64 {
                        into.made += 1;
                    } else {
                        into.set += 1;
                    }
                }
                let kind = match bids[0].as_str() {
                    Some("nil") => Some(&mut into.nils),
                    Some("blind_nil") => Some(&mut into.blind_nils),
                    _ => None,
                };
                if let Some((bid, made)) = kind {
                    *bid += 1;
                    *made += u32::from(tricks[0] == 0);
                }
            }
            "end" => {
                closed = true;
                if line["winner"] == 0 {
                    into.won += 1;
                    *streak += 1;
                    into.streak = into.streak.max(*streak);
                } else {
                    into.lost += 1;
                    *streak = 0;
                }
            }
            "abandoned" => {
                closed = true;
                into.left += 1;
                *streak = 0;
            }
            _ => {}
        }
    }
    if !closed {
        into.unfinished += 1;
    }
}

fn counted_by_stats(s: &Stats) -> Counted {
    Counted {
        games: s.games.games,
        won: s.games.won,
        lost: s.games.lost,
        left: s.games.left,
        unfinished: s.games.unfinished,
        hands: s.games.hands,
        hands_won: s.games.hands_won,
        made: s.contracts.made,
        set: s.contracts.set,
        nils: (s.nils.bid, s.nils.made),
        blind_nils: (s.blind_nils.bid, s.blind_nils.made),
        bags: s.bags,
        penalties: s.bag_penalties,
        penalty_points: s.penalty_points,
        points: s.points,
        streak: s.longest_winning_streak,
    }
}

/// Eighteen games in every mode, at random and easy, started a minute apart
/// but written in another order; one practice game, one left, one cut short.
fn folder() -> (tempfile::TempDir, Vec<Spec>) {
    let dir = tempfile::tempdir().unwrap();
    let mut specs: Vec<Spec> = (0..18)
        .map(|i| {
            let mode = Mode::ALL[i % 3];
            let level = if i % 2 == 0 { "random" } else { "easy" };
            Spec::new(mode, 100 + i as u64, 1_764_552_000 + 60 * i as u64, level)
        })
        .collect();
    specs[4].practice = true;
    specs[7].end = End::LeftAfter(2);
    specs[11].end = End::CutAfter(3);
    // Written newest first: the order comes from the `started` key.
    for spec in specs.iter().rev() {
        play_into(dir.path(), spec);
    }
    (dir, specs)
}

#[test]
fn the_statistics_are_the_records_counted_again() {
    let (dir, specs) = folder();
    let history = History::read(dir.path()).unwrap();
    assert!(history.unreadable.is_empty(), "{:?}", history.unreadable);
    assert_eq!(history.games.len(), 18);
    let ids: Vec<String> = history.games.iter().map(|g| g.id.clone()).collect();
    let oldest_first: Vec<String> = specs.iter().map(Spec::id).collect();
    assert_eq!(ids, oldest_first);

    let mut expected = Counted::default();
    let mut practice = Counted::default();
    let (mut streak, mut practice_streak) = (0, 0);
    for spec in &specs {
        let path = dir.path().join(format!("{}.jsonl", spec.id()));
        let text = std::fs::read_to_string(path).unwrap();
        if spec.practice {
            count(&text, &mut practice, &mut practice_streak);
        } else {
            count(&text, &mut expected, &mut streak);
        }
    }
    // The folder is worth counting: every kind of figure turns up.
    assert!(expected.won > 0 && expected.lost > 0, "{expected:?}");
    assert_eq!((expected.left, expected.unfinished), (1, 1));
    assert!(expected.made > 0 && expected.set > 0, "{expected:?}");
    assert!(expected.nils.0 > 0 && expected.bags > 0, "{expected:?}");

    let stats = Stats::of(&history.games);
    assert_eq!(counted_by_stats(&stats), expected);
    assert_eq!(stats.practice.games, 1);
    assert_eq!(stats.practice.hands, practice.hands);
    let hands = f64::from(expected.hands);
    assert_eq!(stats.points_per_hand, Some(expected.points as f64 / hands));
    assert_eq!(stats.bags_per_hand, Some(expected.bags as f64 / hands));

    // By mode and by level: six games of each mode, practice aside.
    let partnership = &stats.by_mode["partnership"];
    assert_eq!(partnership.games, 6);
    assert_eq!(stats.by_mode["cutthroat"].games, 5);
    assert_eq!(stats.by_mode["individual"].games, 6);
    assert_eq!(stats.by_level["random"].games, 8);
    assert_eq!(stats.by_level["easy"].games, 9);
    let all: u32 = stats.by_mode.values().map(|t| t.hands_won).sum();
    assert_eq!(all, expected.hands_won);

    // The summary shows them, in lines that fit a window of 70 columns.
    let lines = stats::render(&stats, &Ledger::of(&history.games));
    assert!(lines.iter().all(|l| l.chars().count() <= 70), "{lines:#?}");
    let text = lines.join("\n");
    assert!(
        text.contains(&format!("Games     17 played: {} won", expected.won)),
        "{text}"
    );
    assert!(
        text.contains(&format!("Contracts {} made", expected.made)),
        "{text}"
    );
    assert!(text.contains("Practice  1 game: "), "{text}");
}

/// Glicko-2 by hand (Glickman, "Example of the Glicko-2 system"), one
/// period against opponents of deviation 0, volatility kept at 0.06 (it
/// moves by less than a thousandth in one game, too little to show).
fn by_hand(rating: f64, deviation: f64, scores: &[f64], against: f64) -> (f64, f64) {
    let scale = 173.7178;
    let (mu, phi) = ((rating - 1500.0) / scale, deviation / scale);
    let mu_j = (against - 1500.0) / scale;
    let e = 1.0 / (1.0 + (-(mu - mu_j)).exp());
    let v = 1.0 / (scores.len() as f64 * e * (1.0 - e));
    let phi_star = (phi * phi + 0.06 * 0.06).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * scores.iter().map(|s| s - e).sum::<f64>();
    (1500.0 + scale * mu_new, scale * phi_new)
}

fn close_to(got: (f64, f64), want: (f64, f64)) -> bool {
    (got.0 - want.0).abs() < 0.5 && (got.1 - want.1).abs() < 0.5
}

#[test]
fn the_rating_moves_game_by_game_as_glicko_2_says() {
    let dir = tempfile::tempdir().unwrap();
    let at = 1_764_552_000;
    let mut practice = Spec::new(Mode::Partnership, 7, at, "easy");
    practice.practice = true;
    let first = Spec::new(Mode::Partnership, 8, at + 60, "easy");
    let second = Spec::new(Mode::Cutthroat, 9, at + 120, "easy");
    let mut left = Spec::new(Mode::Partnership, 10, at + 180, "easy");
    left.end = End::LeftAfter(1);
    let mut left_at_once = Spec::new(Mode::Partnership, 11, at + 240, "easy");
    left_at_once.end = End::LeftAfter(0);
    for spec in [&practice, &first, &second, &left, &left_at_once] {
        play_into(dir.path(), spec);
    }
    let history = History::read(dir.path()).unwrap();
    let games = &history.games;
    let change = |spec: &Spec| rating::change_for(dir.path(), &spec.id()).unwrap().ok();

    // Practice, and a game given up before a hand was played, are not rated.
    assert_eq!(change(&practice), None);
    assert_eq!(change(&left_at_once), None);
    assert_eq!(Ledger::of(&games[..1]).rating, rating::Rating::new_player());

    // The first rated game: one result against partnership's easy, rated
    // 1500 (the anchor, deviation 0). From 1500 ± 350 a win gives
    // 1675 ± 247 and a loss 1325 ± 247.
    let one = change(&first).expect("rated");
    assert_eq!(one.before, (1500.0, 350.0));
    let won = games[1].outcome == Outcome::Won;
    let want = by_hand(1500.0, 350.0, &[if won { 1.0 } else { 0.0 }], 1500.0);
    assert!(close_to(one.after, want), "{one:?}, by hand {want:?}");
    assert!((want.1 - 246.63).abs() < 0.01 && (want.0 - 1500.0).abs() > 175.0);

    // The second: a result against each of cutthroat easy's two players,
    // by final score, starting where the first left the rating.
    let two = change(&second).expect("rated");
    assert_eq!(two.before, one.after);
    let scores = &games[2].scores;
    let against: Vec<f64> = scores[1..]
        .iter()
        .map(|&theirs| match scores[0].cmp(&theirs) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        })
        .collect();
    let want = by_hand(one.after.0, one.after.1, &against, 1500.0);
    assert!(close_to(two.after, want), "{two:?}, by hand {want:?}");
    assert!(two.after.1 < two.before.1);

    // A game given up after a hand is lost against the level, so giving
    // up never saves a rating.
    let three = change(&left).expect("rated");
    assert_eq!(three.before, two.after);
    let want = by_hand(two.after.0, two.after.1, &[0.0], 1500.0);
    assert!(close_to(three.after, want), "{three:?}, by hand {want:?}");
    assert!(three.after.0 < three.before.0);

    // The ledger ends where the last rated game left it.
    let ledger = Ledger::of(games);
    assert_eq!(ledger.changes.len(), 3);
    assert_eq!((ledger.rating.rating, ledger.rating.deviation), three.after);

    // A game not in the folder is an error that says so.
    let err = rating::change_for(dir.path(), "game-0-nothere").unwrap_err();
    assert!(err.to_string().contains("no game game-0-nothere"), "{err}");
}

/// Open deals (a seed the player chose) could be known in advance and the
/// game replayed until won: such games leave the rating where it was, and
/// the statistics count them apart.
#[test]
fn games_with_open_deals_are_counted_apart_and_not_rated() {
    let dir = tempfile::tempdir().unwrap();
    let at = 1_764_552_000;
    let secret = Spec::new(Mode::Partnership, 8, at, "easy");
    play_into(dir.path(), &secret);
    let without = History::read(dir.path()).unwrap();
    // Replayed until won: the first seed from 1 whose game the player's
    // side wins.
    let won = (1..)
        .map(|seed| {
            let mut open = Spec::new(Mode::Partnership, seed, at + 60 + seed, "easy");
            open.open = true;
            open
        })
        .find(|open| {
            let path = play_into(dir.path(), open);
            let history = History::read(dir.path()).unwrap();
            let won = history
                .games
                .iter()
                .any(|g| g.id == open.id() && g.outcome == Outcome::Won);
            if !won {
                std::fs::remove_file(path).unwrap();
            }
            won
        })
        .unwrap();
    let history = History::read(dir.path()).unwrap();
    assert_eq!(history.games.len(), 2);

    assert_eq!(
        Ledger::of(&history.games),
        Ledger::of(&without.games),
        "the rating is as if the open game had not been played"
    );
    let why = rating::change_for(dir.path(), &won.id())
        .unwrap()
        .unwrap_err();
    assert_eq!(why, rating::Unrated::OpenDeals(won.seed));
    assert_eq!(
        why.to_string(),
        format!("Open deals (seed {}): not rated.", won.seed)
    );

    let stats = Stats::of(&history.games);
    assert_eq!(stats.games.games, 1);
    assert_eq!((stats.open_deals.games, stats.open_deals.won), (1, 1));
    let text = stats::render(&stats, &Ledger::of(&history.games)).join("\n");
    assert!(
        text.contains("Open deals 1 game: 1 won, ") && text.contains("(apart, not rated)"),
        "{text}"
    );
    assert!(text.contains("Games     1 played: "), "{text}");
    assert!(
        text.contains("against the computer: ") && text.contains(" after 1 rated game\n"),
        "{text}"
    );
}
