#!/usr/bin/env bash
# Fuzzes every parser that takes outside input (fuzz/fuzz_targets/) with cargo-fuzz on the
# nightly toolchain, each target for SECONDS (default 600), all targets unless some are named:
#   scripts/fuzz.sh              # every target, 10 minutes each
#   scripts/fuzz.sh 60 gtp http  # two targets, a minute each
# Seeds come from the repository (the replay vectors, configs/, the shipped bot, a shard of a
# short tiny run). A crash stops its target and leaves the input in fuzz/artifacts/TARGET/;
# turn each into a regression test. Set FUZZ_SANITIZER=none to fuzz without AddressSanitizer.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-600}"
shift || true
all=(moves rules gtp run_config shard checkpoint bot_settings http analysis sgf onnx_export)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")

"$root/scripts/setup.sh"
source "$root/scripts/env.sh"
if ! rustup toolchain list | grep -q '^nightly'; then
    echo "fuzz: needs the nightly toolchain: rustup toolchain install nightly" >&2
    exit 1
fi
command -v cargo-fuzz >/dev/null || cargo install --locked cargo-fuzz
cd "$root/fuzz"
sanitizer="${FUZZ_SANITIZER:-address}"
# libtorch is not instrumented: leaks and new/delete pairs inside it are not ours to judge.
export ASAN_OPTIONS="${ASAN_OPTIONS:-alloc_dealloc_mismatch=0}"
cargo +nightly fuzz build --sanitizer "$sanitizer"

# The binary: a tiny run's shard seeds the shard target, and `ghast games --json` lists the
# games for the seeds.
cargo build --quiet --release --manifest-path "$root/Cargo.toml" --bin ghast
seed_run="$root/fuzz/seed-run"
if ! ls "$seed_run/shards"/shard-*.bin >/dev/null 2>&1; then
    rm -rf "$seed_run"
    "$root/target/release/ghast" train --config "$root/configs/tiny.toml" --run "$seed_run" \
        --generations 1 >/dev/null 2>&1
fi
python3 "$root/fuzz/seeds.py" "$root" "$root/fuzz/corpus" "$root/target/release/ghast"

for target in "${targets[@]}"; do
    log="$root/fuzz/logs/$target.log"
    mkdir -p "$(dirname "$log")" "$root/fuzz/corpus/$target"
    echo "fuzz: $target for $seconds s" >&2
    status=0
    cargo +nightly fuzz run --sanitizer "$sanitizer" "$target" "$root/fuzz/corpus/$target" -- \
        -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=4096 -detect_leaks=0 >"$log" 2>&1 || status=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    took=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | grep -o 'in [0-9]*' | grep -o '[0-9]*' || echo "?")
    if [ "$status" -eq 0 ]; then
        echo "$target: $runs runs in $took s, no crash"
    else
        echo "$target: CRASHED after $runs runs (exit $status); see $log and fuzz/artifacts/$target/"
        exit 1
    fi
done
