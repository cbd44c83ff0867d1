#!/usr/bin/env bash
# `apt-install.sh WHY PACKAGE...`: installs the Debian packages not yet installed, as root or
# through passwordless sudo; otherwise says which packages WHY needs and exits 1. The set-up
# scripts share it so that every system package is installed, or refused, the same way.
set -euo pipefail
why="$1"
shift
missing=()
for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" ||
        missing+=("$package")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0
if [[ "$(id -u)" == 0 ]]; then
    run=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    run=(sudo)
else
    echo "apt-install.sh: $why needs the Debian packages ${missing[*]};" \
        "install them as root (apt-get install ${missing[*]}) and run the tests again" >&2
    exit 1
fi
echo "apt-install.sh: installing ${missing[*]} for $why" >&2
"${run[@]}" apt-get update -qq
"${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
