#!/usr/bin/env bash
# The ghast that links no libtorch (`cargo build --release --no-default-features`), checked as
# a user meets it: built from this tree, with no libtorch on its library path, it plays whole
# GTP games of the shipped Go bot against GNU Go (arena and engine both this binary), answers
# an analysis query, and says of a training command that it needs the libtorch build.
# scripts/test.sh runs it after the tests; it needs GNU Go (scripts/setup-engines.sh).
#
# The build uses the tests' profile and target folder, so it recompiles only the crates whose
# features differ (nn, play, arena, serve and the binary), and the binary is copied out of
# the way of the libtorch build's before the next build replaces it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
profile="${GHAST_LIGHT_PROFILE:-checked}"
target="${CARGO_TARGET_DIR:-$root/target}"
# Lints of the code only this build compiles (its `cfg(not(feature = "torch"))` side).
cargo clippy --quiet --profile "$profile" --no-default-features \
    -p ghast-cli -p nn -p play -p arena -p serve --lib --bins -- -D warnings
cargo build --quiet --profile "$profile" --no-default-features --bin ghast
mkdir -p "$root/target/light"
light="$root/target/light/ghast"
cp "$target/$profile/ghast" "$light"

fail() {
    echo "light-check: $*" >&2
    exit 1
}

if ldd "$light" | grep -i torch; then
    fail "$light links libtorch"
fi

gnugo="${GNUGO:-/usr/games/gnugo}"
[ -x "$gnugo" ] || gnugo="$(command -v gnugo)" || fail "no GNU Go (scripts/setup-engines.sh installs it)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# No libtorch anywhere the loader looks: env.sh's LD_LIBRARY_PATH is dropped.
run_light() { env -u LD_LIBRARY_PATH "$light" "$@"; }

# Two whole games, one with each colour: this binary is the arena and, through GTP, the bot.
run_light arena "gtp:$light gtp --bot models/ghodak9 --visits 16" \
    "gtp:$gnugo --mode gtp --chinese-rules --capture-all-dead --level 1" \
    --game ghodak --size 9 --komi 7.5 --games 2 --threads 1 --openings 0 \
    --out "$work/games" > "$work/arena.txt"
grep -q "2 games" "$work/arena.txt" || fail "the arena did not report 2 games: $(cat "$work/arena.txt")"
ls "$work/games"/*.sgf > /dev/null || fail "no SGF records in $work/games"
for record in "$work/games"/*.sgf; do
    grep -q 'RE\[' "$record" || fail "$record has no result"
done

# An analysis query of the analysis engine's protocol (KataGo's), answered on tract.
echo '{"id":"q","moves":[["B","E5"],["W","C3"]],"rules":"chinese","komi":7.5,"boardXSize":9,"boardYSize":9,"maxVisits":32,"includeOwnership":true}' |
    run_light analysis --bot models/ghodak9 > "$work/analysis.json" 2> "$work/analysis.log"
grep -q '"id":"q"' "$work/analysis.json" || fail "no answer to the query: $(cat "$work/analysis.log")"
grep -q '"moveInfos"' "$work/analysis.json" || fail "the answer has no moveInfos"
grep -q 'onnx:cpu' "$work/analysis.log" || fail "the engine did not say it runs on tract (onnx:cpu)"

# A training command refuses in one line, with a non-zero exit.
if run_light train --minutes 1 > "$work/train.txt" 2>&1; then
    fail "ghast train ran in the build without libtorch"
fi
[ "$(wc -l < "$work/train.txt")" -eq 1 ] || fail "the refusal is not one line: $(cat "$work/train.txt")"
grep -q 'needs the libtorch build' "$work/train.txt" || fail "the refusal does not say why"

echo "light-check: $(du -h "$light" | cut -f1) binary without libtorch: 2 GTP games against GNU Go, an analysis query, a refused training command"
