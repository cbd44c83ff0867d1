#!/usr/bin/env bash
# Installs what the browser test (tests/serve_browser.rs) needs: Debian's Chromium and
# playwright-core, the browser driver without its bundled browsers (the machine reaches only
# package registries, so Playwright's own download cannot work). Safe to run again: each step
# is skipped when its result is already there.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

"$root/scripts/apt-install.sh" "the browser test (tests/serve_browser.rs)" chromium

browser="$root/tests/browser"
if [[ ! -d "$browser/node_modules/playwright-core" ]]; then
    if ! command -v npm >/dev/null; then
        echo "setup-browser.sh: the browser test needs npm to install playwright-core;" \
            "install Node.js and npm (Debian: apt-get install npm) and run the tests again" >&2
        exit 1
    fi
    npm install --prefix "$browser" --no-audit --no-fund --no-save playwright-core@1.65.1
fi
