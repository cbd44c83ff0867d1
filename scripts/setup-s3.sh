#!/usr/bin/env bash
# Installs Garage, the S3-compatible object store that the many-machine tests start on
# loopback (crates/loopback-s3), into .tools/garage: built from crates.io with
# `cargo install --locked`. Its bundled libsodium builds with autotools, which need `make` and
# `file`; a bare Debian lacks both, so they are installed from Debian first. Minutes the first
# time; a second run checks the version and returns at once.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="2.5.0"
prefix="$root/.tools/garage"
if "$prefix/bin/garage" --version 2>/dev/null | grep -qF "$version"; then
    exit 0
fi
"$root/scripts/apt-install.sh" "building Garage, the S3 server of the tests" make file
echo "setup: building Garage $version into $prefix (the S3 server of the tests; once)" >&2
cargo install --quiet --force --locked "garage@$version" --no-default-features --features bundled-libs,lmdb \
    --root "$prefix" --target-dir "$root/.tools/garage-build"
rm -rf "$root/.tools/garage-build"
