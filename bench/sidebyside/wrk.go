package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// wrkOut is what one wrk run reports through the script's done hook (luaTail). Latencies are
// in microseconds; non2xx counts the answers outside 200–299 (for a script without luaResponse,
// those from 400 up: luaTail).
type wrkOut struct {
	Requests      int64   `json:"requests"`
	DurationUS    int64   `json:"duration_us"`
	P50US         float64 `json:"p50_us"`
	P99US         float64 `json:"p99_us"`
	MeanUS        float64 `json:"mean_us"`
	MaxUS         float64 `json:"max_us"`
	Non2xx        int64   `json:"non2xx"`
	ConnectErrors int64   `json:"connect_errors"`
	ReadErrors    int64   `json:"read_errors"`
	WriteErrors   int64   `json:"write_errors"`
	Timeouts      int64   `json:"timeouts"`
	// MaxSent is the most requests one thread made: a create script's next base is
	// base + threads × MaxSent, past every grid time this run asked for.
	MaxSent  int64  `json:"max_sent"`
	FirstBad string `json:"first_bad,omitempty"`
}

// errors is every request that did not end in a 2xx answer.
func (o wrkOut) errors() int64 {
	return o.Non2xx + o.ConnectErrors + o.ReadErrors + o.WriteErrors + o.Timeouts
}

// luaTail prints, once wrk is done, one line of JSON for parseWrk, then the first answer outside
// 2xx on a line of its own when a response hook (luaResponse) kept it. Without the hook the
// answers outside 2xx are wrk's own count of those from 400 up: a hook has wrk hand every
// answer's body and headers to Lua, which at 20,000 lists of 23 KB a second costs the machine
// more than a twentieth of the throughput it measures, so the read scripts go without it (none
// of the servers answers them with a redirect).
const luaTail = `
local threads = {}
function setup(thread)
  thread:set("tid", #threads)
  table.insert(threads, thread)
end
bad, sent, firstbad = 0, 0, ""
function done(summary, latency, requests)
  local nbad, maxsent, first = 0, 0, ""
  for _, t in ipairs(threads) do
    nbad = nbad + t:get("bad")
    local s = t:get("sent")
    if s > maxsent then maxsent = s end
    local f = t:get("firstbad")
    if first == "" and f ~= nil then first = f end
  end
  local e = summary.errors
  if response == nil then nbad = e.status end
  io.write(string.format('SIDEBYSIDE {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"mean_us":%.1f,"max_us":%d,"non2xx":%d,"connect_errors":%d,"read_errors":%d,"write_errors":%d,"timeouts":%d,"max_sent":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.mean, latency.max,
    nbad, e.connect, e.read, e.write, e.timeout, maxsent))
  io.write("SIDEBYSIDE_FIRSTBAD " .. string.gsub(first, "[\r\n]", " ") .. "\n")
end
`

// luaResponse counts the answers outside 2xx in each thread and keeps the first.
const luaResponse = `
function response(status, headers, body)
  if status < 200 or status > 299 then
    bad = bad + 1
    if firstbad == "" then firstbad = status .. " " .. string.sub(body or "", 1, 300) end
  end
end
`

// readScript asks for one path again and again with the given headers.
func readScript(path string, header map[string]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "wrk.method = \"GET\"\nwrk.path = %s\n", luaString(path))
	for k, v := range header {
		fmt.Fprintf(&b, "wrk.headers[%s] = %s\n", luaString(k), luaString(v))
	}
	b.WriteString(luaTail)
	return b.String()
}

// createScript posts bodies whose start is request k's grid time (grid.at): thread t of n
// makes k = base + t, base + t + n, … The body is a Lua format string given the start (%s),
// the provider (%d), the client (%d) and the end (%s), in that order; a body may leave the end
// out (Lua ignores the arguments a format does not use).
func createScript(path string, header map[string]string, g grid, clients []int64, base int64, threads int, body string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "wrk.method = \"POST\"\nwrk.path = %s\nwrk.headers[\"Content-Type\"] = \"application/json\"\n", luaString(path))
	for k, v := range header {
		fmt.Fprintf(&b, "wrk.headers[%s] = %s\n", luaString(k), luaString(v))
	}
	fmt.Fprintf(&b, "local base, nthreads, first, days, step = %d, %d, %d, %d, %d\n",
		base, threads, g.first.Unix(), gridDays, stepMin*60)
	fmt.Fprintf(&b, "local providers = {%s}\nlocal clients = {%s}\nlocal body = %s\n", joinInts(g.providers), joinInts(clients), luaString(body))
	b.WriteString(`tid = 0
function request()
  local k = base + tid + nthreads * sent
  sent = sent + 1
  local np = #providers
  local slot = math.floor(k / np)
  local day, index = slot % days, math.floor(slot / days)
  local t = first + day * 86400 + index * step
  local b = string.format(body, os.date("!%Y-%m-%dT%H:%M:%SZ", t), providers[k % np + 1], clients[k % #clients + 1],
    os.date("!%Y-%m-%dT%H:%M:%SZ", t + step))
  return wrk.format(nil, nil, nil, b)
end
`)
	b.WriteString(luaResponse)
	b.WriteString(luaTail)
	return b.String()
}

func luaString(s string) string { return strconv.Quote(s) } // Go's quoting is valid Lua for these texts

func joinInts(ns []int64) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.FormatInt(n, 10)
	}
	return strings.Join(s, ",")
}

// runWrk runs wrk with script (written into dir) against url for d at conns connections
// and threads threads, and reads what the script's done hook printed.
func runWrk(ctx context.Context, wrk, dir, name, url, script string, threads, conns int, d time.Duration) (wrkOut, error) {
	file := filepath.Join(dir, name+".lua")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		return wrkOut{}, err
	}
	secs := max(1, int(d.Round(time.Second).Seconds())) // wrk reads whole seconds
	cmd := exec.CommandContext(ctx, wrk, "-t", strconv.Itoa(threads), "-c", strconv.Itoa(conns),
		"-d", fmt.Sprintf("%ds", secs), "--timeout", "10s", "-s", file, url)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return wrkOut{}, fmt.Errorf("wrk %s: %v\n%s%s", name, err, out, stderr.Bytes())
	}
	return parseWrk(out)
}

func parseWrk(out []byte) (wrkOut, error) {
	var o wrkOut
	found := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "SIDEBYSIDE "); ok {
			if err := json.Unmarshal([]byte(rest), &o); err != nil {
				return o, fmt.Errorf("wrk's report %q: %v", rest, err)
			}
			found = true
		} else if rest, ok := strings.CutPrefix(line, "SIDEBYSIDE_FIRSTBAD "); ok {
			o.FirstBad = strings.TrimSpace(rest)
		}
	}
	if !found {
		return o, fmt.Errorf("wrk printed no report:\n%s", out)
	}
	return o, nil
}
