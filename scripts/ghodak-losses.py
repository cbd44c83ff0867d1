#!/usr/bin/env python3
"""How a Ghodak player lost its games: each loss of one player in an arena's `--out` folder,
how it ended (resignation or passes), the result, and the player's stones left on the board.

Issue 29 asks for a Go bot that loses no game with every stone of its captured (a bot that
plays on in a lost position until nothing of it is left); this counts those wipe-outs.
With `--judge`, a GTP engine scores each lost game's last position (`loadsgf` of the arena's
SGF record, then `final_score`), so a resigned loss gets a margin, or shows a false
resignation: half-point losses ask for a sharper endgame, thirty-point ones for better
fighting.

    G="/usr/games/gnugo --mode gtp --chinese-rules --capture-all-dead --level 10"
    scripts/ghast arena models/ghodak9@1600 "gtp:$G" --out DIR
    scripts/ghodak-losses.py DIR ghodak9@1600 [--ghast target/release/ghast] [--judge "$G"]

The player is named as the arena's report and match.json name it (a bundle by its folder's
name and visits, such as `ghodak9@1600`; a wrong name is answered with the two right ones).
The final position is the one `ghast replay` prints; `x` marks Black's stones, `o` White's.
Exits 1 when the player lost a game with no stone left.
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path


def final_position(ghast, record, rules):
    """The last board `ghast replay` prints for a move list, and its result line (none where
    the game ended by resignation, which a move list does not record)."""
    with open(record) as moves:
        replay = subprocess.run(
            [ghast, "replay", "--game", "ghodak", *rules],
            stdin=moves,
            capture_output=True,
            text=True,
        )
    if replay.returncode != 0:
        sys.exit(f"{record}: ghast replay failed: {replay.stderr.strip()}")
    lines = replay.stdout.strip().splitlines()
    if lines[-1].startswith("result"):
        return lines[-2].split()[1], lines[-1]
    return lines[-1].split()[1], ""


def judged_score(judge, record):
    """The judge engine's `final_score` of the record's last position, such as `W+0.5`."""
    commands = f"loadsgf {record}\nfinal_score\nquit\n"
    answer = subprocess.run(judge.split(), input=commands, capture_output=True, text=True)
    replies = [line for line in answer.stdout.splitlines() if line.startswith(("=", "?"))]
    if answer.returncode != 0 or len(replies) < 2 or not replies[1].startswith("="):
        sys.exit(f"{record}: the judge could not score it: {answer.stdout.strip()} {answer.stderr.strip()}")
    return replies[1][1:].strip()


def margin(score):
    """The points of a `final_score` answer (`B+3.5` gives 3.5; `0` a draw)."""
    return float(score[2:]) if "+" in score else 0.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", type=Path, help="an arena's --out folder (match.json and records)")
    parser.add_argument("player", help="the player as the arena names it")
    parser.add_argument("--ghast", default=str(Path(__file__).parent / "ghast"))
    parser.add_argument("--judge", help="a GTP engine's command line that scores each loss's last position")
    args = parser.parse_args()

    match = json.loads((args.games / "match.json").read_text())
    if args.player not in (match["a"], match["b"]):
        sys.exit(f"{args.player!r} is not a player of this match ({match['a']!r}, {match['b']!r})")
    options = match.get("options", {})
    rules = [f"--rule={key}={value}" for key, value in options.items() if value is not None]

    losses = wipe_outs = close = judged_won = 0
    for game in match["games"]:
        black = game["black"] == args.player
        first_won = game["outcome"] == "Win(First)"
        if game["outcome"] not in ("Win(First)", "Win(Second)") or first_won == black:
            continue
        losses += 1
        board, result = final_position(args.ghast, args.games / game["file"], rules)
        stones = board.count("x" if black else "o")
        wipe_outs += stones == 0
        colour = "black" if black else "white"
        line = f"{game['file']}  as {colour}  by {game['reason']:8}  stones left {stones:3}  {result}"
        if args.judge:
            score = judged_score(args.judge, args.games / game["sgf"])
            won = score.startswith("B+" if black else "W+")
            judged_won += won
            close += not won and margin(score) <= 2.5
            line += f"  judged {score}" + ("  (the player's: a false resignation?)" if won else "")
        print(line)
    summary = f"{losses} losses, {wipe_outs} with every stone captured"
    if args.judge:
        summary += f", {close} judged lost by 2.5 points or less, {judged_won} judged won"
    print(summary)
    sys.exit(1 if wipe_outs else 0)


if __name__ == "__main__":
    main()
