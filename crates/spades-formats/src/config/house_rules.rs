//! The rules in words, for the screens that tell them: the house rules
//! in force, a line each, and how a game runs its course. The engine keeps
//! the rules; how they are said is the program's to choose.

use crate::bots::BotSpec;
use crate::engine::{
    BiddingGame, FirstLead, GameKind, Jokers, Mode, Rules, SetPenalty, SpadesLead,
};

/// The house rules in force beyond the keys every table has (mode,
/// target, bags, nil, blind nil, the exact-total rule), in words, one
/// line each, for the rules window. Empty for the classic game.
pub fn house_rules(rules: &Rules) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(deck) = deck_in_words(rules.deck.jokers) {
        lines.push(deck.to_string());
    }
    lines.extend(game_house_rules(rules));
    lines.extend(bidding_house_rules(rules));
    lines.extend(scoring_house_rules(rules));
    lines.extend(play_house_rules(rules));
    lines
}

/// The `[game]` keys not at their classic values, in words.
fn game_house_rules(rules: &Rules) -> Vec<String> {
    let mut lines = Vec::new();
    let game = &rules.game;
    if game.hands > 0 {
        lines.push(format!("The game also ends after {} hands", game.hands));
    }
    lines
}

/// Quick Play's terms, in words: its lives and what costs one. `None` in
/// a game to a target. Said where the course of the game is said (Quick
/// Play has no target), not among the house rules.
pub fn quick_play_terms(rules: &Rules) -> Option<String> {
    let game = &rules.game;
    (game.kind == GameKind::Quick).then(|| {
        let nil = if game.failed_nil_costs_life {
            "a set contract or a failed nil"
        } else {
            "a set contract"
        };
        format!(
            "Quick Play: {} lives, {nil} costs one; no target",
            game.lives
        )
    })
}

/// The scoring keys not at their classic values, in words.
fn scoring_house_rules(rules: &Rules) -> Vec<String> {
    let mut lines = Vec::new();
    if rules.scoring.overtrick_points == 0 {
        lines.push("Overtricks score no points (they are still bags)".to_string());
    }
    if rules.scoring.set_penalty == SetPenalty::BidAndShort {
        lines.push("A set side loses 10 a trick bid and 10 a trick short".to_string());
    }
    if rules.nil.failed_tricks_count {
        lines.push("A failed nil's tricks count toward the partner's bid".to_string());
    }
    lines
}

/// Who sits at the table with the player, in words: the computer players
/// (`bots`) in every other seat that plays, and the dummy when there is one.
pub fn players_in_words(mode: Mode, bots: &BotSpec) -> String {
    let others = mode.players() - 1;
    match mode.dummy() {
        Some(_) => format!("you, {others} {bots} computer players and the dummy"),
        None => format!("you and {others} {bots} computer players"),
    }
}

/// How the game runs its course, in a few words: "to 500", "Quick
/// Play".
pub fn course(rules: &Rules) -> String {
    if rules.is_quick() {
        "Quick Play".to_string()
    } else {
        format!("to {}", rules.target_score)
    }
}

/// The rules players argue about, in one short line for a list of tables:
/// "to 500 · bags 10/−100 · nil 100 · blind nil 200", then the named
/// variants. The rest is in the table's lobby (its whole rules file).
pub fn in_a_line(rules: &Rules) -> String {
    let mut parts = vec![
        course(rules),
        format!("bags {}/−{}", rules.bags.limit, rules.bags.penalty),
    ];
    let bids_free = matches!(
        rules.bidding.game,
        BiddingGame::Classic | BiddingGame::Suicide
    );
    parts.push(if rules.nil_is_bid() {
        format!("nil {}", rules.nil.value)
    } else {
        "no nil".to_string()
    });
    if rules.nil_is_bid() && rules.blind_nil.allowed && bids_free {
        parts.push(format!("blind nil {}", rules.blind_nil.value));
    }
    parts.extend(variants(rules).into_iter().map(str::to_string));
    parts.join(" · ")
}

/// The named variants a game is played under, as a few words each for
/// the top of the table: "Mirror", "Jokers". The game's course (Quick
/// Play) is said by `course`.
pub fn variants(rules: &Rules) -> Vec<&'static str> {
    let bidding = match rules.bidding.game {
        BiddingGame::Classic => None,
        BiddingGame::Mirror => Some("Mirror"),
        BiddingGame::Suicide => Some("Suicide"),
        BiddingGame::Whiz => Some("Whiz"),
    };
    let deck = match rules.deck.jokers {
        Jokers::None => None,
        Jokers::Replace2H2C | Jokers::Replace2D2C => Some("Jokers"),
        Jokers::DeucesHigh => Some("Deuces high"),
    };
    bidding.into_iter().chain(deck).collect()
}

/// The play keys not at their classic values, in words.
fn play_house_rules(rules: &Rules) -> Vec<String> {
    let mut lines = Vec::new();
    if rules.play.first_lead == FirstLead::TwoOfClubs {
        lines.push("The lowest club dealt (the 2C) leads the first trick".to_string());
    }
    if rules.play.spades_lead == SpadesLead::AnyTime {
        lines.push("Spades may be led at any time".to_string());
    }
    if !rules.play.trump_first_trick {
        lines.push("No spade on the first trick unless holding only spades".to_string());
    }
    lines
}

