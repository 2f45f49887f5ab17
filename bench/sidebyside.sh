#!/usr/bin/env bash
# The side-by-side harness (README "Performance", "Side by side"): frontdesk built from this
# checkout, PocketBase (pinned) with a bookings collection shaped like ours, and a bare chi
# handler, each a process of its own on a loopback port, driven in turn by wrk over rotated
# rounds at each connection count for one record, a list of 30 and create; prints a markdown
# table of the medians (requests a second, p99, the server's CPU per request, fd/pb) and each
# server's resident memory, then the raw figures as JSON lines. Not run by CI: its figures mean
# something only on an otherwise idle machine.
#
#   bench/sidebyside.sh [--rounds N] [--duration SECONDS] [--conns "16 64"] [--threads N]
#                       [--warmup SECONDS] [--pause SECONDS] [--settle SECONDS]
#                       [--providers N] [--reads N] [--json FILE] [--keep] [--logs]
#
# Every flag has an environment fallback: SIDEBYSIDE_ROUNDS (5), SIDEBYSIDE_DURATION (10),
# SIDEBYSIDE_CONNS ("16 64"), SIDEBYSIDE_THREADS (2), SIDEBYSIDE_WARMUP (2), SIDEBYSIDE_PAUSE
# (1, between runs), SIDEBYSIDE_SETTLE (0, before the memory left is read), SIDEBYSIDE_PROVIDERS
# (50), SIDEBYSIDE_READS (1000). POCKETBASE_VERSION (v0.39.11) pins
# PocketBase, built once into ${XDG_CACHE_HOME:-~/.cache}/frontdesk-bench. --keep leaves the
# temporary directory (data, scripts, logs) in place; --logs keeps the servers' logs there
# (frontdesk writes one access line a request: by default the logs go to /dev/null).
# Needs Linux (/proc), Go and wrk; as root it installs Debian's wrk when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds="${SIDEBYSIDE_ROUNDS:-5}"
duration="${SIDEBYSIDE_DURATION:-10}"
conns="${SIDEBYSIDE_CONNS:-16 64}"
threads="${SIDEBYSIDE_THREADS:-2}"
warmup="${SIDEBYSIDE_WARMUP:-2}"
pause="${SIDEBYSIDE_PAUSE:-1}"
settle="${SIDEBYSIDE_SETTLE:-0}"
providers="${SIDEBYSIDE_PROVIDERS:-50}"
reads="${SIDEBYSIDE_READS:-1000}"
pb_version="${POCKETBASE_VERSION:-v0.39.11}"
json=""
keep=""
logs=""

usage() { sed -n '10,21p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
	case "$1" in
	--rounds) rounds="$2"; shift 2 ;;
	--duration) duration="$2"; shift 2 ;;
	--conns) conns="$2"; shift 2 ;;
	--threads) threads="$2"; shift 2 ;;
	--warmup) warmup="$2"; shift 2 ;;
	--pause) pause="$2"; shift 2 ;;
	--settle) settle="$2"; shift 2 ;;
	--providers) providers="$2"; shift 2 ;;
	--reads) reads="$2"; shift 2 ;;
	--json) json="$2"; shift 2 ;;
	--keep) keep=1; shift ;;
	--logs) logs=1; shift ;;
	-h | --help) usage ;;
	*) echo "sidebyside: unknown argument $1" >&2; usage ;;
	esac
done

say() { printf '==> %s\n' "$*" >&2; }

