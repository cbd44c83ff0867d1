#!/usr/bin/env bash
# Installs the Go programs the Ghodak tests play against and that `ghast arena` can use as
# yardsticks: Debian's GNU Go and Pachi (both land in /usr/games); and Sabaki's GTP library
# (@sabaki/gtp, the controller the Sabaki GUI drives engines with), with which a test drives
# `ghast gtp` as a GUI would. Safe to run again: each step is skipped when its result is there.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/apt-install.sh" "the Ghodak matches against Go programs (tests/gnugo_cli.rs)" gnugo pachi

"$root/scripts/npm-install.sh" "the GTP tool test (tests/gnugo_cli.rs)" "$root/tests/gtp-tool" @sabaki/gtp@3.0.0
