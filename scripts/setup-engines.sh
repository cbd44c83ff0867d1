#!/usr/bin/env bash
# Installs the Go programs the Ghodak tests play against and that `ghast arena` can use as
# yardsticks: Debian's GNU Go and Pachi (both land in /usr/games); and Sabaki's GTP library
# (@sabaki/gtp, the controller the Sabaki GUI drives engines with), with which a test drives
# `ghast gtp` as a GUI would. Safe to run again: each step is skipped when its result is there.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/apt-install.sh" "the Ghodak matches against Go programs (tests/gnugo_cli.rs)" gnugo pachi

driver="$root/tests/gtp-tool"
if [[ ! -d "$driver/node_modules/@sabaki/gtp" ]]; then
    if ! command -v npm >/dev/null; then
        echo "setup-engines.sh: the GTP tool test needs npm to install @sabaki/gtp;" \
            "install Node.js and npm (Debian: apt-get install npm) and run the tests again" >&2
        exit 1
    fi
    npm install --prefix "$driver" --no-audit --no-fund --no-save @sabaki/gtp@3.0.0
fi
