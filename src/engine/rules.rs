//! The house rules: the keys of `rules.toml`, their defaults and their limits.

use serde::{Deserialize, Serialize};

use super::bid::Bid;
use super::cards::CardSet;
use super::deck::Jokers;
use super::seat::Mode;

/// The house rules as written in `rules.toml`, any values at all. Field
/// names and nesting are the contract of `rules.toml` (and of the `rules`
/// object in the game record). A game takes only [`Rules`], which
/// [`Rules::new`] makes from these once every value is checked.
///
/// Unknown keys are ignored here, as the game record promises its readers;
/// a rules file's unknown keys are refused by the rules file's reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct RuleSettings {
    pub mode: Mode,
    pub target_score: i32,
    pub losing_score: Option<i32>,
    pub bags: BagRules,
    pub nil: NilRules,
    pub blind_nil: BlindNilRules,
    pub bidding: BiddingRules,
    pub game: GameRules,
    pub scoring: ScoringRules,
    pub play: PlayRules,
    pub blind_bid: BlindBidRules,
    pub boston: BostonRules,
    pub deck: DeckRules,
}

/// The `[deck]` table: which cards are dealt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct DeckRules {
    pub jokers: Jokers,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct BagRules {
    pub limit: i32,
    pub penalty: i32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct NilRules {
    pub allowed: bool,
    pub value: i32,
    /// A failed nil's (or blind nil's) tricks count toward the partner's
    /// contract instead of straight to bags (partnership only).
    pub failed_tricks_count: bool,
    /// Cards a plain-nil bidder and its numeric-bidding partner swap after
    /// the bidding (partnership only; 0 = none).
    pub pass: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct BlindNilRules {
    pub allowed: bool,
    pub value: i32,
    pub min_deficit: i32,
    pub one_per_side: bool,
    pub exchange: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct BiddingRules {
    pub forbid_exact_total: bool,
    /// The smallest numeric bid.
    pub min_bid: u8,
    /// Partnership: a side's numeric bids together must reach this (0 = none).
    pub board: u8,
    /// A side whose numeric bids total at least this scores its contract
    /// double, made or set (0 = never).
    pub double_at: u8,
    pub game: BiddingGame,
    /// Suicide: the least the partner who does not bid nil bids.
    pub suicide_min: u8,
}

/// How the bids are chosen: freely, or as the bidding games tie them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BiddingGame {
    /// Any bid the other keys allow.
    #[default]
    Classic,
    /// Everyone bids their spade count; no spade is nil.
    Mirror,
    /// Partnership: one partner of each side bids nil, the other at least
    /// `suicide_min`.
    Suicide,
    /// Everyone bids nil or their spade count.
    Whiz,
}

impl BiddingGame {
    pub const ALL: [BiddingGame; 4] = [
        BiddingGame::Classic,
        BiddingGame::Mirror,
        BiddingGame::Suicide,
        BiddingGame::Whiz,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            BiddingGame::Classic => "classic",
            BiddingGame::Mirror => "mirror",
            BiddingGame::Suicide => "suicide",
            BiddingGame::Whiz => "whiz",
        }
    }

    /// Do bids follow the bidder's spade count (so the bidding must know it)?
    pub const fn counts_spades(self) -> bool {
        matches!(self, BiddingGame::Mirror | BiddingGame::Whiz)
    }
}

impl std::fmt::Display for BiddingGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Blind numeric bids ("blind 6"), chosen before looking like blind nil.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct BlindBidRules {
    pub allowed: bool,
    /// The smallest blind bid.
    pub min: u8,
    /// Only a side trailing the leading other side by at least this at the deal.
    pub min_deficit: i32,
}

/// A side that bids every trick of the hand and takes them all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BostonRules {
    /// Points on top of the contract.
    pub bonus: i32,
    /// The side wins the game at once.
    pub wins_game: bool,
}

