//! The player's statistics, counted from the engine's own score of every
//! hand of every game in the history: nothing is scored again here, and
//! nothing is kept between runs.
//!
//! Contracts, bags, penalties and points are the player's side's (in
//! partnership, the player's and the partner's together); nils are the
//! player's own. A hand is won when the player's side scored more points in
//! it than every other side.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::engine::HandResult;
use crate::history::{FolderError, History, Outcome, PlayedGame};
use crate::rating::{Ledger, Unrated, apart};

pub mod analyses;
pub use analyses::Analyses;

/// Games and hands played and won.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub games: u32,
    pub won: u32,
    pub lost: u32,
    pub left: u32,
    /// Records with no closing line (see `Outcome::Unfinished`).
    pub unfinished: u32,
    pub hands: u32,
    pub hands_won: u32,
}

impl Tally {
    fn add(&mut self, game: &PlayedGame) {
        self.games += 1;
        match game.outcome {
            Outcome::Won => self.won += 1,
            Outcome::Lost => self.lost += 1,
            Outcome::Left => self.left += 1,
            Outcome::Unfinished => self.unfinished += 1,
        }
        self.hands += game.results.len() as u32;
        self.hands_won += game.results.iter().filter(|r| hand_won(game, r)).count() as u32;
    }
}

/// Bids of one kind, and how many were made.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Made {
    pub bid: u32,
    pub made: u32,
}

/// The player's side's contracts: made (at least the tricks bid) or set.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Contracts {
    pub made: u32,
    pub set: u32,
}

/// Everything `spades stats` shows but the rating.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Stats {
    /// Every game but practice games.
    pub games: Tally,
    pub by_mode: BTreeMap<String, Tally>,
    /// By the computer players' level.
    pub by_level: BTreeMap<String, Tally>,
    pub contracts: Contracts,
    pub nils: Made,
    pub blind_nils: Made,
    /// Bags the player's side took.
    pub bags: i64,
    pub bags_per_hand: Option<f64>,
    /// Times the bags reached the limit, and the points that cost.
    pub bag_penalties: u32,
    pub penalty_points: i64,
    /// Points the player's side scored, penalties included.
    pub points: i64,
    pub points_per_hand: Option<f64>,
    /// Games won in a row, in the order they were played; a game lost or
    /// left ends a streak, an unfinished one neither adds nor ends.
    pub longest_winning_streak: u32,
    /// Practice games, counted apart and in nothing above.
    pub practice: Tally,
    /// Quick Play runs, counted apart and in nothing above: they are
    /// played for a total, not won or lost.
    pub runs: Runs,
    /// Games with open deals (a seed given with `--seed`), counted apart
    /// and in nothing above: their deals could be known in advance.
    pub open_deals: Tally,
}

/// How many Quick Play runs best runs to keep.
const BEST_RUNS: usize = 5;

/// Quick Play runs: how many, and the best by total (then fewest hands).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Runs {
    /// Runs finished (the last life lost), and runs left or unfinished.
    pub finished: u32,
    pub unfinished: u32,
    pub best: Vec<Run>,
}

/// One finished Quick Play run, for the personal best table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Run {
    pub id: String,
    pub mode: String,
    pub total: i32,
    pub hands: u32,
    /// When it started, seconds since 1970 (when the record says).
    pub started: Option<u64>,
}

impl Runs {
    fn add(&mut self, game: &PlayedGame) {
        if !matches!(game.outcome, Outcome::Won | Outcome::Lost) {
            self.unfinished += 1;
            return;
        }
        self.finished += 1;
        self.best.push(Run {
            id: game.id.clone(),
            mode: game.mode.to_string(),
            total: game.run_total(),
            hands: game.results.len() as u32,
            started: game.info.started,
        });
        self.best
            .sort_by(|a, b| b.total.cmp(&a.total).then(a.hands.cmp(&b.hands)));
        self.best.truncate(BEST_RUNS);
    }
}

impl Stats {
    /// The statistics of `games`, oldest first.
    pub fn of(games: &[PlayedGame]) -> Stats {
        let mut stats = Stats::default();
        let mut streak = 0;
        for game in games {
            match apart(game) {
                Some(Unrated::Practice) => stats.practice.add(game),
                Some(Unrated::QuickPlay) => stats.runs.add(game),
                // Open deals: `apart` gives nothing else.
                Some(_) => stats.open_deals.add(game),
                None => stats.count(game, &mut streak),
            }
        }
        let per_hand = |n: i64| {
            let hands = stats.games.hands;
            (hands > 0).then(|| n as f64 / f64::from(hands))
        };
        stats.bags_per_hand = per_hand(stats.bags);
        stats.points_per_hand = per_hand(stats.points);
        stats
    }