[ -r /proc/self/stat ] || { echo "sidebyside: needs Linux's /proc" >&2; exit 1; }
if ! command -v wrk >/dev/null 2>&1; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		say "installing wrk"
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
	else
		echo "sidebyside: wrk is missing (Debian: apt-get install wrk)" >&2
		exit 1
	fi
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/sidebyside.XXXXXX")"
pids=()
cleanup() {
	local code=$?
	trap - EXIT INT TERM
	for pid in "${pids[@]}"; do
		kill -TERM "$pid" 2>/dev/null || true
	done
	for pid in "${pids[@]}"; do
		# Each server gets 10 s to stop cleanly, then it is killed.
		for _ in $(seq 100); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	if [ -n "$keep" ]; then
		say "kept $tmp"
	else
		rm -rf "$tmp"
	fi
	exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log() { if [ -n "$logs" ]; then echo "$tmp/$1.log"; else echo /dev/null; fi; }

say "building frontdesk (the release build), the chi baseline and the driver"
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$tmp/frontdesk" .
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$tmp/chibase" ./bench/chibase
go build -o "$tmp/sidebyside" ./bench/sidebyside
pb_dir="${XDG_CACHE_HOME:-$HOME/.cache}/frontdesk-bench/pocketbase-$pb_version"
if [ ! -x "$pb_dir/base" ]; then
	say "building PocketBase $pb_version from the Go module proxy into $pb_dir"
	mkdir -p "$pb_dir"
	CGO_ENABLED=0 GOBIN="$pb_dir" go install -ldflags "-s -w" \
		"github.com/pocketbase/pocketbase/examples/base@$pb_version"
fi

mapfile -t ports < <("$tmp/sidebyside" ports 3)
fd_port="${ports[0]}" pb_port="${ports[1]}" chi_port="${ports[2]}"

say "frontdesk: a fresh data directory with the bench business and a key"
"$tmp/sidebyside" fixture --providers "$providers" --reads "$reads" "$tmp/business.json"
"$tmp/frontdesk" import --data "$tmp/fd" "$tmp/business.json" 2>"$tmp/import.log" ||
	{ cat "$tmp/import.log" >&2; exit 1; }
key="$("$tmp/frontdesk" apikey create --data "$tmp/fd" --name sidebyside --full-access)"
"$tmp/frontdesk" serve --data "$tmp/fd" --addr "127.0.0.1:$fd_port" \
	--rate-limit-per-minute 0 --rate-limit-per-day 0 --max-conns-per-client 0 --log-format json 2>"$(log frontdesk)" &
fd_pid=$!
pids+=("$fd_pid")

say "PocketBase $pb_version: a fresh data directory and a superuser"
pb_email=bench@example.com
pb_password="sidebyside-$RANDOM$RANDOM"
# PocketBase takes an executable under the temporary or the user's cache directory for one
# started by `go run`, and then defaults to dev mode (every SQL statement printed) and to
# writing migration files when a collection changes: both are turned off explicitly.
pb_flags=(--dir "$tmp/pb" --dev=false --automigrate=false)
"$pb_dir/base" superuser upsert "$pb_email" "$pb_password" "${pb_flags[@]}" >/dev/null
"$pb_dir/base" serve --http "127.0.0.1:$pb_port" "${pb_flags[@]}" >"$(log pocketbase)" 2>&1 &
pb_pid=$!
pids+=("$pb_pid")

"$tmp/chibase" --addr "127.0.0.1:$chi_port" 2>"$(log chi)" &
chi_pid=$!
pids+=("$chi_pid")

"$tmp/sidebyside" wait "http://127.0.0.1:$fd_port/readyz" "http://127.0.0.1:$pb_port/api/health" \
	"http://127.0.0.1:$chi_port/thing"

say "frontdesk $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet 2>/dev/null || echo ' (modified)'), PocketBase $pb_version, $(go version | cut -d' ' -f3), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs"
say "$rounds rounds of ${duration}s at connections $conns, wrk -t$threads"
"$tmp/sidebyside" run --wrk "$(command -v wrk)" --dir "$tmp" --rounds "$rounds" --duration "${duration}s" \
	--conns "$conns" --threads "$threads" --warmup "${warmup}s" --pause "${pause}s" --settle "${settle}s" \
	--clk-tck "$(getconf CLK_TCK)" ${json:+--json "$json"} --pb-reads "$reads" \
	--fd-url "http://127.0.0.1:$fd_port" --fd-key "$key" --fd-pid "$fd_pid" \
	--pb-url "http://127.0.0.1:$pb_port" --pb-email "$pb_email" --pb-password "$pb_password" --pb-pid "$pb_pid" \
	--chi-url "http://127.0.0.1:$chi_port" --chi-pid "$chi_pid" &
# The driver runs in the background so that a SIGTERM to this script alone stops it at once too.
driver=$!
pids+=("$driver")
wait "$driver"
