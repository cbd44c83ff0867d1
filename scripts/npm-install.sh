#!/usr/bin/env bash
# `npm-install.sh WHY FOLDER PACKAGE@VERSION`: installs an npm package into FOLDER/node_modules
# unless it is there already; without npm, says which package WHY needs and exits 1. The
# set-up scripts share it so that every Node package is installed, or refused, the same way.
set -euo pipefail
why="$1"
folder="$2"
package="$3"
[[ -d "$folder/node_modules/${package%@*}" ]] && exit 0
if ! command -v npm >/dev/null; then
    echo "npm-install.sh: $why needs npm to install $package;" \
        "install Node.js and npm (Debian: apt-get install npm) and run the tests again" >&2
    exit 1
fi
npm install --prefix "$folder" --no-audit --no-fund --no-save "$package"
