//! The player's bid: the bids on offer as buttons, the cursor over them
//! (moved by the arrows, put on a number as it is typed), and why the bid
//! under it is refused.

use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

use crate::bots;
use crate::engine::{Bid, BiddingGame, BlindNilRefusal, PlayerView};

use super::super::hits::{Hits, Target};
use super::super::input::Key;
use super::super::text::sentence;
use super::super::theme::Theme;
use super::digits::Digits;
use super::panel_row;

/// The cursor over the bids on offer, and the digits typed toward one.
#[derive(Debug, Default)]
pub struct Bids {
    cursor: usize,
    digits: Digits,
}

/// The bids the panel offers: every number, nil, and blind nil when the
/// engine would take it now.
pub fn options(view: &PlayerView) -> Vec<Bid> {
    let max = view.mode().hand_size() as u8;
    let nil = view.rules.nil_is_bid().then_some(Bid::Nil);
    let mut bids: Vec<Bid> = (1..=max).map(Bid::Tricks).chain(nil).collect();
    if view.blind_nil_refusal().is_none() {
        bids.push(Bid::BlindNil);
    }
    bids
}

impl Bids {
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Keeps the cursor on a bid on offer. Each turn to bid (`begins`)
    /// starts on a number the hand (`playing`) could make, never on last
    /// hand's bid: a nil is bid only when the player moves onto it. A bid
    /// the rules refuse (mirror's forced bid, the board, suicide) is not
    /// where it starts either.
    pub fn place(&mut self, view: &PlayerView, playing: &PlayerView, begins: bool) {
        let options = options(view);
        if begins {
            let start = bots::normal::number_bid(playing);
            if let Some(i) = options.iter().position(|&b| b == start) {
                self.cursor = i;
            }
        }
        self.cursor = self.cursor.min(options.len().saturating_sub(1));
        let refused = |b: &Bid| view.check_bid(*b).is_err();
        if begins
            && (view.rules.bidding.game != BiddingGame::Classic
                || view.rules.bidding.board > 0
                || view.rules.bidding.min_bid > 1)
            && options.get(self.cursor).is_some_and(refused)
            && let Some(i) = options.iter().position(|b| !refused(b))
        {
            self.cursor = i;
        }
    }

    /// Puts the cursor on `bid`, if it is on offer.
    pub fn choose(&mut self, bid: Bid, view: &PlayerView) {
        if let Some(at) = options(view).iter().position(|&b| b == bid) {
            self.cursor = at;
        }
    }

    /// A click on `bid`: the first chooses it, a second on the same bid
    /// makes it (returned).
    pub fn click(&mut self, bid: Bid, view: &PlayerView) -> Option<Bid> {
        if options(view).get(self.cursor) == Some(&bid) {
            return Some(bid);
        }
        self.choose(bid, view);
        None
    }

    /// A key at the player's turn to bid, typed at `now`; returns the bid
    /// it makes, if it makes one.
    pub fn key(&mut self, key: Key, view: &PlayerView, now: Instant) -> Option<Bid> {
        let options = options(view);
        let last = options.len().saturating_sub(1);
        if !matches!(key, Key::Char('0'..='9')) {
            self.digits.clear();
        }
        match key {
            Key::Left => self.cursor = self.cursor.saturating_sub(1),
            Key::Right => self.cursor = (self.cursor + 1).min(last),
            Key::Enter | Key::Space => return options.get(self.cursor).copied(),
            Key::Char('n') => return Some(Bid::Nil),
            Key::Char('b') => return Some(Bid::BlindNil),
            Key::Char(d @ '0'..='9') => {
                let max = view.mode().hand_size();
                if let Some(n) = self.digits.push(d, max, now)
                    && let Some(i) = options.iter().position(|&b| b == Bid::Tricks(n))
                {
                    self.cursor = i;
                }
            }
            _ => {}
        }
        None
    }

    /// The bids as buttons, wrapping when they do not fit one row, and why
    /// the bid under the cursor is refused (unless `notice` says it
    /// already). Returns the first row after the buttons.
    pub fn draw(
        &self,
        view: &PlayerView,
        notice: Option<&str>,
        inner: Rect,
        buf: &mut Buffer,
        hits: &mut Hits,
        theme: &Theme,
    ) -> u16 {
        let options = options(view);
        // Brackets mark the cursor even without colour.
        let texts: Vec<String> = options
            .iter()
            .enumerate()
            .map(|(i, &bid)| {
                let name = match bid {
                    Bid::Tricks(n) => n.to_string(),
                    Bid::Nil => "Nil".to_string(),
                    Bid::BlindNil => "Blind nil".to_string(),
                    Bid::Blind(n) => format!("Blind {n}"),
                };
                if i == self.cursor {
                    format!("[{name}]")
                } else {
                    format!(" {name} ")
                }
            })
            .collect();
        // A cell between buttons where the row has room for it; without, the
        // bids of a long hand (cutthroat's 17 and Nil) still fit one row,
        // leaving the rows under it to the reason and the hint.
        let row_width = usize::from(inner.width.saturating_sub(1));
        let widths: usize = texts.iter().map(|t| t.chars().count()).sum();
        let gap = u16::from(widths + texts.len().saturating_sub(1) <= row_width);
        let (mut x, mut y) = (inner.x + 1, inner.y);
        for (i, (&bid, text)) in options.iter().zip(&texts).enumerate() {
            let width = text.chars().count() as u16;
            if x + width > inner.right() {
                x = inner.x + 1;
                y += 1;
            }
            let allowed = view.check_bid(bid).is_ok();
            let mut style = if allowed {
                Style::new()
            } else {
                theme.unavailable()
            };
            if i == self.cursor {
                style = style.patch(theme.cursor());
            }
            buf.set_string(x, y, text, style);
            hits.add(Rect::new(x, y, width, 1), Target::Bid(bid));
            x += width + gap;
        }
        let next = y - inner.y + 1;
        // Why the bid under the cursor cannot be made, else why blind nil is
        // not on offer when that could matter; never what the notice says.
        let why = options
            .get(self.cursor)
            .and_then(|&b| view.check_bid(b).err())
            .map(|e| sentence(&e.to_string()))
            .or_else(|| blind_nil_note(view));
        if let Some(why) = why.filter(|w| notice != Some(w.as_str()))
            && next < inner.height
        {
            let r = panel_row(inner, next);
            buf.set_stringn(r.x, r.y, why, r.width as usize, theme.dim());
        }
        next
    }
}

/// Why blind nil is not on offer, said only when a player could expect it:
/// the side is near the deficit it needs, or the partner has bid it.
fn blind_nil_note(view: &PlayerView) -> Option<String> {
    let why = view.blind_nil_refusal()?;
    let helps = match why {
        BlindNilRefusal::NotTrailing { deficit, needed } => deficit > 0 && 2 * deficit >= needed,
        BlindNilRefusal::PartnerBidBlindNil => true,
        BlindNilRefusal::Disabled
        | BlindNilRefusal::AlreadyLooked
        | BlindNilRefusal::Game(_)
        | BlindNilRefusal::Dummy => false,
    };
    helps.then(|| format!("Blind nil: {why}."))
}
