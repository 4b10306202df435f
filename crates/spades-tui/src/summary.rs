//! The end-of-hand summary, worked out line by line from the engine's
//! `SideScore`. Nothing is scored here: every number shown is one the
//! engine reported, or the previous hand's totals it started from.

use crate::engine::quick;
use crate::engine::{HandResult, PerSide, Rules, Seat, Side, SideScore, SideTotals, Teams};

use super::theme::Theme;
use crate::naming::Names;

/// One side's part of the summary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideSummary {
    pub title: String,
    pub lines: Vec<String>,
}

/// `before` holds each side's totals at the start of the hand.
pub fn hand_summary(
    result: &HandResult,
    before: &PerSide<SideTotals>,
    rules: &Rules,
    names: &Names,
    theme: &Theme,
) -> Vec<SideSummary> {
    let run_side = quick::run_side(rules.mode);
    result
        .sides
        .pairs()
        .map(|(side, score)| {
            let mut summary = side_summary(side, score, before[side], rules, names, theme);
            if let Some(declarer) = result.declarer {
                summary
                    .title
                    .push_str(&dummy_role(side, declarer, rules, names));
            }
            if let (true, Some(left)) = (side == run_side, result.lives_left) {
                summary
                    .lines
                    .push(lives_line(quick::lives_lost(rules, score), left));
            }
            summary
        })
        .collect()
}

/// With a dummy, who a player played with this hand.
fn dummy_role(side: Side, declarer: Seat, rules: &Rules, names: &Names) -> String {
    let teams = Teams::new(rules.mode, Some(declarer));
    let Some(seat) = rules.mode.side_seats(side).next() else {
        return String::new();
    };
    match teams.partner(seat) {
        _ if seat == declarer => ", declarer with the dummy".to_string(),
        Some(partner) => format!(", defending with {}", names.seat(partner)),
        None => String::new(),
    }
}

/// Quick Play: what the hand cost the player's side.
fn lives_line(lost: u8, left: u8) -> String {
    let left = match left {
        0 => "none left: the run is over".to_string(),
        1 => "1 left".to_string(),
        n => format!("{n} left"),
    };
    match lost {
        0 => format!("Lives: none lost, {left}"),
        1 => format!("Lives: 1 lost, {left}"),
        n => format!("Lives: {n} lost, {left}"),
    }
}

fn side_summary(
    side: Side,
    s: &SideScore,
    before: SideTotals,
    rules: &Rules,
    names: &Names,
    theme: &Theme,
) -> SideSummary {
    let signed = |n: i32| signed(n, theme);
    let mut lines = Vec::new();
    for nil in s.nils.iter().flatten() {
        let kind = if nil.blind { "Blind nil" } else { "Nil" };
        lines.push(format!(
            "{kind} ({}): took {}: {}",
            names.seat(nil.seat),
            tricks(nil.tricks),
            signed(nil.points)
        ));
    }
    if let Some(c) = s.contract {
        let doubled = if c.stakes.doubled { " doubled" } else { "" };
        let mut head = format!("Contract {}{doubled}, took {}", c.bid, c.taken);
        // Under nil.failed_tricks_count the failed nils' tricks are among them.
        let nil_tricks: u8 = s.nils.iter().flatten().map(|n| n.tricks).sum();
        if rules.nil.failed_tricks_count && nil_tricks > 0 {
            head.push_str(&format!(" ({nil_tricks} the nil's)"));
        }
        let bonus = if c.made() { c.stakes.bonus(rules) } else { 0 };
        let points = c.points - bonus;
        lines.push(if c.made() {
            let over = i32::from(c.taken - c.bid);
            let bags = if over == 1 { "bag" } else { "bags" };
            let over_points = over * rules.scoring.overtrick_points;
            if over == 0 {
                format!("{head}: {points}")
            } else if over_points == 0 {
                format!("{head}: {points}, {over} {bags} for no points")
            } else {
                format!(
                    "{head}: {} + {over} {bags} = {points}",
                    points - over_points
                )
            }
        } else {
            format!("{head}: set, {}", signed(c.points))
        });
        if bonus > 0 {
            lines.push(format!("Boston: {}", signed(bonus)));
        }
    }
    let total = before.bags + s.bags_added;
    let mut bags = format!("Bags {} + {} = {}", before.bags, s.bags_added, total);
    if s.penalties > 0 {
        let times = if s.penalties == 1 {
            String::new()
        } else {
            format!(" {} times", s.penalties)
        };
        bags.push_str(&format!(
            " {} {}{times}: {}, {} carried",
            theme.at_least(),
            rules.bags.limit,
            signed(-s.penalty),
            s.bags
        ));
    }
    lines.push(bags);
    lines.push(format!(
        "Hand {}, score {} {} {}",
        signed(s.points),
        theme.number(before.score),
        if theme.ascii { "->" } else { "→" },
        theme.number(s.score)
    ));
    SideSummary {
        title: names.side_in_full(side),
        lines,
    }
}

