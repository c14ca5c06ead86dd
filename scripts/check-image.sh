#!/usr/bin/env bash
# Builds greenfix's image and runs it as docs/self-hosting-and-docker.md says:
#   1. first run, no configuration: the setup page on port 3000, /healthz {"status":"setup"}, the
#      health check healthy, and the env file path on the volume;
#   2. `serve` with credentials but without the sandbox flags: exit 2 and one line, no stack trace;
#      with them: running, /healthz ok;
#   3. the CLI against a mounted repository owned by another uid than the image's (10001), run with
#      --user "$(id -u):$(id -g)" as documented, with the scripted model: a verified commit.
# Needs podman (default) or docker (CONTAINER=docker) and curl; not part of `npm test` (CI has no
# container engine). Usage: scripts/check-image.sh [image tag]   (BUILD=0 skips the build)
set -euo pipefail
cd "$(dirname "$0")/.."
C=${CONTAINER:-podman}
IMAGE=${1:-greenfix:check}
PORT=${PORT:-38117}
if [ "$C" = podman ]; then UNMASK="--security-opt unmask=ALL"; else UNMASK="--security-opt systempaths=unconfined"; fi
FLAGS="--security-opt seccomp=unconfined --security-opt apparmor=unconfined $UNMASK"
work=$(mktemp -d)
name=greenfix-check-$$
cleanup() {
  $C rm -f -v "$name" >/dev/null 2>&1 || true
  $C volume rm -f "$name" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "check-image: FAIL: $*" >&2; exit 1; }

# podman's default OCI image format drops HEALTHCHECK: build in docker format.
FORMAT=""
[ "$C" != podman ] || FORMAT="--format docker"
# shellcheck disable=SC2086
[ "${BUILD:-1}" = 0 ] || $C build --pull=never $FORMAT -t "$IMAGE" .

echo "check-image: 1. first run without configuration"
# shellcheck disable=SC2086
$C run -d --name "$name" -p "127.0.0.1:$PORT:3000" -v "$name:/var/lib/greenfix" $FLAGS "$IMAGE" >/dev/null
for _ in $(seq 1 60); do curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break; sleep 0.5; done
health=$(curl -fsS "http://127.0.0.1:$PORT/healthz") || fail "no /healthz: $($C logs "$name" 2>&1 | tail -5)"
[ "$health" = '{"status":"setup"}' ] || fail "/healthz answered $health"
# (read whole, then searched: `curl | grep -q` fails under pipefail when grep stops reading early)
page=$(curl -fsS "http://127.0.0.1:$PORT/probot") && [[ $page == *'Register GitHub App'* ]] || fail "no setup page"
metrics=$(curl -fsS "http://127.0.0.1:$PORT/metrics") && [[ $metrics == *greenfix_webhooks_total* ]] || fail "no /metrics"
[[ $($C logs "$name" 2>&1) == *'written to /var/lib/greenfix/.env'* ]] || fail "the env file is not on the volume: $($C logs "$name" 2>&1 | tail -3)"
# The Dockerfile's HEALTHCHECK command, run in the container (an OCI-format image has no health check to run).
hc=$(node -e 'const m = /^\s*CMD (\[.*\])$/m.exec(require("fs").readFileSync("Dockerfile", "utf8").split("HEALTHCHECK")[1]); console.log(JSON.parse(m[1])[2])')
$C exec "$name" node -e "$hc" || fail "health check unhealthy in setup mode"
if [ "$C" = podman ] && [ "$($C inspect --format '{{.Config.Healthcheck}}' "$name")" != "<nil>" ]; then $C healthcheck run "$name" || fail "health check unhealthy in setup mode"; fi
# The CMD's node flags (the CLI's shebang's, as npm start has them) reach the running server.
procs=$($C exec "$name" sh -c 'for f in /proc/[0-9]*/cmdline; do tr "\\0" " " < "$f"; echo; done')
[[ $procs == *'node --v8-pool-size=1 dist/src/cli/main.js serve'* ]] || fail "the server does not run with the CMD's node flags: $procs"
$C rm -f -v "$name" >/dev/null

