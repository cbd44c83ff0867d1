#!/usr/bin/env bash
# Installs the Go programs the Ghodak tests play against and that `ghast arena` can use as
# yardsticks: Debian's GNU Go and Pachi (both land in /usr/games). Safe to run again.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/apt-install.sh" "the Ghodak matches against Go programs (tests/gnugo_cli.rs)" gnugo pachi
