#!/usr/bin/env bash
# The CUDA path in one go, on a machine with an NVIDIA GPU and PyTorch 2.11 installed. Parts,
# all by default, or those CHECKS names (space separated):
#   nn        the network's forward rate on CPU and GPU
#   selfplay  self-play through the inference server (one batch in flight per worker, the
#             design before pipelining, beside the config's two), and the same loop on the
#             simulated H100 for comparison
#   analysis  `ghast bench analysis` of 256 Go positions on the GPU
#   train     short `ghast train` runs on configs/standard.toml and configs/small.toml
#   bf16      `ghast train` on configs/standard.toml with `[training] precision = "bf16"` for
#             BF16_MINUTES (default 2), then `ghast bench train` on its games: fp32 and bf16
#             steps from the same weights on the same samples, their rates and losses, at the
#             config's batch and net, then at larger ones
#   failure   a CUDA out-of-memory error under a running `ghast train` (another process takes
#             the GPU's free memory): its exit code and its one line, then `--resume`
# Output goes to OUT (default: cuda-check/), the tables last on stdout.
#
#   bash scripts/cuda-check.sh [GHAST_BINARY]    # default: target/release/ghast
#   CHECKS="bf16 failure" bash scripts/cuda-check.sh
#
# The binary may come from another machine: libtorch is looked up on LD_LIBRARY_PATH, which
# this script points at the local PyTorch's lib folder.
set -uo pipefail
ghast="$(realpath "${1:-target/release/ghast}")"
out="${OUT:-cuda-check}"
checks=" ${CHECKS:-nn selfplay analysis train bf16 failure} "
mkdir -p "$out"
python="${PYTHON:-python3}"
torch_lib="$("$python" -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "lib"))')"
export LD_LIBRARY_PATH="$torch_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export GHAST_LOG=info

# step TITLE STDOUT_FILE STDERR_FILE COMMAND...: runs COMMAND, says how long it took.
step() {
    local title="$1" stdout="$2" stderr="$3"
    shift 3
    echo "== $title"
    /usr/bin/time -o "$out/time.txt" -f "   [%e s wall, %U user + %S sys CPU-s, exit %x]" "$@" >"$stdout" 2>"$stderr"
    cat "$out/time.txt"
}

# wanted PART: whether CHECKS names PART.
wanted() { [[ "$checks" == *" $1 "* ]]; }

{
    nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm --format=csv
    "$python" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'
    nproc
} 2>&1 | tee "$out/machine.txt"

if wanted nn; then
    step "forward rate, ghast size 6 (small, standard nets)" \
        "$out/nn-ghast.json" "$out/nn-ghast.log" \
        "$ghast" bench nn --batch 1,16,64,256,1024 --seconds 2 --json
    step "forward rate, ghodak 9x9 (4x32, standard nets)" "$out/nn-ghodak.json" "$out/nn-ghodak.log" \
        "$ghast" bench nn --game ghodak --size 9 --net 4x32,standard --batch 1,64,256,1024 --seconds 2 --json
fi
if wanted selfplay; then
    for workers in 4 12; do
        for batches in 1 2; do
            step "self-play through the server, configs/standard.toml, $workers workers, $batches batch(es) in flight" \
                "$out/selfplay-w$workers-b$batches.json" "$out/selfplay-w$workers-b$batches.log" \
                "$ghast" bench selfplay --config configs/standard.toml --inference server \
                --workers "$workers" --batches-in-flight "$batches" --seconds 15 --json
        done
    done
    step "self-play on the simulated H100, configs/standard.toml, 4 workers" \
        "$out/selfplay-sim-w4.json" "$out/selfplay-sim-w4.log" \
        "$ghast" bench selfplay --config configs/standard.toml --device sim --workers 4 --seconds 15 --json
fi
if wanted analysis; then
    step "analysis of 256 ghodak positions, one at a time and 256 in flight, on the GPU" \
        "$out/analysis-ghodak.json" "$out/analysis-ghodak.log" \
        "$ghast" bench analysis --bot models/ghodak9 --device cuda --visits 200 --queries 256 \
        --positions-in-flight 256 --json
