#!/usr/bin/env bash
# Sets up (once), then runs the whole test suite: formatting, lints and every test.
# Long checks are #[ignore]d; run them with `scripts/test.sh -- --ignored`.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/setup-browser.sh"
"$root/scripts/setup-engines.sh"
"$root/scripts/setup-s3.sh"
source "$root/scripts/env.sh"
cd "$root"
cargo fmt --all --check
# The `checked` profile is release with debug assertions on (Cargo.toml); clippy shares its
# build scripts.
cargo clippy --quiet --profile checked --workspace --all-targets -- -D warnings
cargo test --profile checked --workspace "$@"
# The ghast without libtorch, built and played as a user meets it.
scripts/light-check.sh
