#!/usr/bin/env bash
# `npm-install.sh WHY FOLDER PACKAGE@VERSION`: installs an npm package into FOLDER/node_modules
# unless that version is there already. Without npm, it first installs Debian's Node.js and npm as
# apt-install.sh installs any system package (as root or through passwordless sudo; otherwise
# it says what to install and exits 1). The set-up scripts share it so that every Node package
# is installed, or refused, the same way.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
why="$1"
folder="$2"
package="$3"
manifest="$folder/node_modules/${package%@*}/package.json"
if [[ -f "$manifest" ]] && grep -q "\"version\": \"${package##*@}\"" "$manifest"; then
    exit 0
fi
if ! command -v npm >/dev/null; then
    echo "npm-install.sh: no npm; installing Debian's Node.js and npm for $why" >&2
    "$root/scripts/apt-install.sh" "$why (npm, to install $package)" nodejs npm
fi
npm install --prefix "$folder" --no-audit --no-fund --no-save "$package"