fi
if wanted train; then
    step "ghast train --config configs/standard.toml --minutes 2.5" /dev/null "$out/train-standard.log" \
        "$ghast" train --config configs/standard.toml --run /tmp/cuda-standard --minutes 2.5
    step "ghast train --config configs/small.toml --minutes 1.5" /dev/null "$out/train-small.log" \
        "$ghast" train --config configs/small.toml --run /tmp/cuda-small --minutes 1.5
fi
if wanted bf16; then
    sed 's/^\[training\]$/[training]\nprecision = "bf16"/' configs/standard.toml >"$out/standard-bf16.toml"
    grep -q '^precision = "bf16"' "$out/standard-bf16.toml" || echo "!! no [training] table in configs/standard.toml"
    minutes="${BF16_MINUTES:-2}"
    step "ghast train, configs/standard.toml in bf16, --minutes $minutes" /dev/null "$out/train-bf16.log" \
        "$ghast" train --config "$out/standard-bf16.toml" --run /tmp/cuda-bf16 --minutes "$minutes"
    step "ghast bench train on those games: fp32 then bf16, 600 steps each" \
        "$out/train-precision.json" "$out/train-precision.log" \
        "$ghast" bench train --run /tmp/cuda-bf16 --device cuda --steps 600 --json
    # Where bf16 pays: larger batches, and a larger net.
    for shape in "standard 1024" "standard 4096" "20x256 1024"; do
        set -- $shape
        step "ghast bench train, $1 net, batch $2: fp32 then bf16, 40 steps each" \
            "$out/train-precision-$1-$2.json" "$out/train-precision-$1-$2.log" \
            "$ghast" bench train --run /tmp/cuda-bf16 --device cuda --net "$1" --batch "$2" \
            --steps 40 --json
    done
fi
if wanted failure; then
    echo "== a CUDA out-of-memory error under ghast train (configs/standard.toml)"
    "$ghast" train --config configs/standard.toml --run /tmp/cuda-oom --minutes 2 \
        >/dev/null 2>"$out/oom-train.log" &
    train_pid=$!
    sleep 20
    # Takes every free byte of the GPU, in ever smaller blocks, and holds it.
    "$python" -c '
import time, torch
held, block = [], 1 << 30
while block >= 1 << 16:
    try:
        held.append(torch.empty(block, dtype=torch.uint8, device="cuda"))
    except torch.OutOfMemoryError:
        block //= 2
print("took", sum(t.numel() for t in held) >> 20, "MiB", flush=True)
time.sleep(600)
' >"$out/oom-hog.log" 2>&1 &
    hog_pid=$!
    started=$SECONDS
    wait "$train_pid"
    echo "   exit $? after $((SECONDS - started)) s with the GPU full; $(cat "$out/oom-hog.log")"
    echo "   its last lines:"
    tail -n 3 "$out/oom-train.log" | sed 's/^/   | /'
    kill "$hog_pid" 2>/dev/null
    wait "$hog_pid" 2>/dev/null
    step "ghast train --run /tmp/cuda-oom --resume --minutes 0.5, the GPU free again" \
        /dev/null "$out/oom-resume.log" \
        "$ghast" train --run /tmp/cuda-oom --resume --minutes 0.5
    grep -E "resum|recovered|journal" "$out/oom-resume.log" | head -4 | sed 's/^/   | /'
fi
nvidia-smi --query-gpu=memory.used --format=csv >>"$out/machine.txt" 2>&1

echo "== results"
for f in "$out"/*.json; do
    [ -e "$f" ] || continue
    echo "-- $f"
    cat "$f"
    echo
done
for f in "$out"/train-*.log; do
    [ -e "$f" ] || continue
    echo "-- $f"
    grep -E "gen |device|server|generation|error|Error" "$f" | tail -8
done