/// How a game runs its course: to a target score, or Quick Play's run of
/// hands that lasts as long as the player's side has lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum GameKind {
    #[default]
    Standard,
    /// Quick Play: one hand at a time until the player's side (seat 0's)
    /// has lost its lives; the run's result is its total score.
    Quick,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct GameRules {
    pub kind: GameKind,
    /// Quick Play: the player's side's lives at the start of a run.
    pub lives: u8,
    /// Quick Play: a failed nil or blind nil of the player's side costs a
    /// life of its own, as a set contract does.
    pub failed_nil_costs_life: bool,
    /// The game also ends after this many hands (0: no limit).
    pub hands: u32,
}

impl Default for GameRules {
    fn default() -> GameRules {
        GameRules {
            kind: GameKind::Standard,
            lives: 3,
            failed_nil_costs_life: true,
            hands: 0,
        }
    }
}

/// How a contract scores (`[scoring]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ScoringRules {
    /// Points for each trick over a made contract: 1 (classic) or 0. Every
    /// overtrick is a bag either way.
    pub overtrick_points: i32,
    pub set_penalty: SetPenalty,
}

/// What a side that falls short of its contract loses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SetPenalty {
    /// 10 a trick bid (classic).
    #[default]
    Bid,
    /// 10 a trick bid and 10 more a trick short.
    BidAndShort,
}

/// The house rules of trick play (`[play]`). Small and `Copy`: a hand in
/// play carries them (`HandState`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PlayRules {
    pub first_lead: FirstLead,
    pub spades_lead: SpadesLead,
    /// May a seat void in the suit led play a spade to the first trick?
    /// (false: not while it holds another suit.)
    pub trump_first_trick: bool,
}

/// Who leads the first trick, and what.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FirstLead {
    /// The dealer's left, any card the lead rules allow (classic).
    #[default]
    DealerLeft,
    /// The holder of the lowest club dealt (the two, or in cutthroat the
    /// three when the two is the card out) leads it.
    TwoOfClubs,
}

/// When spades may be led.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpadesLead {
    /// Once a spade has been played, or by a leader holding only spades
    /// (classic).
    #[default]
    Broken,
    /// At any time.
    AnyTime,
}

/// Rules a game can be played with: every value checked once, by
/// [`Rules::new`], and read-only after (through `Deref` to the settings).
/// Every number has an upper bound, so no score arithmetic can overflow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(try_from = "RuleSettings", into = "RuleSettings")]
pub struct Rules(RuleSettings);

impl std::ops::Deref for Rules {
    type Target = RuleSettings;
    fn deref(&self) -> &RuleSettings {
        &self.0
    }
}

impl TryFrom<RuleSettings> for Rules {
    type Error = InvalidRule;
    fn try_from(settings: RuleSettings) -> Result<Rules, InvalidRule> {
        Rules::new(settings)
    }
}

impl From<Rules> for RuleSettings {
    fn from(rules: Rules) -> RuleSettings {
        rules.0
    }
}

impl Default for RuleSettings {
    fn default() -> RuleSettings {
        RuleSettings {
            mode: Mode::Partnership,
            target_score: 500,
            losing_score: None,
            bags: BagRules::default(),
            nil: NilRules::default(),
            blind_nil: BlindNilRules::default(),
            bidding: BiddingRules::default(),
            game: GameRules::default(),
            scoring: ScoringRules::default(),
            play: PlayRules::default(),
            blind_bid: BlindBidRules::default(),
            boston: BostonRules::default(),
            deck: DeckRules::default(),
        }
    }
}

impl Default for ScoringRules {
    fn default() -> ScoringRules {
        ScoringRules {
            overtrick_points: 1,
            set_penalty: SetPenalty::Bid,
        }
    }
}

impl Default for BiddingRules {
    fn default() -> BiddingRules {
        BiddingRules {
            forbid_exact_total: false,
            min_bid: 1,
            board: 0,
            double_at: 0,
            game: BiddingGame::Classic,
            suicide_min: 4,
        }
    }
}

impl Default for PlayRules {
    fn default() -> PlayRules {
        PlayRules {
            first_lead: FirstLead::DealerLeft,
            spades_lead: SpadesLead::Broken,
            trump_first_trick: true,
        }
    }
}

