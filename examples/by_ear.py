#!/usr/bin/env python3
"""A whole partnership game played by ear: through the screen-reader mode's
pipe, reading only the lines it says, as a script (or a player) would.

It bids what the bid prompt offers first, plays the first card each "You
may play" line offers, and goes on from each hand's summary. Then it says
how many lines each hand took, at each verbosity, and the longest line.

    python3 examples/by_ear.py [path/to/spades] [--seed N] [--verbosity brief,normal]

Standard library only. The game's files go to a temporary home.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

RANKS = {
    "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "ten": "T", "jack": "J",
    "queen": "Q", "king": "K", "ace": "A",
}
SUITS = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}
LINE_MAX = 200


def card_in_words(text):
    """'queen of hearts' -> 'qh'; None for anything else."""
    m = re.fullmatch(r"(\w+) of (\w+)", text.strip())
    if m and m.group(1) in RANKS and m.group(2) in SUITS:
        return (RANKS[m.group(1)] + SUITS[m.group(2)]).lower()
    return None


def offered_cards(line):
    """The cards a "You may play:" line offers, short: listed one by one
    ("queen of hearts, seven of hearts") or by suit ("hearts: queen, seven")."""
    head = "You may play:" if "You may play:" in line else "Your turn:"
    listed = line.split(head, 1)[1].strip().rstrip(".")
    cards = []
    for part in listed.split("; "):
        if ": " in part:
            suit, ranks = part.split(": ", 1)
            for rank in ranks.split(", "):
                cards.append(card_in_words(f"{rank} of {suit}"))
        else:
            cards.extend(card_in_words(c) for c in part.split(", "))
    return [c for c in cards if c]


def held_cards(line):
    """The cards of a "You hold 13 cards: spades: ace, ten; ..." line."""
    listed = line.split(": ", 1)[1].rstrip(".")
    cards = []
    for part in listed.split("; "):
        suit, ranks = part.split(": ", 1)
        cards.extend(card_in_words(f"{r} of {suit}") for r in ranks.split(", "))
    return [c for c in cards if c]


def answer(line, state):
    """What to type after `line`, if anything."""
    # Each prompt at normal verbosity, and at brief.
    if "You may play:" in line or line.startswith("Your turn: "):
        return "play " + offered_cards(line)[0]
    m = re.match(r"(?:Your turn to bid|Bid): (\d+)", line)
    if m:
        return "bid " + m.group(1)
    if "Your cards are face down: say" in line or line.startswith("Cards face down:"):
        return "look"
    m = re.match(r"(?:Your turn to pass|Pass) (\d+) card", line)
    if m:
        state["passing"] = int(m.group(1))
        return None
    if state.get("passing") and line.startswith("You hold"):
        n, state["passing"] = state["passing"], 0
        return "pass " + " ".join(held_cards(line)[:n])
    if line.startswith("Enter for"):
        return ""
    if line.startswith("The game is over"):
        return "quit"
    return None


def play(spades, seed, verbosity):
    home = tempfile.mkdtemp(prefix="by-ear-")
    env = dict(os.environ, HOME=home,
               XDG_CONFIG_HOME=os.path.join(home, "config"),
               XDG_DATA_HOME=os.path.join(home, "data"))
    args = [spades, "--screen-reader", "--seed", str(seed), "--verbosity", verbosity,
            "--difficulty", "easy"]
    game = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            env=env, cwd=home, text=True, bufsize=1)
    hands, longest, state, said = {}, "", {}, []
    hand = 0
    for line in game.stdout:
        line = line.rstrip("\n")
        said.append(line)
        if "\x1b" in line:
            sys.exit(f"an escape sequence was said: {line!r}")
        m = re.match(r"Hand (\d+)[.:,]", line)
        if m and "scored" not in line:
            hand = int(m.group(1))
        lines, chars = hands.get(hand, (0, 0))
        hands[hand] = (lines + 1, chars + len(line))
        if len(line) > len(longest):
            longest = line
        typed = answer(line, state)
        if typed is not None:
            game.stdin.write(typed + "\n")
            game.stdin.flush()
    game.wait()
    if game.returncode != 0 or not any(l.startswith("Game over.") for l in said):
        sys.exit(f"the game did not end well (exit {game.returncode}); last: {said[-5:]}")
    # Lines before the first deal, and after the game's end, are no hand's.
    per_hand = [n for h, n in sorted(hands.items()) if h > 0]
    return per_hand, longest


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("spades", nargs="?", default="target/release/spades")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--verbosity", default="brief,normal")
    options = parser.parse_args()
    worst = ""
    for verbosity in options.verbosity.split(","):
        # The game runs in a home of its own: the program is named from here.
        spades = os.path.abspath(options.spades)
        per_hand, longest = play(spades, options.seed, verbosity)
        lines = [n for n, _ in per_hand]
        chars = sum(c for _, c in per_hand) / len(per_hand)
        mean = sum(lines) / len(lines)
        print(f"{verbosity}: {len(lines)} hands, lines per hand: "
              f"mean {mean:.1f}, min {min(lines)}, max {max(lines)} "
              f"({' '.join(map(str, lines))}); characters per hand: mean {chars:.0f}; "
              f"longest line {len(longest)} characters")
        if len(longest) > len(worst):
            worst = longest
    print(f"longest line ({len(worst)} characters, limit {LINE_MAX}): {worst}")
    if len(worst) > LINE_MAX:
        sys.exit("a line is over the limit")


if __name__ == "__main__":
    main()
