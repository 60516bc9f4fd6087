#!/usr/bin/env bash
# Set up the machine, then run every test: unit tests and the lit suite under
# test/ (driven from cargo test). Extra arguments go to cargo test, e.g.
#   bash scripts/test.sh -p apipe-passes
set -euo pipefail

cd "$(dirname "$0")/.."

bash scripts/setup.sh

if ! command -v cargo >/dev/null 2>&1 && [[ -x "${HOME:-}/.cargo/bin/cargo" ]]; then
  export PATH="$HOME/.cargo/bin:$PATH"
fi

echo "test: cargo test --workspace $*"
exec cargo test --workspace "$@"
