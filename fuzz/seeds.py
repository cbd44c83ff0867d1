"""Writes the seed corpus of each fuzz target from files of the repository: ROOT CORPUS GHAST
(the `ghast` binary, whose `ghast games --json` lists the games in the order of crates/games)."""

import json
import pathlib
import struct
import subprocess
import sys

root, corpus = map(pathlib.Path, sys.argv[1:3])
CATALOGUE = json.loads(subprocess.run([sys.argv[3], "games", "--json"], check=True,
                                      capture_output=True).stdout)


def seed(target, name, data):
    folder = corpus / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data if isinstance(data, bytes) else data.encode())


# moves: a game byte (its remainder by the number of games picks one, in the order of
# crates/games), a line of the game's rules as KEY=VALUE words (a vector's replay flags), the
# start position, then the moves of a vector game.
GAMES = [game["name"] for game in CATALOGUE]


def rules_line(words):
    """The `--key value` flags of a vector's header, but `--game`, as KEY=VALUE words."""
    flags = words[2:]
    pairs = zip(flags[::2], flags[1::2])
    return " ".join(f"{key[2:]}={value}" for key, value in pairs if key != "--game")


def vector_seeds(path, game_name):
    game = None
    for line in path.read_text().splitlines():
        if line.startswith("game "):
            words = line.split()
            game = {"rules": rules_line(words), "lines": []}
            number = words[1]
        elif game is not None and line and not line.startswith("#"):
            if line.startswith("result") or line == "end" or len(game["lines"]) == 40:
                text = "\n".join([game["rules"]] + game["lines"])
                seed("moves", f"{game_name}-{number}",
                     bytes([GAMES.index(game_name)]) + text.encode())
                game = None
            else:
                # The start position whole, then only the move of each "move position" line.
                game["lines"].append(line.split()[0] if game["lines"] else line)


vector_seeds(root / "crates/ghast/tests/data/replay-vectors.txt", "ghast")
vector_seeds(root / "crates/ghodak/tests/data/replay-vectors.txt", "ghodak")
vector_seeds(root / "crates/ghast/tests/data/fakerghast-replay-vectors.txt", "fakerghast")
vector_seeds(root / "crates/vastuz/tests/data/vastuz-replay.txt", "vastuz")
vector_seeds(root / "crates/qast/tests/data/qast-replay.txt", "qast")
vector_seeds(root / "crates/ghostchess/tests/data/ghostchess-replay.txt", "ghostchess")
# Pig to 20: it has no position strings, so its position line is ignored.
seed("moves", "pig", bytes([GAMES.index("pig")]) + b"target=20\n-\nroll\n4\nroll\n3\nhold\nroll\n1\nroll\n6\nroll\n6\nhold")

seed("rules", "ghast", "size=4\nwin-margin=5\nvetoes=1,2\nkomi=0.5\nmax_turns=40\n")
seed("rules", "others", "size=9\nkomi=7.5\nmax_moves=100\nfakerghast=1\nfakes=1,1\ntarget=20\npie=0\nside=21\nblack_gold=0\nmax_rounds=30\n")
seed("rules", "tables", "tile={ couplers = [2, 3], ranged = 0, receiver = 3 }\nfaces=[1]\n")

for config in (root / "configs").glob("*.toml"):
    seed("run_config", config.name, config.read_bytes())

for settings in sorted((root / "models").glob("*/bot.toml")):
    seed("bot_settings", settings.parent.name, settings.read_bytes())
for bot in sorted(path.parent for path in (root / "models").glob("*/model.json")):
    sidecar = (bot / "model.json").read_bytes()
    seed("checkpoint", bot.name,
         struct.pack("<I", len(sidecar)) + sidecar + (bot / "model.safetensors").read_bytes())
    architecture = json.dumps(json.loads(sidecar)["architecture"]).encode()
    seed("onnx_export", bot.name,
         struct.pack("<I", len(architecture)) + architecture
         + (bot / "model.safetensors").read_bytes())