/// The bidding keys not at their defaults, in words.
fn bidding_house_rules(rules: &Rules) -> Vec<String> {
    let mut lines = Vec::new();
    let b = &rules.bidding;
    match b.game {
        BiddingGame::Classic => {}
        BiddingGame::Mirror => lines
            .push("Mirror: everyone bids their spade count (none: nil); no blind nil".to_string()),
        BiddingGame::Whiz => {
            lines.push("Whiz: everyone bids nil or their spade count; no blind nil".to_string())
        }
        BiddingGame::Suicide => lines.push(format!(
            "Suicide: one partner of a side bids nil, the other at least {}",
            rules.suicide_number()
        )),
    }
    if b.min_bid > 1 {
        lines.push(format!("A numeric bid is at least {}", b.min_bid));
    }
    if b.board > 0 {
        lines.push(format!(
            "The board: a side's numeric bids must reach {}",
            b.board
        ));
    }
    if b.double_at > 0 {
        lines.push(format!(
            "A side bidding {} or more scores its contract double",
            b.double_at
        ));
    }
    let blind = &rules.blind_bid;
    if blind.allowed {
        lines.push(format!(
            "Blind bids of {} or more when the side trails by {}: contract doubled",
            blind.min, blind.min_deficit
        ));
    }
    let boston = &rules.boston;
    if boston.bonus > 0 || boston.wins_game {
        let prize = match (boston.bonus, boston.wins_game) {
            (0, _) => "wins the game".to_string(),
            (bonus, false) => format!("scores {bonus} more"),
            (bonus, true) => format!("scores {bonus} more and wins the game"),
        };
        lines.push(format!("Boston (bid and take every trick) {prize}"));
    }
    if rules.nil.pass > 0 {
        lines.push(format!(
            "Nil pass: a nil bidder and partner swap {} card{}",
            rules.nil.pass,
            if rules.nil.pass == 1 { "" } else { "s" }
        ));
    }
    lines
}

/// The deck in words, for the rules window; `None` for the classic deck.
const fn deck_in_words(jokers: Jokers) -> Option<&'static str> {
    match jokers {
        Jokers::None => None,
        Jokers::Replace2H2C => Some(
            "Jokers: the Big and Little Joker replace the 2 of hearts and 2 of clubs; \
             spades rank Big Joker, Little Joker, ace ... 2",
        ),
        Jokers::Replace2D2C => Some(
            "Jokers: the Big and Little Joker replace the 2 of diamonds and 2 of clubs; \
             spades rank Big Joker, Little Joker, ace ... 2",
        ),
        Jokers::DeucesHigh => Some(
            "Deuces high: no 2 of hearts or clubs; trumps rank Big Joker, Little Joker, \
             2 of diamonds (a spade), 2 of spades, then ace ... 3 of spades",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_classic_game_has_no_house_rules() {
        assert!(house_rules(&Rules::default()).is_empty());
        assert_eq!(course(&Rules::default()), "to 500");
    }

    #[test]
    fn a_tables_rules_fit_in_a_line() {
        assert_eq!(
            in_a_line(&Rules::default()),
            "to 500 · bags 10/−100 · nil 100 · blind nil 200"
        );
        let house = Rules::default()
            .with(|r| {
                r.target_score = 300;
                r.bags.limit = 5;
                r.bags.penalty = 50;
                r.nil.value = 50;
                r.blind_nil.allowed = false;
                r.deck.jokers = Jokers::Replace2H2C;
            })
            .unwrap();
        assert_eq!(in_a_line(&house), "to 300 · bags 5/−50 · nil 50 · Jokers");
        let mirror = Rules::default()
            .with(|r| r.bidding.game = BiddingGame::Mirror)
            .unwrap();
        assert_eq!(
            in_a_line(&mirror),
            "to 500 · bags 10/−100 · nil 100 · Mirror"
        );
        let dummy = Rules::classic(Mode::Dummy);
        assert!(
            in_a_line(&dummy).contains("no nil"),
            "{}",
            in_a_line(&dummy)
        );
        let quick = Rules::default()
            .with(|r| r.game.kind = GameKind::Quick)
            .unwrap();
        assert!(in_a_line(&quick).starts_with("Quick Play · "));
    }

    /// Quick Play's terms are its course, said once: not a house rule too.
    #[test]
    fn quick_play_is_its_course_not_a_house_rule() {
        let quick = Rules::default()
            .with(|r| r.game.kind = GameKind::Quick)
            .unwrap();
        let terms = quick_play_terms(&quick).unwrap();
        assert!(terms.contains("no target"), "{terms}");
        assert!(house_rules(&quick).is_empty(), "{:?}", house_rules(&quick));
        assert_eq!(quick_play_terms(&Rules::default()), None);
    }

    #[test]
    fn every_house_rule_in_force_is_said() {
        let bidding = Rules::default()
            .with(|r| {
                r.bidding.board = 4;
                r.bidding.double_at = 10;
                r.boston.wins_game = true;
                r.nil.pass = 1;
            })
            .unwrap();
        let lines = house_rules(&bidding).join("\n");
        for words in ["board", "double", "Boston", "wins the game", "swap 1 card"] {
            assert!(lines.contains(words), "{words}: {lines}");
        }
        let jokers = Rules::default()
            .with(|r| r.deck.jokers = Jokers::DeucesHigh)
            .unwrap();
        assert_eq!(house_rules(&jokers).len(), 1);
        let play = Rules::default()
            .with(|r| {
                r.scoring.overtrick_points = 0;
                r.scoring.set_penalty = SetPenalty::BidAndShort;
                r.nil.failed_tricks_count = true;
                r.play.first_lead = FirstLead::TwoOfClubs;
                r.play.spades_lead = SpadesLead::AnyTime;
                r.play.trump_first_trick = false;
            })
            .unwrap();
        assert_eq!(house_rules(&play).len(), 6, "{:?}", house_rules(&play));
    }
}
