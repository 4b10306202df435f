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
    /// Who plays with whom (`mode`).
    pub mode: Mode,
    /// The score that wins the game (`target_score`).
    pub target_score: i32,
    /// The score that loses it, if any (`losing_score`).
    pub losing_score: Option<i32>,
    /// Overtricks and their penalty (`[bags]`).
    pub bags: BagRules,
    /// Nil's value and house rules (`[nil]`).
    pub nil: NilRules,
    /// Blind nil (`[blind_nil]`).
    pub blind_nil: BlindNilRules,
    /// The bidding's house rules (`[bidding]`).
    pub bidding: BiddingRules,
    /// To a target or Quick Play (`[game]`).
    pub game: GameRules,
    /// How a contract scores (`[scoring]`).
    pub scoring: ScoringRules,
    /// The house rules of trick play (`[play]`).
    pub play: PlayRules,
    /// Blind numeric bids (`[blind_bid]`).
    pub blind_bid: BlindBidRules,
    /// Bidding and taking every trick (`[boston]`).
    pub boston: BostonRules,
    /// Which cards are dealt (`[deck]`).
    pub deck: DeckRules,
}

/// The `[deck]` table: which cards are dealt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct DeckRules {
    /// The jokers or high twos in the deck, and the cards they replace.
    pub jokers: Jokers,
}

/// The `[bags]` table: overtricks pile up and cost points at a limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct BagRules {
    /// Bags that bring a penalty (and are taken off the count).
    pub limit: i32,
    /// Points the penalty takes off.
    pub penalty: i32,
}

/// The `[nil]` table: a bid to take no trick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct NilRules {
    /// May a seat bid nil?
    pub allowed: bool,
    /// Points won when it is made and lost when it fails.
    pub value: i32,
    /// A failed nil's (or blind nil's) tricks count toward the partner's
    /// contract instead of straight to bags (partnership only).
    pub failed_tricks_count: bool,
    /// Cards a plain-nil bidder and its numeric-bidding partner swap after
    /// the bidding (partnership only; 0 = none).
    pub pass: u8,
}

/// The `[blind_nil]` table: nil bid before looking at the cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct BlindNilRules {
    /// May a seat bid blind nil?
    pub allowed: bool,
    /// Points won when it is made and lost when it fails.
    pub value: i32,
    /// Only a side trailing by at least this at the deal may bid it.
    pub min_deficit: i32,
    /// At most one blind nil a side.
    pub one_per_side: bool,
    /// Cards the blind-nil bidder and its partner pass each other (0 = none).
    pub exchange: u8,
}

/// The `[bidding]` table: house rules of the auction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct BiddingRules {
    /// The last bid may not bring the total to exactly the tricks in a hand.
    pub forbid_exact_total: bool,
    /// The smallest numeric bid.
    pub min_bid: u8,
    /// Partnership: a side's numeric bids together must reach this (0 = none).
    pub board: u8,
    /// A side whose numeric bids total at least this scores its contract
    /// double, made or set (0 = never).
    pub double_at: u8,
    /// How the bids are chosen (classic, mirror, suicide, whiz).
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
    /// Every bidding game, classic first.
    pub const ALL: [BiddingGame; 4] = [
        BiddingGame::Classic,
        BiddingGame::Mirror,
        BiddingGame::Suicide,
        BiddingGame::Whiz,
    ];

    /// The bidding game's name as written in rules files.
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
    /// May a seat bid a blind number?
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
    /// To a target score.
    #[default]
    Standard,
    /// Quick Play: one hand at a time until the player's side (seat 0's)
    /// has lost its lives; the run's result is its total score.
    Quick,
}

/// The `[game]` table: how a game runs its course.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct GameRules {
    /// To a target or Quick Play.
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
    /// What a set side loses.
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
    /// Who leads the first trick.
    pub first_lead: FirstLead,
    /// When spades may be led.
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
    /// What is wrong with the value, in words.
    pub problem: String,
}

/// The largest target, penalty or nil value the rules take. With at most
/// 17 tricks a hand, no hand's score can then come near `i32`'s limits.
pub const MAX_POINTS: i32 = 100_000;
/// The largest bag limit: far beyond any table's house rule.
pub(crate) const MAX_BAG_LIMIT: i32 = 1_000;
/// The most lives a Quick Play run starts with.
pub(crate) const MAX_LIVES: u8 = 99;
/// The longest game in hands `game.hands` may set.
pub(crate) const MAX_HANDS: u32 = 1_000;

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
        check::settings(&settings)?;
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
    /// (`nil.pass`); two plain nils, or two blind nils, swap nothing.
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

/// The most cards a nil pass may swap.
pub(crate) const MAX_NIL_PASS: u8 = 3;

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

mod check;
#[cfg(test)]
mod tests;
