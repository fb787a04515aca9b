#!/usr/bin/env bash
# Walks the documentation as a newcomer would: starts a server on a fresh PGlite
# directory, then pastes every ```sh block of the README's "First calls" (and its
# demo data) and of docs/api.md, in order, into one bash, with the token and
# apiKey the server printed. Blocks that run the CLI (npx chat-service) run with
# the server stopped, as the docs say for PGlite. Prints each block's output to
# compare with what the text says; fails when an answer is a 500 or the server
# logs an error. Needs curl and jq, and a build (npm run build).
#   scripts/walk-docs.sh [> walk.txt]        PORT=18080 by default
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/use-node-22.sh

export PORT=${PORT:-18080} DATA_DIR
# The webhook example names example.com, which does not resolve on an offline machine: with the address check
# on, the walk would stop at a 422 `resolvable` there (docs/operations.md#webhook-addresses).
export WEBHOOK_BLOCK_PRIVATE=false
DATA_DIR=$(mktemp -d)
work=$(mktemp -d)
log="$work/server.log"
# The upload examples write these into the current directory: remove them after, unless they were there before.
made=()
for file in invoice.pdf invoice-copy.pdf; do [ -e "$file" ] || made+=("$file"); done
trap 'walk_stop 2>/dev/null; rm -rf "$DATA_DIR" "$work" "${made[@]}"' EXIT

walk_start() {
  node bin/chat-service.js serve >> "$log" 2>&1 &
  SERVER=$!
  for _ in $(seq 100); do curl -s -o /dev/null "127.0.0.1:$PORT/healthz" && return; sleep 0.1; done
  echo "walk-docs: the server did not start; its log:" >&2; cat "$log" >&2; exit 1
}
walk_stop() { kill "$SERVER" && wait "$SERVER"; }

walk_start
# The first account's secrets are printed just after the server starts listening.
for _ in $(seq 100); do grep -q 'legacy apiKey' "$log" && break; sleep 0.1; done
secret() { grep "$1" "$log" | head -n 1 | awk '{print $3}'; }
TOKEN_PRINTED=$(secret 'owner token'); APIKEY_PRINTED=$(secret 'legacy apiKey'); ACCOUNT_PRINTED=$(secret 'account id')

# Each ```sh block, with a marker; README blocks that install, start or test are not part of the walk.
node - README.md docs/api.md > "$work/walk.sh" <<'EOF'
const { readFileSync } = require('node:fs');
for (const file of process.argv.slice(2)) {
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(/^```sh\n([\s\S]*?)^```/gm)) {
    const body = match[1];
    if (/^(npm (install|start|test)|docker compose up)$/m.test(body)) continue;
    const line = text.slice(0, match.index).split('\n').length;
    const cli = /npx chat-service/.test(body);
    console.log(`echo; echo '===== ${file}:${line}${cli ? ' (CLI, server stopped)' : ''}'`);
    console.log(cli ? `walk_stop\n${body}walk_start` : body);
  }
}
EOF
sed -i "s#^export BASE=http://127.0.0.1:8080 TOKEN=cs_… APIKEY=ak_…#export BASE=http://127.0.0.1:$PORT TOKEN=$TOKEN_PRINTED APIKEY=$APIKEY_PRINTED#; s#acUK4FF2AkB-Uk#$ACCOUNT_PRINTED#g" "$work/walk.sh"

# shellcheck disable=SC1091
. "$work/walk.sh" > "$work/output.txt" 2>&1
grep -v '^npm warn' "$work/output.txt"

failed=0
if grep -q '"internal_error"' "$work/output.txt"; then echo "walk-docs: an answer was a 500" >&2; failed=1; fi
if grep -q '"level":50' "$log"; then echo "walk-docs: the server logged errors:" >&2; grep '"level":50' "$log" >&2; failed=1; fi
exit $failed
