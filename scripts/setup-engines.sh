#!/usr/bin/env bash
# Installs the Go program the Ghodak tests play against and that `ghast arena` uses as a
# yardstick: Debian's GNU Go (in /usr/games). Not Debian's `pachi`: that package is a platform
# game ("Pachi el marciano"), not the Go engine Pachi, which Debian does not ship. And
# Sabaki's GTP library (@sabaki/gtp, the controller the Sabaki GUI drives engines with), with
# which a test drives `ghast gtp` as a GUI would. Safe to run again: each step is skipped when its result is there.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/apt-install.sh" "the Ghodak matches against GNU Go (tests/gnugo_cli.rs)" gnugo

"$root/scripts/npm-install.sh" "the GTP tool test (tests/gnugo_cli.rs)" "$root/tests/gtp-tool" @sabaki/gtp@3.0.0
