//! Finds `hard` ruffing its partner's sure winner in recorded games:
//! `cargo run --release --example partner_ruffs -- FILE...`
//!
//! Every game is walked through the engine (`record::walk`, which checks
//! each line, so a game that does not replay stops the scan); at each card
//! a seat named `hard ...` played, from that seat's own view, a case is a
//! spade played on a side-suit lead over the partner's winning card when
//! the partner's card is sure as the seat can tell: no higher card of its
//! suit unseen, and no opponent still to play shown void in the suit led
//! (an opponent shown void may ruff). Cases where the seat held nothing
//! but spades are left out: it had no choice. `certain` marks the cases
//! `Position::partner_sure_winner` also calls sure (no later opponent can
//! beat the card by the voids shown, spades included): what `hard` refuses
//! to overtake unless its search is sure of a gain.
//!
//! Prints each case, with what it cost the side double-dummy (every card
//! seen, against the best card that leaves the partner's trick alone),
//! then the counts per 1,000 `hard` card decisions. With
//! `PARTNER_RUFFS_CASES=1` each case is also written in the blunder
//! suite's format (tests/bots/blunders/play.txt).
//! Exits 2 when a file cannot be read or does not replay.

use std::process::ExitCode;

use spades::bots::knowledge::{Position, above};
use spades::engine::play::{HandState, beats};
use spades::engine::{Action, Card, PlayerView, Seat, Suit};
use spades::record::{RecordError, RecordedGame, action_of, read_games, walk};
use spades::search::double_dummy::most_tricks_within;

#[derive(Default)]
struct Tally {
    decisions: u64,
    ruffs: u64,
    cases: u64,
    certain: u64,
    costly: u64,
    short: u64,
}

fn main() -> ExitCode {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: partner_ruffs FILE...");
        return ExitCode::from(2);
    }
    let mut tally = Tally::default();
    for path in &paths {
        if let Err(e) = scan_file(path, &mut tally) {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    }
    let per_1000 = |n: u64| 1000.0 * n as f64 / tally.decisions.max(1) as f64;
    println!(
        "hard card decisions {}, ruffs of a side-suit lead {}, ruffs of partner's sure winner {} ({:.2} per 1,000), of them certain {} ({:.2} per 1,000), costing the side a trick double-dummy {} ({:.2} per 1,000), turning a contract (ours set or theirs made) {} ({:.2} per 1,000)",
        tally.decisions,
        tally.ruffs,
        tally.cases,
        per_1000(tally.cases),
        tally.certain,
        per_1000(tally.certain),
        tally.costly,
        per_1000(tally.costly),
        tally.short,
        per_1000(tally.short)
    );
    ExitCode::SUCCESS
}

fn scan_file(path: &str, tally: &mut Tally) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let games = read_games(&text).map_err(|e| e.to_string())?;
    for (i, recorded) in games.iter().enumerate() {
        scan_game(i + 1, recorded, tally).map_err(|e| format!("game {}: {e}", i + 1))?;
    }
    Ok(())
}

fn scan_game(number: usize, recorded: &RecordedGame, tally: &mut Tally) -> Result<(), String> {
    let hard = |s: Seat| recorded.header.names[s.index()].starts_with("hard");
    walk(recorded, |at| {
        let Some((seat, Action::Play(card))) = action_of(at.event) else {
            return Ok::<(), RecordError>(());
        };
        if !hard(seat) {
            return Ok(());
        }
        tally.decisions += 1;
        let view = at.game.view(seat);
        if ruffs(&view, card) {
            tally.ruffs += 1;
        }
        if let Some(certain) = ruffs_sure_winner(&view, card) {
            tally.cases += 1;
            tally.certain += u64::from(certain);
            let cost = dd_cost(at.game.hand_state(), &view, card);
            if cost.is_some_and(|c| c.tricks > 0) {
                tally.costly += 1;
            }
            if cost.is_some_and(|c| c.sets_us || c.makes_theirs) {
                tally.short += 1;
            }
            print_case(number, &view, card, certain, cost);
            if std::env::var_os("PARTNER_RUFFS_CASES").is_some() {
                print_blunder_case(&view, card);
            }
        }
        Ok(())
    })
    .map_err(|e| e.to_string())?;
    Ok(())
}

/// A spade played on a side-suit lead.
fn ruffs(view: &PlayerView, card: Card) -> bool {
    matches!(view.play.led, Some(led) if led != Suit::Spades) && card.suit() == Suit::Spades
}

/// Does `card` ruff over the partner's sure winner, with a side-suit card
/// to play instead? `Some(certain)` when it does.
fn ruffs_sure_winner(view: &PlayerView, card: Card) -> Option<bool> {
    if !ruffs(view, card) || view.cards().suit(Suit::Spades) == view.cards() {
        return None;
    }
    let pos = Position::new(view);
    let (_, winner) = pos.winner?;
    let led = pos.led?;
    if !pos.partner_winning() || !beats(card, winner) {
        return None;
    }
    let top = above(pos.unseen, winner).is_empty();
    let followers = pos
        .later()
        .iter()
        .all(|&s| !pos.is_opponent(s) || !pos.void[led as usize][s]);
    // A partner's ruff is beaten only by a higher spade.
    let sure = top && (winner.suit() == Suit::Spades || followers);
    sure.then(|| pos.partner_sure_winner())
}

