#!/usr/bin/env python3
"""Annotates a game record with a bot's win rate after every move, through `ghast analysis`.

A record is the moves of one game, whitespace separated, in the game's notation: what
`ghast replay` reads and `ghast arena --out` writes (lines starting with `#` are skipped).
One query asks for every turn at once, so their positions share the network's batches; the
answers come back in any order and are matched by turn.

    scripts/annotate.py --bot models/ghodak9 game.txt
    scripts/annotate.py --bot models/ghast-size4 --visits 400 game.txt > annotated.txt

Each line: the move number, the move, who played it, the win rate of the side that moved
before and after it (so a drop is that move's cost by the bot's judgement), and the bot's
choice where it differs. Only the standard library is used.
"""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def read_moves(path):
    with open(path, encoding="utf-8") as record:
        lines = [line for line in record if not line.lstrip().startswith("#")]
    return " ".join(lines).split()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("record", help="the moves of one game, whitespace separated")
    parser.add_argument("--bot", required=True, help="a bundle folder or checkpoint")
    parser.add_argument("--visits", type=int, default=200, help="visits per position")
    parser.add_argument("--ghast", default=os.path.join(HERE, "ghast"),
                        help="the ghast command (default: scripts/ghast)")
    args = parser.parse_args()

    moves = read_moves(args.record)
    query = {
        "id": "record",
        "moves": moves,
        "analyzeTurns": list(range(len(moves) + 1)),
        "maxVisits": args.visits,
    }
    engine = subprocess.run(
        [args.ghast, "analysis", "--bot", args.bot],
        input=json.dumps(query) + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    results = {}
    for line in engine.stdout.splitlines():
        answer = json.loads(line)
        if "error" in answer:
            sys.exit(f"annotate: {answer['error']} (field {answer.get('field')})")
        if "warning" not in answer:
            results[answer["turnNumber"]] = answer
    if engine.returncode != 0 or len(results) != len(moves) + 1:
        sys.exit(f"annotate: ghast analysis failed:\n{engine.stderr}")

    for turn, move in enumerate(moves):
        before, after = results[turn], results[turn + 1]
        mover = before["rootInfo"]["currentPlayer"]
        rate_before = before["rootInfo"]["winrate"]
        # Results are from the view of the side to move; the mover's view after its move is
        # the other side's, unless the mover moves again.
        rate_after = after["rootInfo"]["winrate"]
        if after["rootInfo"]["currentPlayer"] != mover:
            rate_after = 1.0 - rate_after
        best = before["moveInfos"][0]["move"] if before["moveInfos"] else None
        note = f"  (bot: {best})" if best not in (None, move) else ""
        print(f"{turn + 1:>4}. {move:<12} {mover:<8} {rate_before:6.1%} -> {rate_after:6.1%}{note}")
    final = results[len(moves)]
    if "gameOver" in final:
        print(f"result: {final['gameOver']}")


if __name__ == "__main__":
    main()