impl Default for BlindBidRules {
    fn default() -> BlindBidRules {
        BlindBidRules {
            allowed: false,
            min: 6,
            min_deficit: 100,
        }
    }
}

impl Default for BagRules {
    fn default() -> BagRules {
        BagRules {
            limit: 10,
            penalty: 100,
        }
    }
}

impl Default for NilRules {
    fn default() -> NilRules {
        NilRules {
            allowed: true,
            value: 100,
            failed_tricks_count: false,
            pass: 0,
        }
    }
}

impl Default for BlindNilRules {
    fn default() -> BlindNilRules {
        BlindNilRules {
            allowed: true,
            value: 200,
            min_deficit: 100,
            one_per_side: true,
            exchange: 2,
        }
    }
}

/// A value outside what the game can be played with, naming the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{key}` {problem}")]
pub struct InvalidRule {
    /// Dotted key as written in rules.toml, e.g. `bags.limit`.
    pub key: &'static str,
    pub problem: String,
}

/// The largest target, penalty or nil value the rules take. With at most
/// 17 tricks a hand, no hand's score can then come near `i32`'s limits.
pub const MAX_POINTS: i32 = 100_000;
/// The largest bag limit: far beyond any table's house rule.
pub const MAX_BAG_LIMIT: i32 = 1_000;
/// The most lives a Quick Play run starts with.
pub const MAX_LIVES: u8 = 99;
/// The longest game in hands `game.hands` may set.
pub const MAX_HANDS: u32 = 1_000;

impl RuleSettings {
    /// The classic game for a mode.
    pub fn classic(mode: Mode) -> RuleSettings {
        RuleSettings {
            mode,
            ..RuleSettings::default()
        }
    }
}

impl Rules {
    /// Checks every value a game needs to make sense, naming the first key
    /// that does not.
    pub fn new(settings: RuleSettings) -> Result<Rules, InvalidRule> {
        let s = &settings;
        let bad = |key, problem: String| InvalidRule { key, problem };
        let within = |key, value: i32, low: i32, high: i32| {
            if (low..=high).contains(&value) {
                Ok(())
            } else {
                Err(bad(
                    key,
                    format!("must be between {low} and {high}, got {value}"),
                ))
            }
        };
        within("target_score", s.target_score, 1, MAX_POINTS)?;
        if let Some(losing) = s.losing_score {
            within("losing_score", losing, -MAX_POINTS, MAX_POINTS)?;
            if losing >= s.target_score {
                return Err(bad(
                    "losing_score",
                    format!(
                        "must be below target_score ({}), got {losing}",
                        s.target_score
                    ),
                ));
            }
        }
        within("bags.limit", s.bags.limit, 1, MAX_BAG_LIMIT)?;
        within("bags.penalty", s.bags.penalty, 0, MAX_POINTS)?;
        within("nil.value", s.nil.value, 0, MAX_POINTS)?;
        within("blind_nil.value", s.blind_nil.value, 0, MAX_POINTS)?;
        within(
            "blind_nil.min_deficit",
            s.blind_nil.min_deficit,
            0,
            MAX_POINTS,
        )?;
        if s.blind_nil.exchange > 13 {
            return Err(bad(
                "blind_nil.exchange",
                format!(
                    "must be between 0 and 13 (a hand has 13 cards), got {}",
                    s.blind_nil.exchange
                ),
            ));
        }
        if !(1..=MAX_LIVES).contains(&s.game.lives) {
            return Err(bad(
                "game.lives",
                format!("must be between 1 and {MAX_LIVES}, got {}", s.game.lives),
            ));
        }
        if s.game.hands > MAX_HANDS {
            return Err(bad(
                "game.hands",
                format!(
                    "must be between 0 (no limit) and {MAX_HANDS}, got {}",
                    s.game.hands
                ),
            ));
        }
        if !(0..=1).contains(&s.scoring.overtrick_points) {
            return Err(bad(
                "scoring.overtrick_points",
                format!("must be 1 or 0, got {}", s.scoring.overtrick_points),
            ));
        }
        if s.nil.failed_tricks_count && !s.mode.has_partners() {
            return Err(bad(
                "nil.failed_tricks_count",
                format!(
                    "counts a failed nil's tricks toward a partner's contract: \
                     {} has no partners (set it false)",
                    s.mode
                ),
            ));
        }
        check_bidding(s)?;
        if s.mode == Mode::Dummy {
            check_dummy(s)?;
        }
        Ok(Rules(settings))
    }