echo "check-image: 2. serve without the sandbox flags"
key=$(openssl genrsa 2048 2>/dev/null | awk '{printf "%s\\n", $0}')
set +e
# (--no-healthcheck: podman without systemd prints its own errors about health timers)
out=$($C run --rm --no-healthcheck -e APP_ID=1 -e PRIVATE_KEY="$key" -e WEBHOOK_SECRET=s -e OPENAI_API_KEY=sk-check "$IMAGE" 2>&1)
code=$?
set -e
[ "$code" = 2 ] || fail "serve without the flags exited $code, not 2: $out"
[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "more than one line: $out"
case "$out" in *"    at "*) fail "a stack trace: $out" ;; esac
echo "  $out"

# As root here, the repository belongs to uid 1000 (a typical desktop user), as it would on a laptop.
if [ "$(id -u)" = 0 ]; then OWNER=${OWNER:-1000:1000}; else OWNER=${OWNER:-$(id -u):$(id -g)}; fi
echo "check-image: 2b. serve with the sandbox flags: running, healthy"
# shellcheck disable=SC2086
$C run -d --name "$name" -p "127.0.0.1:$PORT:3000" -e APP_ID=1 -e PRIVATE_KEY="$key" -e WEBHOOK_SECRET=s -e OPENAI_API_KEY=sk-check $FLAGS "$IMAGE" >/dev/null
for _ in $(seq 1 60); do curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break; sleep 0.5; done
health=$(curl -fsS "http://127.0.0.1:$PORT/healthz") || fail "serve with the flags: no /healthz: $($C logs "$name" 2>&1 | tail -5)"
[ "$health" = '{"status":"ok"}' ] || fail "serve with the flags: /healthz answered $health"
[[ $($C logs "$name" 2>&1) == *'greenfix is running'* ]] || fail "serve with the flags: not running"
$C rm -f -v "$name" >/dev/null

echo "check-image: 3. the CLI against a mounted repository owned by $OWNER, not the image's 10001"
repo=$work/repo
mkdir -p "$repo"
git -C "$repo" init -q -b main
printf 'add() { echo $(( $1 - $2 )); }\n' > "$repo/lib.sh"
printf '#!/bin/bash\nset -e\n. ./lib.sh\n[ "$(add 2 3)" = 5 ]\necho ok\n' > "$repo/test.sh"
git -C "$repo" add -A && git -C "$repo" -c user.name=t -c user.email=t@example.com commit -qm init
[ "$(id -u)" != 0 ] || chown -R "$OWNER" "$work"
cat > "$repo/.git/script.json" <<'JSON'
{"turns": [
  {"tool_calls": [{"name": "edit_file", "arguments": {"path": "lib.sh", "old": "$1 - $2", "new": "$1 + $2"}}]},
  {"tool_calls": [{"name": "run_tests", "arguments": {}}]},
  {"tool_calls": [{"name": "finish", "arguments": {"summary": "add adds"}}]}
]}
JSON
# shellcheck disable=SC2086
$C run --rm --user "$OWNER" -e HOME=/tmp -e GREENFIX_WORKDIR=/tmp/greenfix -v "$repo:/repo" $FLAGS "$IMAGE" \
  greenfix fix --repo /repo --task "add subtracts" --verify "bash test.sh" --model scripted:/repo/.git/script.json \
  || fail "greenfix fix in the container"
git config --global --get-all safe.directory 2>/dev/null | grep -qxF "$repo" || export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=safe.directory GIT_CONFIG_VALUE_0="$repo"
branch=$(git -C "$repo" for-each-ref --format='%(refname:short)' refs/heads/greenfix/ | head -1)
[ -n "$branch" ] || fail "no greenfix branch in the mounted repository"
[[ $(git -C "$repo" show "$branch:lib.sh") == *'$1 + $2'* ]] || fail "$branch does not hold the fix"
echo "  $branch: $(git -C "$repo" log -1 --format=%s "$branch")"
echo "check-image: all good"
