#!/usr/bin/env bash
# `npm test`: install what the suites need, install the workspace, run every suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-tools.sh
pnpm install --frozen-lockfile
exec node scripts/test.mjs
