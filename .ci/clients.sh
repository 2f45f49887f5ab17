#!/usr/bin/env bash
# Generated clients of /v3 (docs/api.md, "Generating clients"), as integrators make them, from
# the document a running server serves:
#   - a Go client with oapi-codegen (pinned), compiled and run against that server (smoke/);
#   - TypeScript types with openapi-typescript (npm, pinned), type-checked with a strict tsc
#     together with code that uses them (use.ts);
#   - Spectral's OpenAPI rules (npm, pinned), failing on any warning.
# Tools are cached outside the repository: Go's own caches, and npm packages installed into
# $FRONTDESK_CI_CACHE (default ~/.cache/frontdesk-ci) once per pinned set.
set -euo pipefail
cd "$(dirname "$0")/.."

OAPI_CODEGEN=github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2
OAPI_RUNTIME=github.com/oapi-codegen/runtime@v1.8.0
cache="${FRONTDESK_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/frontdesk-ci}"
work=$(mktemp -d)
server_pid=""
cleanup() {
	if [ -n "$server_pid" ]; then
		kill "$server_pid" 2>/dev/null || true
		wait "$server_pid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

need=()
command -v npm >/dev/null 2>&1 || need+=(nodejs npm)
command -v curl >/dev/null 2>&1 || need+=(curl)
if [ ${#need[@]} -gt 0 ]; then
	if [ "$(id -u)" = 0 ]; then
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
	else
		echo "missing ${need[*]} and not root: cannot install" >&2
		exit 1
	fi
fi

# npm tools, pinned by .ci/clients/package.json; reinstalled only when that file changes.
tools="$cache/node-tools"
stamp="$tools/.installed-$(sha256sum .ci/clients/package.json | cut -c1-16)"
if [ ! -e "$stamp" ]; then
	rm -rf "$tools"
	mkdir -p "$tools"
	cp .ci/clients/package.json "$tools/"
	(cd "$tools" && npm install --no-audit --no-fund --loglevel=error --cache "$cache/npm") >/dev/null
	touch "$stamp"
fi

# The real server, with the demo business and a key, on a port of its own choosing.
go build -o "$work/frontdesk" .
"$work/frontdesk" migrate --data "$work/data" >/dev/null
"$work/frontdesk" apikey create --data "$work/data" --name clients --full-access >"$work/key"
"$work/frontdesk" serve --data "$work/data" --addr 127.0.0.1:0 --demo >"$work/serve.out" 2>"$work/serve.log" &
server_pid=$!
addr=""
for _ in $(seq 1 100); do
	addr=$(sed -n 's/.*"msg":"listening","addr":"\([^"]*\)".*/\1/p' "$work/serve.log" | head -n 1)
	[ -n "$addr" ] && break
	sleep 0.1
done
if [ -z "$addr" ]; then
	echo "the server did not start:" >&2
	cat "$work/serve.log" >&2
	exit 1
fi
base="http://$addr"
curl -fsS "$base/v3/openapi.json" -o "$work/openapi.json"

# The npm tools are single-threaded: they run beside the Go client's build.
(
	set -e
	mkdir -p "$work/ts"
	"$tools/node_modules/.bin/openapi-typescript" "$work/openapi.json" -o "$work/ts/api.d.ts" >/dev/null
	cp .ci/clients/use.ts "$work/ts/"
	"$tools/node_modules/.bin/tsc" --noEmit --strict --target es2022 --module nodenext --moduleResolution nodenext \
		"$work/ts/api.d.ts" "$work/ts/use.ts"
	echo "TypeScript types (openapi-typescript, tsc --strict): ok"
	"$tools/node_modules/.bin/spectral" lint --quiet --fail-severity=warn --ruleset .ci/clients/spectral.yaml "$work/openapi.json"
	echo "Spectral (spectral:oas): no warnings"
) >"$work/node.log" 2>&1 &
node_pid=$!

mkdir -p "$work/go/frontdesk"
cp .ci/clients/smoke/main.go "$work/go/"
(
	cd "$work/go"
	go run "$OAPI_CODEGEN" -config "$OLDPWD/.ci/clients/oapi-codegen.yaml" "$work/openapi.json"
	printf 'module clientcheck\n\ngo 1.26\n' >go.mod
	go get "$OAPI_RUNTIME" >/dev/null 2>&1
	go mod tidy >/dev/null 2>&1
	go vet ./...
	FRONTDESK_URL="$base" FRONTDESK_KEY="$(cat "$work/key")" go run .
)
echo "Go client (oapi-codegen): ok"

node_status=0
wait "$node_pid" || node_status=$?
cat "$work/node.log"
exit "$node_status"