for shard in sorted((root / "fuzz/seed-run/shards").glob("shard-*.bin"))[:3]:
    seed("shard", shard.name, shard.read_bytes())

# gtp and http: a game byte (its remainder by the number of games that speak GTP, or that have
# a page, picks one of them, in the order of crates/games), then the commands or the request.
GAMES_WITH_GTP = [game["name"] for game in CATALOGUE if "gtp" in game["capabilities"]]
GAMES_WITH_A_PAGE = [game["name"] for game in CATALOGUE if "page" in game["capabilities"]]
seed("gtp", "ghast-game", bytes([GAMES_WITH_GTP.index("ghast")]) + b"boardsize 4\nkomi 0.5\nplay b d4:2\ngenmove w\nshowboard\n"
     b"ghast-position\nundo\nghast-analyze 8\nfinal_score\nlist_commands\nquit\n")
seed("gtp", "ghast-position",
     bytes([GAMES_WITH_GTP.index("ghast")]) + b"ghast-set_position 4/5/6/7/6/5/4 o 1\nghast-set_visits 4\ngenmove b\n")
seed("gtp", "ghodak-game", bytes([GAMES_WITH_GTP.index("ghodak")]) + b"boardsize 9\nkomi 7.5\nplay b e5\ngenmove w\nshowboard\n"
     b"undo\nfinal_score\nlist_commands\n")
for selector, name in enumerate(GAMES_WITH_GTP):
    seed("gtp", f"{name}-bot", bytes([selector]) + b"list_commands\ngenmove b\ngenmove w\n"
         b"showboard\nundo\nfinal_score\nclear_board\nquit\n")
for selector, name in enumerate(GAMES_WITH_A_PAGE):
    seed("http", f"{name}-state", bytes([selector]) + b"GET\n/api/state\n\n")
    seed("http", f"{name}-bot", bytes([selector]) + b"POST\n/api/bot\n\n")
    seed("http", f"{name}-analyse", bytes([selector]) + b'POST\n/api/analyse\n\n{"visits": 8}')
seed("http", "ghast-play", bytes([GAMES_WITH_A_PAGE.index("ghast")]) + b'POST\n/api/play\n\n{"move": "a4:1"}')
seed("http", "ghast-new", bytes([GAMES_WITH_A_PAGE.index("ghast")]) + b'POST\n/api/new?x=1\n\n{"human": "blue", "visits": 4, "size": 3}')
seed("http", "ghodak-play", bytes([GAMES_WITH_A_PAGE.index("ghodak")]) + b'POST\n/api/play\n\n{"move": "e5"}')

# analysis: query lines as KataGo's tools send them, good and bad.
seed("analysis", "katago", '{"id":"foo","initialStones":[["B","C3"]],"moves":[["W","E5"],["B","D4"]],'
     '"rules":"chinese","komi":7.5,"boardXSize":9,"boardYSize":9,"analyzeTurns":[0,1,2],'
     '"includePolicy":true,"includeOwnership":true,"includePVVisits":true,"maxVisits":20}\n'
     '{"id":"t","action":"terminate","terminateId":"foo","turnNumbers":[1]}\n')
seed("analysis", "games", '{"id":"g","moves":[["orange","c2:3"]],"priority":3,'
     '"avoidMoves":[{"player":"blue","moves":["d1:3"],"untilDepth":2}],"reportDuringSearchEvery":0.01}\n'
     '{"id":"p","moves":[["first","roll"],["chance","4"]],"rules":{"target":20}}\n'
     '{"id":"q","action":"query_version"}\n{bad\n')


# sgf: Go records as other programs write them: handicap, variations, FF[3] passes, escapes.
seed("sgf", "handicap", "(;FF[4]GM[1]SZ[9]KM[0.5]HA[2]AB[cg][gc]PB[a \\] b]C[x\\\ny]\n;W[ee];B[tt]\n(;W[ff];B[])(;W[dd]))\n")
seed("sgf", "rectangle", "(;GM[1]FF[3]SZ[13]AddBlack[cc:dd]PL[B];B[ee];B[gg];W[ff])")
