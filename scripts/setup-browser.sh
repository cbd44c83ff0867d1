#!/usr/bin/env bash
# Installs what the browser test (tests/serve_browser.rs) needs: Debian's Chromium and
# playwright-core, the browser driver without its bundled browsers (the machine reaches only
# package registries, so Playwright's own download cannot work). Safe to run again: each step
# is skipped when its result is already there.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if [[ ! -x /usr/bin/chromium ]]; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium
fi

browser="$root/tests/browser"
if [[ ! -d "$browser/node_modules/playwright-core" ]]; then
    npm install --prefix "$browser" --no-audit --no-fund --no-save playwright-core@1.65.1
fi
