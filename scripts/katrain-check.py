"""KaTrain, a client written for KataGo, analyses a 9x9 game with a Go bot of ours in KataGo's
place, driven headless through its own engine class (katrain.core.engine.KataGoEngine).

    python3 -m venv /tmp/katrain && /tmp/katrain/bin/pip install 'katrain==1.20.*'
    /tmp/katrain/bin/python scripts/katrain-check.py target/release/ghast models/ghodak9

KaTrain's packaged analysis config is used with `reportAnalysisWinratesAs = SIDETOMOVE`, and
KaTrain forces Black's view through `overrideSettings` on every query (with `wideRootNoise`
and `maxTime`). A game of 40 moves is first played by the bot itself over GTP; KaTrain then
analyses every position of it. The check: no error line reached KaTrain, every position has
its analysis, and at every position the win rate KaTrain stores is the one `ghast analysis`
gives itself for that position with no override (the side to move's), turned to Black's view:
1 minus it where White is to move. Prints one line per position, then the verdict; exits 1
on any failure.
"""

import json
import pathlib
import subprocess
import sys
import tempfile
import time

import katrain
from katrain.core.constants import OUTPUT_ERROR
from katrain.core.engine import KataGoEngine
from katrain.core.game import KaTrainSGF

VISITS = 40
MOVES = 40


class Host:
    """What KaTrain's engine asks of the application around it: logs and popups."""

    def __init__(self):
        self.errors = []

    def log(self, message, level=0):
        if level == OUTPUT_ERROR:
            self.errors.append(str(message))

    def __call__(self, *args, **_):
        self.errors.append(f"popup {args}")


def bot_game(ghast, model):
    """MOVES moves of the bot against itself over GTP, as an SGF."""
    gtp = subprocess.Popen([ghast, "gtp", "--bot", model, "--visits", "8"], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

    def ask(command):
        gtp.stdin.write(command + "\n")
        gtp.stdin.flush()
        lines = []
        while (line := gtp.stdout.readline().strip()) or not lines:
            lines.append(line)
        assert lines[0].startswith("="), (command, lines)
        return lines[0][1:].strip()

    moves = []
    for number in range(MOVES):
        colour = "b" if number % 2 == 0 else "w"
        move = ask(f"genmove {colour}").lower()
        if move in ("resign", "pass"):
            break
        moves.append((colour.upper(), move))
    ask("quit")
    gtp.wait()

    def sgf_point(move):
        column = "abcdefghjklmnopqrst".index(move[0])
        row = 9 - int(move[1:])
        return "abcdefghi"[column] + "abcdefghi"[row]

    body = "".join(f";{colour}[{sgf_point(move)}]" for colour, move in moves)
    return f"(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]{body})", moves


def engine_winrates(ghast, model, config, moves):
    """The side to move's win rate `ghast analysis` gives each turn of `moves`, no override."""
    query = {
        "id": "direct",
        "moves": [[colour, move.upper()] for colour, move in moves],
        "analyzeTurns": list(range(len(moves) + 1)),
        "maxVisits": VISITS,
        "rules": "chinese",
        "komi": 7.5,
    }
    done = subprocess.run([ghast, "analysis", "-config", config, "-model", model],
                          input=json.dumps(query) + "\n", capture_output=True, text=True, check=True)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    errors = [answer for answer in answers if "error" in answer]
    assert not errors, errors
    return {answer["turnNumber"]: answer["rootInfo"]["winrate"] for answer in answers}


def main():
    ghast, model = sys.argv[1:3]
    packaged = pathlib.Path(katrain.__file__).parent
    config_text = (packaged / "KataGo" / "analysis_config.cfg").read_text()
    config_text = config_text.replace("reportAnalysisWinratesAs = BLACK",
                                      "reportAnalysisWinratesAs = SIDETOMOVE")
    assert "reportAnalysisWinratesAs = SIDETOMOVE" in config_text
    work = pathlib.Path(tempfile.mkdtemp())
    config = work / "analysis_config.cfg"
    config.write_text(config_text)

    sgf, moves = bot_game(ghast, model)
    print(f"game: {len(moves)} moves: {sgf}")
    root = KaTrainSGF.parse_sgf(sgf)
    nodes = [root]
    while nodes[-1].children:
        nodes.append(nodes[-1].children[0])

    host = Host()
    engine = KataGoEngine(host, {
        "backend": "custom",
        # KaTrain runs a custom command through the shell and stops it by killing that
        # process: `exec` makes the engine that process.
        "altcommand": f"exec {ghast} analysis -config {config} -model {model}",
        "max_visits": VISITS,
        "fast_visits": VISITS,
        "max_time": 60.0,
        "wide_root_noise": 0.04,
        "_enable_ownership": True,
    })
    for node in nodes:
        node.analyze(engine, visits=VISITS)
    deadline = time.time() + 600
    while not all(node.analysis_complete for node in nodes) and time.time() < deadline:
        time.sleep(0.2)
    engine.shutdown(finish=False)

    direct = engine_winrates(ghast, model, str(config), moves)
    failures = list(host.errors)
    for turn, node in enumerate(nodes):
        if not node.analysis_complete:
            failures.append(f"turn {turn}: no analysis")
            continue
        stored = node.analysis["root"]["winrate"]
        to_move = node.next_player
        black_view = direct[turn] if to_move == "B" else 1 - direct[turn]
        ok = abs(stored - black_view) < 1e-3
        print(f"turn {turn:2}  {to_move} to move  KaTrain stores {stored:.4f}  "
              f"ghast's side to move {direct[turn]:.4f}  -> Black {black_view:.4f}  "
              f"{'ok' if ok else 'DIFFERS'}")
        if not ok:
            failures.append(f"turn {turn}: KaTrain stores {stored}, expected {black_view}")
        if node.analysis.get("ownership") is None or len(node.analysis["ownership"]) != 81:
            failures.append(f"turn {turn}: no ownership")
    if failures:
        print("FAILED:\n  " + "\n  ".join(failures))
        sys.exit(1)
    print(f"ok: {len(nodes)} positions analysed by KaTrain, no error line, every stored win "
          f"rate Black's view of the engine's side to move's")


if __name__ == "__main__":
    main()
