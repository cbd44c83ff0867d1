#!/usr/bin/env bash
# The CUDA path in one go, on a machine with an NVIDIA GPU and PyTorch 2.11 installed: the
# network's forward rate on CPU and GPU, self-play through the inference server (one batch in
# flight per worker, the design before pipelining, beside the config's two), the same loop on
# the simulated H100 for comparison, and short `ghast train` runs on configs/standard.toml and
# configs/small.toml. Output goes to OUT
# (default: cuda-check/), the tables last on stdout.
#
#   bash scripts/cuda-check.sh [GHAST_BINARY]    # default: target/release/ghast
#
# The binary may come from another machine: libtorch is looked up on LD_LIBRARY_PATH, which
# this script points at the local PyTorch's lib folder.
set -uo pipefail
ghast="$(realpath "${1:-target/release/ghast}")"
out="${OUT:-cuda-check}"
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
    /usr/bin/time -o "$out/time.txt" -f "   [%e s wall, %U user + %S sys CPU-s]" "$@" >"$stdout" 2>"$stderr"
    cat "$out/time.txt"
}

{
    nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm --format=csv
    "$python" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'
    nproc
} 2>&1 | tee "$out/machine.txt"

step "forward rate, ghast size 6 (small, standard nets)" \
    "$out/nn-ghast.json" "$out/nn-ghast.log" \
    "$ghast" bench nn --batch 1,16,64,256,1024 --seconds 2 --json
step "forward rate, ghodak 9x9 (4x32, standard nets)" "$out/nn-ghodak.json" "$out/nn-ghodak.log" \
    "$ghast" bench nn --game ghodak --size 9 --net 4x32,standard --batch 1,64,256,1024 --seconds 2 --json
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
step "analysis of 256 ghodak positions, one at a time and 256 in flight, on the GPU" \
    "$out/analysis-ghodak.json" "$out/analysis-ghodak.log" \
    "$ghast" bench analysis --bot models/ghodak9 --device cuda --visits 200 --queries 256 \
    --positions-in-flight 256 --json
step "ghast train --config configs/standard.toml --minutes 2.5" /dev/null "$out/train-standard.log" \
    "$ghast" train --config configs/standard.toml --run /tmp/cuda-standard --minutes 2.5
step "ghast train --config configs/small.toml --minutes 1.5" /dev/null "$out/train-small.log" \
    "$ghast" train --config configs/small.toml --run /tmp/cuda-small --minutes 1.5
nvidia-smi --query-gpu=memory.used --format=csv >>"$out/machine.txt" 2>&1

echo "== results"
for f in "$out"/*.json; do echo "-- $f"; cat "$f"; echo; done
for f in "$out"/train-*.log; do echo "-- $f"; grep -E "gen |device|server|generation|error|Error" "$f" | tail -8; done
