#!/usr/bin/env python3
"""A simple Spades bot in another process, speaking the table protocol.

Run it as a seat of `spades sim`:

    spades sim --seats 'exec:python3 examples/bot.py',normal,normal,normal

It talks JSON Lines on its standard input and output (docs/protocol.md,
"Bots in another process"): it says hello, then answers every `ask` with an
`act`, and exits on `bye` (or when its input ends). Each ask carries the
whole view of the table, so the bot needs no memory between asks.

Plain Python 3, standard library only. It plays legally and with a little
sense, no more: a starting point for a bot of your own. Anything it prints
to standard error shows in spades' report if it fails; anything else it
prints to standard output is read as a message, so print nothing else there.
"""

import json
import sys

# Card names are rank then suit ("AS", "TH", "2C"). With jokers in the deck
# the top trumps have names of their own, all of them spades:
# Big Joker, Little Joker, and under deuces_high the 2 of diamonds and the
# 2 of spades.
RANKS = "23456789TJQKA"
TOP_TRUMPS = {"DS": 13, "DD": 14, "LJ": 15, "BJ": 16}


def suit(card):
    """The card's suit: S, H, D or C."""
    return "S" if card in TOP_TRUMPS else card[1]


def power(card):
    """How high the card ranks within its suit (the top trumps above the ace)."""
    return TOP_TRUMPS.get(card, RANKS.index(card[0]))


def lowest(cards):
    """The cheapest card to give up: the lowest, keeping spades (trumps)."""
    return min(cards, key=lambda c: (suit(c) == "S", power(c)))


def highest(cards):
    return max(cards, key=lambda c: (suit(c) == "S", power(c)))


def beats(card, best):
    """Would `card` beat `best`, the card winning the trick now?"""
    if suit(card) == suit(best):
        return power(card) > power(best)
    return suit(card) == "S"


def send(message):
    """One message, one line; flushed at once, or spades waits in vain."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def choose_bid(bids, view):
    """Roughly the tricks the hand should take: each ace one, each king and
    each lower spade half of one. Never nil."""
    hand = view["hand"]
    estimate = 0.0
    for card in hand:
        if card[0] == "A" or card in TOP_TRUMPS:
            estimate += 1
        elif card[0] == "K" or suit(card) == "S":
            estimate += 0.5
    numbers = [b for b in bids if isinstance(b, int)]
    if not numbers:  # only nil-like bids left: take the first offered
        return bids[0]
    return min(numbers, key=lambda n: abs(n - estimate))


def choose_exchange(count, view):
    """Cards to pass after a blind nil. Passing to a nil bidder, give it the
    lowest cards (it wants to take no tricks); a nil bidder gives away its
    highest."""
    hand = view["hand"]
    my_bid = view["auction"]["bids"][view["seat"]]
    nil = my_bid in ("nil", "blind_nil")
    ordered = sorted(hand, key=lambda c: (suit(c) == "S", power(c)), reverse=nil)
    return ordered[:count]


def choose_card(cards, view):
    """Follow with the lowest card unless one wins the trick cheaply; lead an
    ace outside spades if there is one, else the lowest card."""
    play = view["play"]
    trick = play["trick"]
    if all(card is None for card in trick):  # leading
        aces = [c for c in cards if c[0] == "A" and suit(c) != "S"]
        return aces[0] if aces else lowest(cards)
    winner = play["winning"]
    best = trick[winner]
    # In partnership the partner sits opposite: no need to beat them.
    if view["rules"]["mode"] == "partnership" and winner == (view["seat"] + 2) % 4:
        return lowest(cards)
    winners = [c for c in cards if beats(c, best)]
    if winners:
        return min(winners, key=lambda c: (suit(c) == "S", power(c)))
    return lowest(cards)


def answer(ask):
    """The action for one ask, chosen from what `legal` lists."""
    legal = ask["legal"]
    view = ask["view"]
    kind = legal["kind"]
    if kind == "bids":
        if legal["look"]:
            # Cards still face down: a blind bid is offered. Look instead.
            return "look"
        return {"bid": choose_bid(legal["bids"], view)}
    if kind == "exchange":
        return {"exchange": choose_exchange(legal["count"], view)}
    if kind == "cards":
        return {"play": choose_card(legal["cards"], view)}
    raise ValueError("an ask of a kind this bot does not know: " + kind)


def main():
    send({"type": "hello", "protocol": 1, "name": "bot.py"})
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "ask":
            send({"type": "act", "action": answer(message)})
        elif kind == "bye":
            break
        elif kind == "error":
            print("spades says: " + message["message"], file=sys.stderr)
        # `welcome` and `seated` need no answer; `seated` tells our seat,
        # which every view repeats.


if __name__ == "__main__":
    main()