    /// Counts a game that is not counted apart; `streak` is the run of
    /// wins up to it.
    fn count(&mut self, game: &PlayedGame, streak: &mut u32) {
        self.games.add(game);
        self.by_mode
            .entry(game.mode.to_string())
            .or_default()
            .add(game);
        self.by_level.entry(game.level()).or_default().add(game);
        for result in &game.results {
            self.add_hand(game, result);
        }
        match game.outcome {
            Outcome::Won => *streak += 1,
            Outcome::Lost | Outcome::Left => *streak = 0,
            Outcome::Unfinished => {}
        }
        self.longest_winning_streak = self.longest_winning_streak.max(*streak);
    }

    fn add_hand(&mut self, game: &PlayedGame, result: &HandResult) {
        let Some(side) = result.sides.get(game.side()) else {
            return;
        };
        if let Some(contract) = side.contract {
            if contract.made() {
                self.contracts.made += 1;
            } else {
                self.contracts.set += 1;
            }
        }
        for nil in side.nils.iter().flatten().filter(|n| n.seat == game.seat) {
            let kind = if nil.blind {
                &mut self.blind_nils
            } else {
                &mut self.nils
            };
            kind.bid += 1;
            kind.made += u32::from(nil.made());
        }
        self.bags += i64::from(side.bags_added);
        self.bag_penalties += side.penalties;
        self.penalty_points += i64::from(side.penalty);
        self.points += i64::from(side.points);
    }
}

/// Did the player's side score more points in this hand than every other?
fn hand_won(game: &PlayedGame, result: &HandResult) -> bool {
    let mine = game.side();
    let Some(points) = result.sides.get(mine).map(|s| s.points) else {
        return false;
    };
    result
        .sides
        .pairs()
        .all(|(side, s)| side == mine || s.points < points)
}

/// `part` of `whole` as a whole percentage, or nothing of nothing.
fn percent(part: u32, whole: u32) -> String {
    if whole == 0 {
        String::new()
    } else {
        format!(
            " ({}%)",
            (f64::from(part) * 100.0 / f64::from(whole)).round()
        )
    }
}

