#!/usr/bin/env bash
# Installs what the browser test (tests/serve_browser.rs) needs: Debian's Chromium and
# playwright-core, the browser driver without its bundled browsers (the machine reaches only
# package registries, so Playwright's own download cannot work). Safe to run again: each step
# is skipped when its result is already there.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

"$root/scripts/apt-install.sh" "the browser test (tests/serve_browser.rs)" chromium

# 1.61 is the newest playwright-core that runs on Debian 12's Node.js 18 (later ones need 20).
"$root/scripts/npm-install.sh" "the browser test (tests/serve_browser.rs)" "$root/tests/browser" playwright-core@1.61.1