    /// The classic game for a mode.
    pub fn classic(mode: Mode) -> Rules {
        Rules(RuleSettings::classic(mode))
    }

    /// May anyone bid nil at all? Not where the key forbids it, nor with a
    /// dummy, where every bid is a team total.
    pub fn nil_is_bid(&self) -> bool {
        self.0.nil.allowed && self.0.mode.dummy().is_none()
    }

    /// The values these rules were made from, to change and check again.
    pub fn settings(&self) -> RuleSettings {
        self.0
    }

    /// These rules with some values changed, checked again.
    pub fn with(self, change: impl FnOnce(&mut RuleSettings)) -> Result<Rules, InvalidRule> {
        let mut settings = self.0;
        change(&mut settings);
        Rules::new(settings)
    }

    /// The 52 cards dealt (`[deck] jokers`).
    pub fn deck(&self) -> CardSet {
        self.deck.jokers.deck()
    }

    /// Cards swapped each way after a blind nil (the exchange is a partnership rule).
    pub fn exchange_size(&self) -> u8 {
        if self.mode.has_partners() {
            self.blind_nil.exchange
        } else {
            0
        }
    }

    /// Suicide: the least the numeric bidder of a side bids, so that its
    /// bid alone also reaches the board.
    pub fn suicide_number(&self) -> u8 {
        self.bidding.suicide_min.max(self.bidding.board)
    }

    /// Cards a seat that bid `bid` swaps each way with a partner that bid
    /// `partner` after the bidding. A blind nil beside anything but another
    /// blind nil makes the blind-nil exchange (`blind_nil.exchange`); else a
    /// plain nil beside a numeric bid (plain or blind) makes the nil pass
    /// (`nil.pass`); two nils of any kind swap nothing.
    pub fn swap_size(&self, bid: Bid, partner: Bid) -> u8 {
        if !self.mode.has_partners() {
            return 0;
        }
        match (bid, partner) {
            (Bid::BlindNil, Bid::BlindNil) => 0,
            (Bid::BlindNil, _) | (_, Bid::BlindNil) => self.blind_nil.exchange,
            (Bid::Nil, other) | (other, Bid::Nil) if !other.is_nil() => self.nil.pass,
            _ => 0,
        }
    }
}

/// The keys that mean nothing with a dummy, where every bid is a team
/// total made seeing one's own cards and the first bidder leads. (The
/// partnership-only keys are refused by `check_bidding`.)
fn check_dummy(s: &RuleSettings) -> Result<(), InvalidRule> {
    let refuse = |key, why: &str| {
        Err(InvalidRule {
            key,
            problem: format!("makes no sense with a dummy: {why} (leave it out)"),
        })
    };
    if s.bidding.forbid_exact_total {
        return refuse(
            "bidding.forbid_exact_total",
            "each bid is a team total, so the bids are never added up",
        );
    }
    if s.bidding.game != BiddingGame::Classic {
        return refuse(
            "bidding.game",
            "every bid is a team total, never nil or a spade count",
        );
    }
    if s.blind_bid.allowed {
        return refuse("blind_bid.allowed", "every bid is made seeing one's cards");
    }
    if s.play.first_lead != FirstLead::DealerLeft {
        return refuse(
            "play.first_lead",
            "the first bidder leads, and the dummy's cards are not yet shown",
        );
    }
    Ok(())
}

/// The most cards a nil pass may swap.
pub const MAX_NIL_PASS: u8 = 3;