fn plural(n: impl Into<i64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `render` for the games recorded in `dir`, with a word on the records
/// that could not be read: what the table's statistics window shows.
pub fn summary_of(dir: &std::path::Path) -> Result<Vec<String>, FolderError> {
    let history = History::read(dir)?;
    let mut lines = render(&Stats::of(&history.games), &Ledger::of(&history.games));
    if !history.unreadable.is_empty() {
        lines.push(String::new());
        lines.push(format!(
            "Left out: {} record(s) that could not be read (spades stats names them).",
            history.unreadable.len()
        ));
    }
    Ok(lines)
}

/// The summary `spades stats` prints, as plain lines of at most 70
/// columns (for a window of the table too): the figures, then the rating.
/// For the player's records folder:
///
/// ```no_run
/// # fn main() -> Result<(), spades_store::history::FolderError> {
/// use spades_store::{history::History, rating::Ledger, stats};
/// let dir = spades_formats::paths::records().expect("a home");
/// let history = History::read(&dir)?;
/// let lines = stats::render(
///     &stats::Stats::of(&history.games),
///     &Ledger::of(&history.games),
/// );
/// # Ok(()) }
/// ```
pub fn render(stats: &Stats, ledger: &Ledger) -> Vec<String> {
    let mut out = Vec::new();
    if stats.games.games == 0 {
        out.push(nothing_played(stats));
    } else {
        out.extend(games_and_hands(&stats.games));
        out.extend(splits(stats));
        out.push(String::new());
        out.extend(bids_and_points(stats));
    }
    out.extend(apart_line("Practice ", &stats.practice));
    out.extend(apart_line("Open deals", &stats.open_deals));
    out.extend(quick_play(&stats.runs));
    out.push(String::new());
    out.extend(crate::rating::render(ledger));
    out
}

/// The one line shown before any game but practice or a run: the rest of
/// the figures would all be nothing.
fn nothing_played(stats: &Stats) -> String {
    let aside = match (stats.practice.games > 0, stats.open_deals.games > 0) {
        (true, true) => ", practice and open deals aside",
        (true, false) => ", practice aside",
        (false, true) => ", open deals aside",
        (false, false) => "",
    };
    format!("No games played yet{aside}.")
}

/// Games won and lost (and left or unfinished, when some were), then hands.
fn games_and_hands(t: &Tally) -> Vec<String> {
    let mut out = Vec::new();
    let games = format!(
        "Games     {} played: {} won{}, {} lost",
        t.games,
        t.won,
        percent(t.won, t.games),
        t.lost
    );
    let mut rest = Vec::new();
    if t.left > 0 {
        rest.push(format!("{} left", t.left));
    }
    if t.unfinished > 0 {
        rest.push(format!("{} unfinished", t.unfinished));
    }
    // On a line of their own when the line would not fit 70 columns.
    let rest = rest.join(", ");
    if rest.is_empty() {
        out.push(games);
    } else if games.len() + rest.len() + 2 <= 70 {
        out.push(format!("{games}, {rest}"));
    } else {
        out.push(games + ",");
        out.push(format!("          {rest}"));
    }
    out.push(format!(
        "Hands     {} played: {} won{}",
        t.hands,
        t.hands_won,
        percent(t.hands_won, t.hands)
    ));
    out
}

/// The games and hands again, by mode and by level: a table each, after a
/// blank line.
fn splits(stats: &Stats) -> Vec<String> {
    let mut out = Vec::new();
    for (title, split) in [("mode", &stats.by_mode), ("level", &stats.by_level)] {
        out.push(String::new());
        out.push(format!(
            "By {title:<12} {:>7} {:>7} {:>7} {:>7}",
            "games", "won", "hands", "won"
        ));
        for (name, t) in split {
            let name = crate::outside::escaped_line(&name.to_string());
            out.push(format!(
                "  {name:<13} {:>7} {:>7} {:>7} {:>7}",
                t.games, t.won, t.hands, t.hands_won
            ));
        }
    }
    out
}

/// How the bids went (contracts, nils), then bags, points and the streak.
fn bids_and_points(stats: &Stats) -> Vec<String> {
    let mut out = Vec::new();
    let c = &stats.contracts;
    out.push(format!(
        "Contracts {} made{}, {} set",
        c.made,
        percent(c.made, c.made + c.set),
        c.set
    ));
    for (name, m) in [("Nils", &stats.nils), ("Blind nil", &stats.blind_nils)] {
        out.push(format!(
            "{name:<9} {} bid, {} made{}",
            m.bid,
            m.made,
            percent(m.made, m.bid)
        ));
    }
    let per_hand = |x: Option<f64>| x.map_or_else(|| "-".to_string(), |x| format!("{x:.2}"));
    out.push(format!(
        "Bags      {} a hand ({} in all)",
        per_hand(stats.bags_per_hand),
        stats.bags,
    ));
    out.push(format!(
        "Bag penalties {}, {} points",
        stats.bag_penalties, -stats.penalty_points
    ));
    out.push(format!(
        "Points    {} a hand ({} in all)",
        per_hand(stats.points_per_hand),
        stats.points
    ));
    out.push(format!(
        "Longest winning streak: {}",
        plural(stats.longest_winning_streak, "game", "games")
    ));
    out
}

/// Games counted apart (practice, open deals) on a line of their own, said
/// to be so; nothing when there were none.
fn apart_line(title: &str, p: &Tally) -> Vec<String> {
    if p.games == 0 {
        return Vec::new();
    }
    vec![
        String::new(),
        format!(
            "{title} {}: {} won, {} (apart, not rated)",
            plural(p.games, "game", "games"),
            p.won,
            plural(p.hands, "hand", "hands"),
        ),
    ]
}

/// Quick Play runs, counted apart, and the table of the best; nothing when
/// there were none.
fn quick_play(runs: &Runs) -> Vec<String> {
    let mut out = Vec::new();
    if runs.finished + runs.unfinished == 0 {
        return out;
    }
    out.push(String::new());
    out.push(format!(
        "Quick Play {} finished{} (apart, not rated)",
        plural(runs.finished, "run", "runs"),
        if runs.unfinished > 0 {
            format!(", {} left or unfinished", runs.unfinished)
        } else {
            String::new()
        }
    ));
    if !runs.best.is_empty() {
        out.push(format!(
            "  {:<4} {:>7} {:>6}  {:<12} {}",
            "best", "total", "hands", "mode", "started (UTC)"
        ));
    }
    for (i, run) in runs.best.iter().enumerate() {
        let started = run
            .started
            .map_or_else(|| "-".to_string(), crate::history::utc_minute);
        out.push(format!(
            "  {:<4} {:>7} {:>6}  {:<12} {started}",
            i + 1,
            run.total,
            run.hands,
            run.mode
        ));
    }
    out
}

/// `spades stats --json`: the statistics, the rating, and what was read.
#[derive(Serialize)]
pub struct Report<'a> {
    #[serde(flatten)]
    pub stats: &'a Stats,
    pub rating: crate::rating::Summary<'a>,
    pub records_folder: &'a std::path::Path,
    pub record_files: usize,
    pub unreadable: &'a [crate::history::Unreadable],
    /// The games analysed so far (`spades analyze`), read from the cache.
    pub analyses: &'a Analyses,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    use crate::bots::Level;
    use crate::engine::score::score_hand;
    use crate::engine::{Bid, Mode, PerSeat, PerSide, Rules, Seat, SideTotals};
    use crate::record::GameInfo;

    /// A hand under the classic rules, scored by the engine from each
    /// seat's bid and tricks, with each side's totals before it.
    fn hand(mode: Mode, bids: &[Bid], tricks: &[u8], before: &[(i32, i32)]) -> HandResult {
        let rules = Rules::classic(mode);
        let bids = PerSeat::from_slice(bids).unwrap();
        let tricks = PerSeat::from_slice(tricks).unwrap();
        let before: Vec<SideTotals> = before
            .iter()
            .map(|&(score, bags)| SideTotals { score, bags })
            .collect();
        let before = PerSide::from_slice(&before).unwrap();
        HandResult {
            hand: 1,
            dealer: Seat::new(0),
            bids,
            declarer: None,
            tricks,
            sides: score_hand(&rules, &bids, &tricks, &before),
            lives_left: None,
        }
    }

    fn game(mode: Mode, outcome: Outcome, results: Vec<HandResult>) -> PlayedGame {
        PlayedGame {
            id: "g".into(),
            file: PathBuf::from("g.jsonl"),
            mode,
            info: GameInfo {
                difficulty: Some(Level::Easy.into()),
                ..GameInfo::default()
            },
            seat: Seat::new(0),
            outcome,
            scores: vec![0; mode.sides()],
            results,
            quick: false,
            open_seed: None,
        }
    }

    use Bid::{BlindNil, Nil, Tricks};

    #[test]
    fn a_partnership_hand_counts_the_sides_contract_and_the_players_own_nil() {
        // Seat 0 (the player) bids nil and takes 1; partner seat 2 bids 4
        // and takes 5: contract made (40 + 1 bag), nil lost (-100), bags 2
        // (the nil's trick and the overtrick). The other side bids 3 + 4 and
        // takes 3 + 4: 70 points, more than -59.
        let lost_nil = hand(
            Mode::Partnership,
            &[Nil, Tricks(3), Tricks(4), Tricks(4)],
            &[1, 3, 5, 4],
            &[(0, 0), (0, 0)],
        );
        // The partner's blind nil is not the player's: seat 2 bids blind nil
        // and makes it, seat 0 bids 5 and takes 3: set, -50, +200.
        let partners_nil = hand(
            Mode::Partnership,
            &[Tricks(5), Tricks(5), BlindNil, Tricks(5)],
            &[3, 5, 0, 5],
            &[(-59, 2), (70, 0)],
        );
        // Nine bags carried and two more: one penalty of 100.
        let penalty = hand(
            Mode::Partnership,
            &[Tricks(3), Tricks(2), Tricks(3), Tricks(2)],
            &[4, 2, 4, 3],
            &[(91, 9), (100, 0)],
        );
        let stats = Stats::of(&[game(
            Mode::Partnership,
            Outcome::Lost,
            vec![lost_nil, partners_nil, penalty],
        )]);
        assert_eq!(stats.contracts, Contracts { made: 2, set: 1 });
        assert_eq!(stats.nils, Made { bid: 1, made: 0 });
        assert_eq!(stats.blind_nils, Made::default());
        // 2 + 0 + 2 bags; one penalty.
        assert_eq!(stats.bags, 4);
        assert_eq!((stats.bag_penalties, stats.penalty_points), (1, 100));
        // -59, +150, 60 + 2 - 100 = -38.
        assert_eq!(stats.points, -59 + 150 - 38);
        assert_eq!(stats.points_per_hand, Some(53.0 / 3.0));
        assert_eq!(stats.bags_per_hand, Some(4.0 / 3.0));
        // Only the second hand scored more than the other side (150 > 100).
        assert_eq!((stats.games.hands, stats.games.hands_won), (3, 1));
        assert_eq!((stats.games.games, stats.games.lost), (1, 1));
    }

    #[test]
    fn in_cutthroat_a_hand_is_won_only_above_every_other_player() {
        let two_ahead = hand(
            Mode::Cutthroat,
            &[Tricks(6), Tricks(6), BlindNil],
            &[8, 9, 0],
            &[(0, 0), (0, 0), (0, 0)],
        );
        // 62 against 63 and 200: not won; the blind nil is seat 2's.
        let tied = hand(
            Mode::Cutthroat,
            &[Tricks(5), Tricks(5), Tricks(5)],
            &[6, 6, 5],
            &[(0, 0), (0, 0), (0, 0)],
        );
        // 51 against 51 and 50: a tie is not a win.
        let alone = hand(
            Mode::Cutthroat,
            &[BlindNil, Tricks(5), Tricks(5)],
            &[0, 9, 8],
            &[(0, 0), (0, 0), (0, 0)],
        );
        let stats = Stats::of(&[game(
            Mode::Cutthroat,
            Outcome::Won,
            vec![two_ahead, tied, alone],
        )]);
        assert_eq!((stats.games.hands, stats.games.hands_won), (3, 1));
        assert_eq!(stats.blind_nils, Made { bid: 1, made: 1 });
        // No contract when the player's only bid is a blind nil.
        assert_eq!(stats.contracts, Contracts { made: 2, set: 0 });
        assert_eq!(stats.points, 62 + 51 + 200);
    }

    #[test]
    fn streaks_practice_and_the_splits_by_mode_and_level() {
        use Outcome::*;
        let won = |mode| game(mode, Won, vec![]);
        let mut practice = won(Mode::Partnership);
        practice.info.practice = true;
        let mut normal = game(Mode::Individual, Lost, vec![]);
        normal.info.difficulty = Some(Level::Normal.into());
        let games = [
            won(Mode::Partnership),
            won(Mode::Cutthroat),
            game(Mode::Partnership, Left, vec![]),
            won(Mode::Partnership),
            practice,
            game(Mode::Partnership, Unfinished, vec![]),
            won(Mode::Partnership),
            won(Mode::Cutthroat),
            normal,
            won(Mode::Partnership),
        ];
        let stats = Stats::of(&games);
        // Won, won | left | won, (practice), (unfinished), won, won | lost | won.
        assert_eq!(stats.longest_winning_streak, 3);
        let t = stats.games;
        assert_eq!(
            (t.games, t.won, t.lost, t.left, t.unfinished),
            (9, 6, 1, 1, 1)
        );
        assert_eq!((stats.practice.games, stats.practice.won), (1, 1));
        assert_eq!(stats.by_mode["partnership"].games, 6);
        assert_eq!(stats.by_mode["cutthroat"].won, 2);
        assert_eq!(stats.by_mode["individual"].lost, 1);
        assert_eq!(stats.by_level["easy"].games, 8);
        assert_eq!(stats.by_level["normal"].games, 1);
        assert_eq!(stats.points_per_hand, None);
    }

    #[test]
    fn the_summary_fits_a_window_of_70_columns_even_with_big_figures() {
        let big = Tally {
            games: 99_999,
            won: 55_555,
            lost: 33_333,
            left: 9_999,
            unfinished: 1_112,
            hands: 9_999_999,
            hands_won: 5_555_555,
        };
        let stats = Stats {
            games: big,
            by_mode: [("partnership".to_string(), big)].into(),
            by_level: [("unknown".to_string(), big)].into(),
            contracts: Contracts {
                made: 9_999_999,
                set: 9_999_999,
            },
            nils: Made {
                bid: 999_999,
                made: 999_999,
            },
            blind_nils: Made {
                bid: 999_999,
                made: 999_999,
            },
            bags: 99_999_999,
            bags_per_hand: Some(10.0),
            bag_penalties: 9_999_999,
            penalty_points: 999_999_999,
            points: -999_999_999,
            points_per_hand: Some(-100.0),
            longest_winning_streak: 99_999,
            practice: big,
            runs: Runs::default(),
            open_deals: big,
        };
        let lines = render(&stats, &Ledger::of(&[]));
        for line in &lines {
            assert!(line.chars().count() <= 70, "{} columns: {line}", line.len());
        }
        assert!(lines[0].starts_with("Games     99999 played: 55555 won (56%)"));
        let empty = render(&Stats::default(), &Ledger::of(&[]));
        assert_eq!(empty[0], "No games played yet.");
    }
}
