#!/usr/bin/env bash
# `npm test`: install what the suites need, install the workspace, run every suite.
set -euo pipefail
cd "$(dirname "$0")/.."
# When it started, for the closing table of phases (scripts/test.mjs).
export TEST_STARTED_AT="${TEST_STARTED_AT:-$(date +%s%3N)}"
bash scripts/ensure-tools.sh
pnpm install --frozen-lockfile
exec node scripts/test.mjs