/// The bidding keys: each in its range, and no combination the bidding
/// could get stuck in (a seat left with no bid at all).
fn check_bidding(s: &RuleSettings) -> Result<(), InvalidRule> {
    let hand = s.mode.hand_size() as u8;
    let bad = |key, problem: String| Err(InvalidRule { key, problem });
    let within = |key, value: u8, low: u8, high: u8| {
        if (low..=high).contains(&value) {
            Ok(())
        } else {
            bad(
                key,
                format!("must be between {low} and {high}, got {value}"),
            )
        }
    };
    let b = &s.bidding;
    // Below the whole hand, so a last bidder always has a bid the exact
    // total does not forbid.
    within("bidding.min_bid", b.min_bid, 1, hand - 1)?;
    within("bidding.board", b.board, 0, hand)?;
    within("bidding.double_at", b.double_at, 0, hand)?;
    within("bidding.suicide_min", b.suicide_min, 1, hand)?;
    within("blind_bid.min", s.blind_bid.min, 1, hand)?;
    within("nil.pass", s.nil.pass, 0, MAX_NIL_PASS)?;
    if !(0..=MAX_POINTS).contains(&s.blind_bid.min_deficit) {
        return bad(
            "blind_bid.min_deficit",
            format!(
                "must be between 0 and {MAX_POINTS}, got {}",
                s.blind_bid.min_deficit
            ),
        );
    }
    if !(0..=MAX_POINTS).contains(&s.boston.bonus) {
        return bad(
            "boston.bonus",
            format!("must be between 0 and {MAX_POINTS}, got {}", s.boston.bonus),
        );
    }
    let partners_only = |key, on: bool| {
        if on && !s.mode.has_partners() {
            bad(
                key,
                format!("is a partnership rule; the mode is {}", s.mode),
            )
        } else {
            Ok(())
        }
    };
    partners_only("bidding.board", b.board > 0)?;
    partners_only("nil.pass", s.nil.pass > 0)?;
    partners_only("bidding.game", b.game == BiddingGame::Suicide)?;
    if b.game == BiddingGame::Classic {
        return Ok(());
    }
    let game = b.game;
    if !s.nil.allowed {
        return bad(
            "nil.allowed",
            format!("must be true in {game}, where some seats must bid nil"),
        );
    }
    if b.forbid_exact_total {
        return bad(
            "bidding.forbid_exact_total",
            format!("cannot be played in {game}: the last bid may be forced to make the total"),
        );
    }
    if s.blind_bid.allowed {
        return bad(
            "blind_bid.allowed",
            format!("must be false in {game}: no bid there is made blind"),
        );
    }
    if game.counts_spades() {
        if b.min_bid != 1 {
            return bad(
                "bidding.min_bid",
                format!("must be 1 in {game}, where a bid is the spade count"),
            );
        }
        if b.board != 0 {
            return bad(
                "bidding.board",
                format!("must be 0 in {game}, where a bid is the spade count"),
            );
        }
    }
    Ok(())
}

const JOKERS_NAMES: [&str; 4] = [
    Jokers::ALL[0].name(),
    Jokers::ALL[1].name(),
    Jokers::ALL[2].name(),
    Jokers::ALL[3].name(),
];

/// The values a key written as text may take, for a reader's error
/// message ("expected \"partnership\", \"cutthroat\" or ..."). `key` is
/// dotted as in rules.toml.
pub fn choices(key: &str) -> Option<&'static [&'static str]> {
    match key {
        "mode" => Some(&["partnership", "cutthroat", "individual", "dummy"]),
        "game.kind" => Some(&["standard", "quick"]),
        "scoring.set_penalty" => Some(&["bid", "bid_and_short"]),
        "play.first_lead" => Some(&["dealer_left", "two_of_clubs"]),
        "play.spades_lead" => Some(&["broken", "any_time"]),
        "bidding.game" => Some(&["classic", "mirror", "suicide", "whiz"]),
        "deck.jokers" => Some(&JOKERS_NAMES),
        _ => None,
    }
}

