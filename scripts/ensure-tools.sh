#!/usr/bin/env bash
# Installs what the test suites need when missing: pnpm (npm), Chromium, PostgreSQL and SpamAssassin
# (Debian; the e2e scores a campaign message with `spamassassin -L -t`).
set -euo pipefail
if ! command -v pnpm >/dev/null 2>&1; then
  npm install -g pnpm@10.34.9 >/dev/null
fi
need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  need_apt+=(postgresql)
fi
command -v spamassassin >/dev/null 2>&1 || need_apt+=(spamassassin)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ]; then
    echo "Installing ${need_apt[*]} from Debian…"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    echo "Missing ${need_apt[*]}: install them (sudo apt-get install -y ${need_apt[*]}) and run again." >&2
    exit 1
  fi
fi
