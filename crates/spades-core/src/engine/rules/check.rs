//! Whether a set of rules can be played: each value in its range, and no
//! two keys that cannot be played together. The first key at fault is
//! named, with what it takes.

use std::fmt::Display;

use super::{
    BiddingGame, FirstLead, InvalidRule, MAX_BAG_LIMIT, MAX_HANDS, MAX_LIVES, MAX_NIL_PASS,
    MAX_POINTS, RuleSettings,
};
use crate::engine::seat::Mode;

/// Every check, in the order a reader fixes them.
pub(super) fn settings(s: &RuleSettings) -> Result<(), InvalidRule> {
    scores(s)?;
    game(s)?;
    bidding_ranges(s)?;
    bidding_game(s)?;
    if s.mode == Mode::Dummy {
        dummy(s)?;
    }
    Ok(())
}

fn bad(key: &'static str, problem: String) -> Result<(), InvalidRule> {
    Err(InvalidRule { key, problem })
}

/// `value` between `low` and `high`, or says so for `key`.
fn within<T: PartialOrd + Display>(
    key: &'static str,
    value: T,
    low: T,
    high: T,
) -> Result<(), InvalidRule> {
    if low <= value && value <= high {
        Ok(())
    } else {
        bad(
            key,
            format!("must be between {low} and {high}, got {value}"),
        )
    }
}

/// The target, the losing score, bags, nil and blind nil values.
fn scores(s: &RuleSettings) -> Result<(), InvalidRule> {
    within("target_score", s.target_score, 1, MAX_POINTS)?;
    if let Some(losing) = s.losing_score {
        within("losing_score", losing, -MAX_POINTS, MAX_POINTS)?;
        if losing >= s.target_score {
            return bad(
                "losing_score",
                format!(
                    "must be below target_score ({}), got {losing}",
                    s.target_score
                ),
            );
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
        return bad(
            "blind_nil.exchange",
            format!(
                "must be between 0 and 13 (a hand has 13 cards), got {}",
                s.blind_nil.exchange
            ),
        );
    }
    Ok(())
}

/// How a game runs its course and is scored beyond the bids.
fn game(s: &RuleSettings) -> Result<(), InvalidRule> {
    within("game.lives", s.game.lives, 1, MAX_LIVES)?;
    if s.game.hands > MAX_HANDS {
        return bad(
            "game.hands",
            format!(
                "must be between 0 (no limit) and {MAX_HANDS}, got {}",
                s.game.hands
            ),
        );
    }
    if !(0..=1).contains(&s.scoring.overtrick_points) {
        return bad(
            "scoring.overtrick_points",
            format!("must be 1 or 0, got {}", s.scoring.overtrick_points),
        );
    }
    if s.nil.failed_tricks_count && !s.mode.has_partners() {
        return bad(
            "nil.failed_tricks_count",
            format!(
                "counts a failed nil's tricks toward a partner's contract: \
                 {} has no partners (set it false)",
                s.mode
            ),
        );
    }
    Ok(())
}

/// The bidding keys, each in its range, and the partnership-only ones
/// only with partners.
fn bidding_ranges(s: &RuleSettings) -> Result<(), InvalidRule> {
    let hand = s.mode.hand_size() as u8;
    let b = &s.bidding;
    // Below the whole hand, so a last bidder always has a bid the exact
    // total does not forbid.
    within("bidding.min_bid", b.min_bid, 1, hand - 1)?;
    within("bidding.board", b.board, 0, hand)?;
    within("bidding.double_at", b.double_at, 0, hand)?;
    within("bidding.suicide_min", b.suicide_min, 1, hand)?;
    within("blind_bid.min", s.blind_bid.min, 1, hand)?;
    within("nil.pass", s.nil.pass, 0, MAX_NIL_PASS)?;
    within(
        "blind_bid.min_deficit",
        s.blind_bid.min_deficit,
        0,
        MAX_POINTS,
    )?;
    within("boston.bonus", s.boston.bonus, 0, MAX_POINTS)?;
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
    partners_only("bidding.game", b.game == BiddingGame::Suicide)
}

/// A bidding game other than the classic one, and the keys it cannot be
/// played with: no combination the bidding could get stuck in.
fn bidding_game(s: &RuleSettings) -> Result<(), InvalidRule> {
    let b = &s.bidding;
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

/// The keys that mean nothing with a dummy, where every bid is a team
/// total made seeing one's own cards and the first bidder leads. (The
/// partnership-only keys are refused by `bidding_ranges`.)
fn dummy(s: &RuleSettings) -> Result<(), InvalidRule> {
    let refuse = |key, why: &str| {
        bad(
            key,
            format!("makes no sense with a dummy: {why} (leave it out)"),
        )
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
