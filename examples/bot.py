#!/usr/bin/env python3
"""A simple Spades bot in another process, speaking the table protocol.

Run it as a seat of `spades sim`:

    spades sim --seats 'exec:python3 examples/bot.py',normal,normal,normal

or send it to a friend's table over the network, by the table's code:

    python3 examples/bot.py --join TABLE.FINGERPRINT@HOST:PORT

It talks JSON Lines on its standard input and output (docs/protocol.md,
"Bots in another process"): it says hello, then answers every `ask` with an
`act`, answers every `ping` with `pong`, and exits on `bye` (or when its
input ends). Each ask carries the
whole view of the table, so the bot needs no memory between asks.

Plain Python 3, standard library only. It plays legally and with a little
sense, no more: a starting point for a bot of your own. Anything it prints
to standard error shows in spades' report if it fails; anything else it
prints to standard output is read as a message, so print nothing else there.
"""

import base64
import hashlib
import json
import socket
import ssl
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


# Where messages go: standard output, or the table's connection.
OUT = sys.stdout


def send(message):
    """One message, one line; flushed at once, or spades waits in vain."""
    OUT.write(json.dumps(message) + "\n")
    OUT.flush()


def connect(code):
    """The table in `code` (TABLE.FINGERPRINT@HOST:PORT): its id, and lines
    in and out over TLS. The server's certificate is its own, signed by no
    one; it is trusted because its SHA-256 begins with the fingerprint in the
    code (first 16 bytes, base32), exactly as docs/protocol.md says."""
    name, place = code.strip().split("@", 1)
    table, fingerprint = name.split(".", 1)
    host, port = place.rsplit(":", 1)
    sock = socket.create_connection((host.strip("[]"), int(port)))
    if fingerprint.lower() != "plain":
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE  # the fingerprint is the check
        sock = context.wrap_socket(sock, server_hostname="spades.table")
        der = sock.getpeercert(binary_form=True)
        found = base64.b32encode(hashlib.sha256(der).digest()[:16]).decode().rstrip("=")
        if found != fingerprint.upper():
            sys.exit("that server is not the table in the code")
    return table.upper(), sock.makefile("r", encoding="utf-8"), sock.makefile("w", encoding="utf-8")


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
    global OUT
    lines = sys.stdin
    send_first = []
    if len(sys.argv) == 3 and sys.argv[1] == "--join":
        table, lines, OUT = connect(sys.argv[2])
        send_first.append({"type": "join", "table": table})
    send({"type": "hello", "protocol": 1, "name": "bot.py"})
    for message in send_first:
        send(message)
    seated = False
    for line in lines:
        message = json.loads(line)
        kind = message["type"]
        if kind == "ask":
            send({"type": "act", "action": answer(message)})
        elif kind == "ping":
            # A server checks that we are still here: answer at once, or
            # be taken for gone.
            send({"type": "pong"})
        elif kind == "bye":
            break
        elif kind == "seated":
            seated = True
        elif kind == "error" and not seated:
            sys.exit("the table says: " + message["message"])
        elif kind == "error":
            print("spades says: " + message["message"], file=sys.stderr)
        # Nothing else needs an answer: `welcome`, the lobby, events and
        # views (every ask carries the view it needs).


if __name__ == "__main__":
    main()