/// Positions the solver may visit before a case is left unpriced.
const DD_LIMIT: u64 = 2_000_000;

/// What `card` costs the side, every card seen, against the best card
/// that leaves the partner's trick alone: in tricks, and in tricks its
/// whether it turns a contract: the side's own set, or the opponents'
/// made (a trick past a contract is a bag, which the side may rightly
/// give away). `None` when the solver gives up.
fn dd_cost(hand: &HandState, view: &PlayerView, card: Card) -> Option<Cost> {
    let mode = view.mode();
    let side = view.teams().scoring_side(view.seat);
    let pos = Position::new(view);
    let (_, winner) = pos.winner?;
    let contract =
        i32::from(view.teams().side_tricks(side, &view.play.tricks_won)) + pos.need(side);
    let after = |c: Card| {
        let mut next = *hand;
        next.play_unchecked(c);
        most_tricks_within(&next, mode, side, DD_LIMIT).map(i32::from)
    };
    let mut best: Option<i32> = None;
    for c in view.legal_plays().iter().filter(|&c| !beats(c, winner)) {
        best = best.max(Some(after(c)?));
    }
    let (best, played) = (best?, after(card)?);
    // In partnership the other side takes every trick this one does not.
    let total = mode.hand_size() as i32;
    let theirs: i32 = pos
        .opponent_sides()
        .map(|o| i32::from(view.teams().side_tricks(o, &view.play.tricks_won)) + pos.need(o))
        .sum();
    let they_make = |ours: i32| theirs > 0 && total - ours >= theirs;
    Some(Cost {
        tricks: best - played,
        sets_us: contract > 0 && best >= contract && played < contract,
        makes_theirs: they_make(played) && !they_make(best),
    })
}

#[derive(Debug, Clone, Copy)]
struct Cost {
    tricks: i32,
    /// The side's contract, made with the best card, is set.
    sets_us: bool,
    /// The opponents' contract, set with the best card, is made.
    makes_theirs: bool,
}

fn print_case(number: usize, view: &PlayerView, card: Card, certain: bool, cost: Option<Cost>) {
    let mode = view.mode();
    let play = &view.play;
    let trick: Vec<String> = (0..view.seats())
        .map(|k| mode.after(play.leader, k))
        .filter_map(|s| play.trick[s].map(|c| format!("{}:{c}", s.index())))
        .collect();
    let bids: Vec<String> = mode
        .each_seat()
        .map(|s| {
            let bid = view.bids()[s].map_or("-".to_string(), |b| b.to_string());
            format!("{bid}/{}", play.tricks_won[s])
        })
        .collect();
    println!(
        "game {number} hand {} trick {} seat {}{}: hand {} trick {} played {card}  (bid/won by seat: {}) double-dummy cost {}",
        view.hand_no,
        play.tricks_done + 1,
        view.seat.index(),
        if certain { " certain" } else { "" },
        view.cards(),
        trick.join(" "),
        bids.join(" "),
        cost.map_or("?".to_string(), |c| format!(
            "{} trick(s){}{}",
            c.tricks,
            if c.sets_us { ", sets our contract" } else { "" },
            if c.makes_theirs { ", makes theirs" } else { "" }
        ))
    );
}

/// The case in the blunder suite's format, ready to paste.
fn print_blunder_case(view: &PlayerView, card: Card) {
    let mode = view.mode();
    let in_order = |leader: Seat, cards: &spades::engine::PerSeat<Option<Card>>| {
        (0..view.seats())
            .map(|k| mode.after(leader, k))
            .filter_map(|s| cards[s].map(|c| (s, c)))
            .collect::<Vec<_>>()
    };
    let bids: Vec<String> = mode
        .each_seat()
        .map(|s| view.bids()[s].map_or("-".to_string(), |b| b.to_string()))
        .collect();
    println!(
        "seat: {}   dealer: {}   bids: {}",
        view.seat.index(),
        view.dealer.index(),
        bids.join(" ")
    );
    for t in &view.tricks {
        let cards: Vec<String> = in_order(t.leader, &t.cards)
            .iter()
            .map(|(_, c)| c.to_string())
            .collect();
        println!("played: {}: {}", t.leader.index(), cards.join(" "));
    }
    println!("hand: {}", view.cards());
    let trick: Vec<String> = in_order(view.play.leader, &view.play.trick)
        .iter()
        .map(|(s, c)| format!("{}:{c}", s.index()))
        .collect();
    println!("trick: {}", trick.join(" "));
    println!("bots: hard\nmust-not: {card}\n");
}