fn tricks(n: u8) -> String {
    match n {
        0 => "no tricks".to_string(),
        1 => "1 trick".to_string(),
        n => format!("{n} tricks"),
    }
}

/// `+62`, `−100`: a change in score always shows its sign.
pub fn signed(n: i32, theme: &Theme) -> String {
    if n < 0 {
        theme.number(n)
    } else {
        format!("+{n}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::score::score_side;
    use crate::engine::{Bid, Mode, Seat};

    fn unicode() -> Theme {
        Theme::UNICODE
    }

    #[test]
    fn lines_follow_the_engines_score() {
        let rules = Rules::classic(Mode::Partnership);
        let names = Names::new(Mode::Partnership, "You");
        let before = SideTotals {
            score: 200,
            bags: 9,
        };
        // You bid 6 and took 8; North bid nil and took 1.
        let s = score_side(
            &rules,
            &[
                (Seat::new(0), Bid::Tricks(6), 8),
                (Seat::new(2), Bid::Nil, 1),
            ],
            before,
        );
        let summary = side_summary(Side::new(0), &s, before, &rules, &names, &unicode());
        assert_eq!(summary.title, "Us (You & North)");
        assert_eq!(
            summary.lines,
            [
                "Nil (North): took 1 trick: −100",
                "Contract 6, took 8: 60 + 2 bags = 62",
                "Bags 9 + 3 = 12 ≥ 10: −100, 2 carried",
                "Hand −138, score 200 → 62",
            ]
        );
    }

    #[test]
    fn a_set_contract_and_a_made_blind_nil() {
        let rules = Rules::classic(Mode::Partnership);
        let names = Names::new(Mode::Partnership, "You");
        let before = SideTotals {
            score: -50,
            bags: 2,
        };
        let s = score_side(
            &rules,
            &[
                (Seat::new(1), Bid::BlindNil, 0),
                (Seat::new(3), Bid::Tricks(5), 4),
            ],
            before,
        );
        let summary = side_summary(Side::new(1), &s, before, &rules, &names, &Theme::PLAIN);
        assert_eq!(
            summary.lines,
            [
                "Blind nil (West): took no tricks: +200",
                "Contract 5, took 4: set, -50",
                "Bags 2 + 0 = 2",
                "Hand +150, score -50 -> 100",
            ]
        );
    }

    #[test]
    fn house_scoring_reads_as_it_counts() {
        let rules = Rules::classic(Mode::Partnership)
            .with(|r| {
                r.scoring.overtrick_points = 0;
                r.nil.failed_tricks_count = true;
            })
            .unwrap();
        let names = Names::new(Mode::Partnership, "You");
        let before = SideTotals::default();
        // You bid 4 and took 4; North's nil failed with 2: 6 of 4.
        let s = score_side(
            &rules,
            &[
                (Seat::new(0), Bid::Tricks(4), 4),
                (Seat::new(2), Bid::Nil, 2),
            ],
            before,
        );
        let summary = side_summary(Side::new(0), &s, before, &rules, &names, &Theme::PLAIN);
        assert_eq!(
            summary.lines,
            [
                "Nil (North): took 2 tricks: -100",
                "Contract 4, took 6 (2 the nil's): 40, 2 bags for no points",
                "Bags 0 + 2 = 2",
                "Hand -60, score 0 -> -60",
            ]
        );
    }
}