impl Rules {
    /// Is this a Quick Play run rather than a game to a target?
    pub fn is_quick(&self) -> bool {
        self.game.kind == GameKind::Quick
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_that_mean_nothing_with_a_dummy_are_refused() {
        let dummy = Rules::classic(Mode::Dummy);
        let refused = |change: fn(&mut RuleSettings)| dummy.with(change).unwrap_err().key;
        assert_eq!(
            refused(|r| r.bidding.forbid_exact_total = true),
            "bidding.forbid_exact_total"
        );
        assert_eq!(
            refused(|r| r.bidding.game = BiddingGame::Mirror),
            "bidding.game"
        );
        assert_eq!(refused(|r| r.blind_bid.allowed = true), "blind_bid.allowed");
        assert_eq!(
            refused(|r| r.play.first_lead = FirstLead::TwoOfClubs),
            "play.first_lead"
        );
        assert_eq!(refused(|r| r.nil.pass = 2), "nil.pass");
        assert!(dummy.with(|r| r.deck.jokers = Jokers::DeucesHigh).is_ok());
    }

    #[test]
    fn the_mode_choices_are_every_mode() {
        let names: Vec<String> = Mode::ALL.iter().map(|m| m.to_string()).collect();
        assert_eq!(choices("mode").unwrap(), names);
    }

    #[test]
    fn the_bidding_game_choices_are_every_game() {
        let names: Vec<&str> = BiddingGame::ALL.iter().map(|g| g.name()).collect();
        assert_eq!(choices("bidding.game").unwrap(), names);
        for game in BiddingGame::ALL {
            let json = serde_json::to_string(&game).unwrap();
            assert_eq!(json, format!("\"{game}\""));
        }
    }

    #[test]
    fn the_bidding_keys_default_off() {
        let r = Rules::default();
        assert_eq!(
            (r.bidding.min_bid, r.bidding.board, r.bidding.double_at),
            (1, 0, 0)
        );
        assert_eq!(r.bidding.game, BiddingGame::Classic);
        assert!(!r.blind_bid.allowed && !r.boston.wins_game);
        assert_eq!((r.boston.bonus, r.nil.pass), (0, 0));
    }

    #[test]
    fn the_jokers_choices_are_every_deck() {
        let names: Vec<&str> = Jokers::ALL.iter().map(|j| j.name()).collect();
        assert_eq!(choices("deck.jokers").unwrap(), names);
        let json = r#"{"deck":{"jokers":"deuces_high"}}"#;
        let rules: Rules = serde_json::from_str(json).unwrap();
        assert_eq!(rules.deck.jokers, Jokers::DeucesHigh);
        assert!(serde_json::from_str::<Rules>(r#"{"deck":{"jokers":"three"}}"#).is_err());
    }

    #[test]
    fn defaults_are_the_classic_game() {
        let r = Rules::default();
        assert_eq!(r.target_score, 500);
        assert_eq!((r.bags.limit, r.bags.penalty), (10, 100));
        assert_eq!((r.nil.allowed, r.nil.value), (true, 100));
        assert_eq!(r.blind_nil.value, 200);
        assert_eq!(r.blind_nil.min_deficit, 100);
        assert!(r.blind_nil.one_per_side);
        assert_eq!(r.blind_nil.exchange, 2);
        assert!(!r.bidding.forbid_exact_total);
        assert_eq!(r.scoring.overtrick_points, 1);
        assert_eq!(r.scoring.set_penalty, SetPenalty::Bid);
        assert!(!r.nil.failed_tricks_count);
        assert_eq!(r.play.first_lead, FirstLead::DealerLeft);
        assert_eq!(r.play.spades_lead, SpadesLead::Broken);
        assert!(r.play.trump_first_trick);
        assert_eq!(r.deck.jokers, Jokers::None);
        assert_eq!(r.deck(), CardSet::DECK);
        assert_eq!(Rules::new(r.settings()), Ok(r));
    }

    fn refused(change: impl FnOnce(&mut RuleSettings)) -> &'static str {
        Rules::default().with(change).unwrap_err().key
    }

    #[test]
    fn out_of_range_values_name_their_key() {
        assert_eq!(refused(|r| r.bags.limit = 0), "bags.limit");
        assert_eq!(refused(|r| r.losing_score = Some(500)), "losing_score");
        assert_eq!(refused(|r| r.blind_nil.exchange = 14), "blind_nil.exchange");
        assert_eq!(refused(|r| r.target_score = 0), "target_score");
        assert_eq!(refused(|r| r.game.lives = 0), "game.lives");
        assert_eq!(refused(|r| r.game.hands = MAX_HANDS + 1), "game.hands");
        assert_eq!(
            refused(|r| r.scoring.overtrick_points = 2),
            "scoring.overtrick_points"
        );
        assert_eq!(
            refused(|r| r.scoring.overtrick_points = -1),
            "scoring.overtrick_points"
        );
    }

    #[test]
    fn a_failed_nils_tricks_need_a_partner() {
        for mode in [Mode::Cutthroat, Mode::Individual] {
            let e = Rules::classic(mode)
                .with(|r| r.nil.failed_tricks_count = true)
                .unwrap_err();
            assert_eq!(e.key, "nil.failed_tricks_count");
            assert!(e.problem.contains("no partners"), "{e}");
        }
        let partnership = Rules::default().with(|r| r.nil.failed_tricks_count = true);
        assert!(partnership.is_ok());
    }

    #[test]
    fn the_scoring_and_play_keys_read_their_words() {
        let json = r#"{"scoring":{"overtrick_points":0,"set_penalty":"bid_and_short"},
            "nil":{"failed_tricks_count":true},
            "play":{"first_lead":"two_of_clubs","spades_lead":"any_time","trump_first_trick":false}}"#;
        let rules: Rules = serde_json::from_str(json).unwrap();
        assert_eq!(rules.scoring.set_penalty, SetPenalty::BidAndShort);
        assert_eq!(rules.play.first_lead, FirstLead::TwoOfClubs);
        assert_eq!(rules.play.spades_lead, SpadesLead::AnyTime);
        assert!(!rules.play.trump_first_trick);
        let json = serde_json::to_value(rules).unwrap();
        assert_eq!(json["play"]["first_lead"], "two_of_clubs");
        assert_eq!(json["scoring"]["set_penalty"], "bid_and_short");
        for (key, value) in [
            ("scoring.set_penalty", "bid_and_short"),
            ("play.first_lead", "two_of_clubs"),
            ("play.spades_lead", "any_time"),
        ] {
            assert!(choices(key).unwrap().contains(&value), "{key}");
        }
    }

    #[test]
    fn every_number_has_an_upper_bound() {
        assert_eq!(refused(|r| r.target_score = MAX_POINTS + 1), "target_score");
        assert_eq!(refused(|r| r.bags.penalty = i32::MAX), "bags.penalty");
        assert_eq!(refused(|r| r.bags.limit = MAX_BAG_LIMIT + 1), "bags.limit");
        assert_eq!(refused(|r| r.nil.value = MAX_POINTS + 1), "nil.value");
        assert_eq!(refused(|r| r.blind_nil.value = i32::MAX), "blind_nil.value");
        assert_eq!(
            refused(|r| r.blind_nil.min_deficit = i32::MAX),
            "blind_nil.min_deficit"
        );
        assert_eq!(refused(|r| r.losing_score = Some(i32::MIN)), "losing_score");
        let largest = Rules::default().with(|r| {
            r.target_score = MAX_POINTS;
            r.losing_score = Some(-MAX_POINTS);
            r.bags.penalty = MAX_POINTS;
            r.nil.value = MAX_POINTS;
            r.blind_nil.value = MAX_POINTS;
        });
        assert!(largest.is_ok());
    }

    #[test]
    fn rules_read_from_json_are_checked_and_ignore_unknown_keys() {
        let json = r#"{"target_score":300,"house_rule_of_the_future":true,"bags":{"limit":5,"colour":"red"}}"#;
        let rules: Rules = serde_json::from_str(json).unwrap();
        assert_eq!((rules.target_score, rules.bags.limit), (300, 5));
        let bad = serde_json::from_str::<Rules>(r#"{"bags":{"penalty":3000000000}}"#);
        assert!(bad.is_err());
        let bad = serde_json::from_str::<Rules>(r#"{"bags":{"limit":0}}"#).unwrap_err();
        assert!(bad.to_string().contains("bags.limit"), "{bad}");
    }
}
