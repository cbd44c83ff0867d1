#!/usr/bin/env bash
# A soak of `ghast train`: runs CONFIG for MINUTES into RUN and, every minute, records the
# process's memory (resident and peak), the files in the run folder (shards and checkpoints)
# and the positions self-play has written, to RUN/soak.csv; then prints a summary.
#   scripts/soak.sh runs/soak 60                      # configs/small.toml for an hour
#   scripts/soak.sh runs/soak 60 configs/tiny.toml
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
run="${1:?usage: scripts/soak.sh RUN MINUTES [CONFIG]}"
minutes="${2:?usage: scripts/soak.sh RUN MINUTES [CONFIG]}"
config="${3:-$root/configs/small.toml}"

"$root/scripts/setup.sh"
source "$root/scripts/env.sh"
cargo build --quiet --release --manifest-path "$root/Cargo.toml" --bin ghast
"$root/target/release/ghast" train --config "$config" --run "$run" --minutes "$minutes" \
    >"$run.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
csv="$run/soak.csv"
started=$(date +%s)
sample() {
    local status rss peak files shards models positions generation
    status=$(cat "/proc/$pid/status" 2>/dev/null) || return 1
    rss=$(awk '/^VmRSS/ {print int($2 / 1024)}' <<<"$status")
    peak=$(awk '/^VmHWM/ {print int($2 / 1024)}' <<<"$status")
    files=$(find "$run" -type f | wc -l)
    shards=$(find "$run/shards" -name 'shard-*.bin' | wc -l)
    models=$(find "$run/models" -name 'gen-*.safetensors' | wc -l)
    positions=$(find "$run/shards" -name 'shard-*.bin' -printf '%f\n' |
        sed -E 's/.*-p([0-9]+)\.bin/\1/' | awk '{s += $1} END {print s + 0}')
    generation=$(cat "$run/models/latest" 2>/dev/null || echo 0)
    echo "$(( $(date +%s) - started )),$rss,$peak,$files,$shards,$models,$positions,$generation"
}
sleep 5
mkdir -p "$run"
echo "seconds,rss_mb,peak_rss_mb,files,shards,checkpoints,positions,generation" >"$csv"
while kill -0 $pid 2>/dev/null; do
    line=$(sample) && echo "$line" >>"$csv" && echo "soak: $line" >&2
    sleep 60
done
wait $pid
trap - EXIT
python3 - "$csv" <<'PY'
import csv, sys
rows = [{k: float(v) for k, v in row.items()} for row in csv.DictReader(open(sys.argv[1]))]
warm = [r for r in rows if r["seconds"] >= 600] or rows
half = len(rows) // 2
def rate(a, b):
    return (b["positions"] - a["positions"]) / max(b["seconds"] - a["seconds"], 1) * 60
print(f"soak: {rows[-1]['seconds'] / 60:.0f} minutes, generation {rows[-1]['generation']:.0f}")
print(f"resident memory after warm-up (10 min): {min(r['rss_mb'] for r in warm):.0f}"
      f"-{max(r['rss_mb'] for r in warm):.0f} MB; peak {rows[-1]['peak_rss_mb']:.0f} MB")
print(f"files in the run folder: at most {max(r['files'] for r in rows):.0f} "
      f"(shards at most {max(r['shards'] for r in rows):.0f}, "
      f"checkpoints at most {max(r['checkpoints'] for r in rows):.0f}), "
      f"{rows[-1]['files']:.0f} at the end")
if half > 1:
    print(f"positions per minute: first half {rate(rows[0], rows[half]):.0f}, "
          f"second half {rate(rows[half], rows[-1]):.0f}")
PY
