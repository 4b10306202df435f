//! The summary's nil and bags figures: how often each bot bids nil and
//! blind nil when the rules let it, how often those are made, and how far
//! its bids and its sides' contracts miss (tricks − bid) on average. Tallied
//! per seat from the engine's scores, summed per bot, printed as a table of
//! their own after the bots'.

use serde::Serialize;

use super::BotReport;
use crate::engine::rules::BiddingGame;
use crate::engine::score::deficit;
use crate::engine::{HandResult, PerSide, Rules, Seat};

/// Nils of one kind (plain or blind) over some seat-hands.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct NilTally {
    /// Seat-hands where the rules let the seat bid it.
    pub eligible: u32,
    pub bid: u32,
    pub made: u32,
}

impl NilTally {
    /// One more nil bid, made or not as the engine scored it.
    pub fn count_bid(&mut self, made: bool) {
        self.bid += 1;
        self.made += u32::from(made);
    }

    pub fn add(&mut self, other: NilTally) {
        self.eligible += other.eligible;
        self.bid += other.bid;
        self.made += other.made;
    }
}

/// A sum of (tricks − bid) and how many bids or contracts it is over.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Balance {
    pub sum: i64,
    pub count: u32,
}

impl Balance {
    pub fn count_one(&mut self, tricks: u8, bid: u8) {
        self.sum += i64::from(tricks) - i64::from(bid);
        self.count += 1;
    }

    pub fn add(&mut self, other: Balance) {
        self.sum += other.sum;
        self.count += other.count;
    }

    /// The average; `None` over nothing, where 0 would read as "exact".
    fn mean(self) -> Option<f64> {
        (self.count > 0).then(|| self.sum as f64 / f64::from(self.count))
    }
}

/// Which sides could have bid blind nil at a deal where the sides' scores
/// were `scores`: as `Auction::blind_nil_refusal` decides, but only on what
/// holds for the whole hand. Its conditions within the hand (a partner's
/// blind nil already bid under `one_per_side`, the seat having looked at
/// its cards) are left out: they depend on the bidding, not on the seat's
/// chance to bid it.
pub(super) fn blind_nil_open(rules: &Rules, scores: &PerSide<i32>) -> PerSide<bool> {
    let mode = rules.mode;
    let allowed = rules.blind_nil.allowed
        && rules.bidding.game == BiddingGame::Classic
        && mode.dummy().is_none();
    PerSide::from_fn(mode, |side| {
        allowed && deficit(mode, scores, side) >= rules.blind_nil.min_deficit
    })
}

/// The seat's (tricks, bid) this hand when it made a numeric bid of its own.
/// Never with a dummy: the declarer's bid covers the dummy's tricks too, and
/// a defender's bid is replaced by the defenders' contract, so no seat's
/// bid is its own (the side's figure covers those hands).
pub(super) fn own_contract(result: &HandResult, seat: Seat) -> Option<(u8, u8)> {
    let bid = result.bids[seat];
    (result.declarer.is_none() && bid.is_numeric()).then(|| (result.tricks[seat], bid.tricks()))
}

/// A bot's nil and bags figures, as `--json` prints them (flattened into
/// its object).
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct NilFigures {
    /// Its seat-hands where the rules allowed a nil.
    pub nil_eligible: u32,
    pub plain_nil_bids: u32,
    pub plain_nils_made: u32,
    /// Plain nil bids per 100 eligible seat-hands.
    pub nils_per_100: Option<f64>,
    pub plain_nils_made_rate: Option<f64>,
    /// Its seat-hands where its side trailed enough for a blind nil.
    pub blind_nil_eligible: u32,
    pub blind_nil_bids: u32,
    pub blind_nils_made: u32,
    pub blind_nils_per_100: Option<f64>,
    pub blind_nils_made_rate: Option<f64>,
    /// Its seats' numeric bids, and their tricks − bid on average.
    pub seat_bids: u32,
    pub over_tricks_per_seat: Option<f64>,
    /// Its sides' contracts, and their tricks − bid on average.
    pub side_contracts: u32,
    pub over_tricks_per_side: Option<f64>,
}

impl NilFigures {
    pub(super) fn new(
        plain: NilTally,
        blind: NilTally,
        seat: Balance,
        side: Balance,
    ) -> NilFigures {
        NilFigures {
            nil_eligible: plain.eligible,
            plain_nil_bids: plain.bid,
            plain_nils_made: plain.made,
            nils_per_100: per_100(plain.bid, plain.eligible),
            plain_nils_made_rate: share(plain.made, plain.bid),
            blind_nil_eligible: blind.eligible,
            blind_nil_bids: blind.bid,
            blind_nils_made: blind.made,
            blind_nils_per_100: per_100(blind.bid, blind.eligible),
            blind_nils_made_rate: share(blind.made, blind.bid),
            seat_bids: seat.count,
            over_tricks_per_seat: seat.mean(),
            side_contracts: side.count,
            over_tricks_per_side: side.mean(),
        }
    }
}

/// `part` of `whole`; `None` of nothing.
fn share(part: u32, whole: u32) -> Option<f64> {
    (whole > 0).then(|| f64::from(part) / f64::from(whole))
}

fn per_100(part: u32, whole: u32) -> Option<f64> {
    share(part, whole).map(|s| s * 100.0)
}

/// The "Nil and bags" table, after a blank line: a line per bot (one in a
/// mirror match, as the bots' table has), names padded to `width`.
pub(super) fn render(bots: &[BotReport], width: usize) -> String {
    let mut out = format!(
        "\nNil and bags\n{:<width$} {:>9} {:>10} {:>10} {:>11} {:>15} {:>15}\n",
        "bot",
        "nils/100",
        "nils made",
        "blind/100",
        "blind made",
        "tricks-bid/seat",
        "tricks-bid/side"
    );
    for b in bots {
        let n = &b.nil_figures;
        out.push_str(&format!(
            "{:<width$} {:>9} {:>10} {:>10} {:>11} {:>15} {:>15}\n",
            b.bot,
            one_decimal(n.nils_per_100),
            format!("{}/{}", n.plain_nils_made, n.plain_nil_bids),
            one_decimal(n.blind_nils_per_100),
            format!("{}/{}", n.blind_nils_made, n.blind_nil_bids),
            signed(n.over_tricks_per_seat),
            signed(n.over_tricks_per_side),
        ));
    }
    out
}

/// One decimal; `-` for a figure over nothing.
fn one_decimal(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_string(), |v| format!("{v:.1}"))
}

/// One decimal with its sign, `+0.4` or `-1.2`; `0.0` without one, as a
/// value that rounds to it is neither over nor under; `-` for nothing.
fn signed(value: Option<f64>) -> String {
    match value {
        Some(v) if (v * 10.0).round() == 0.0 => "0.0".to_string(),
        Some(v) => format!("{v:+.1}"),
        None => "-".to_string(),
    }
}
