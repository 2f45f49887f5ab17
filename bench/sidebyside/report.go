package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

var serverTitles = []struct{ name, title string }{{"frontdesk", "frontdesk"}, {"pocketbase", "PocketBase"}, {"chi", "chi"}}

// writeTable prints the medians over the rounds as a markdown table: per target and connection
// count, each server's requests a second, p99 latency and CPU per request, and frontdesk's rate
// over PocketBase's; then each server's resident memory.
func writeTable(w io.Writer, runs []run, mems []memory, conns []int, targets []target) {
	rounds := 0
	for _, r := range runs {
		rounds = max(rounds, r.Round)
	}
	fmt.Fprintf(w, "Medians of %d rounds (requests a second, p99 latency, the server's CPU per request); wrk -t%d.\n\n",
		rounds, firstThreads(runs))
	fmt.Fprintln(w, "| target | frontdesk | PocketBase | chi | fd/pb |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, t := range targets {
		for _, c := range slices.Backward(conns) {
			cells := []string{fmt.Sprintf("%s, %d connections", t.title, c)}
			rate := map[string]float64{}
			for _, s := range serverTitles {
				var sel []run
				for _, r := range runs {
					if r.Target == t.name && r.Server == s.name && r.Conns == c {
						sel = append(sel, r)
					}
				}
				if len(sel) == 0 {
					cells = append(cells, "")
					continue
				}
				rate[s.name] = median(sel, func(r run) float64 { return r.PerSecond })
				cell := fmt.Sprintf("%s/s, p99 %s ms, %s µs CPU", thousands(rate[s.name]),
					decimal(median(sel, func(r run) float64 { return r.P99MS })),
					thousands(median(sel, func(r run) float64 { return r.CPUMicros })))
				var errs int64
				for _, r := range sel {
					errs += r.Errors
				}
				if errs > 0 {
					cell += fmt.Sprintf(", **%d errors**", errs)
				}
				cells = append(cells, cell)
			}
			ratio := ""
			if rate["pocketbase"] > 0 && rate["frontdesk"] > 0 {
				ratio = fmt.Sprintf("%.2f×", rate["frontdesk"]/rate["pocketbase"])
			}
			cells = append(cells, ratio)
			fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
		}
	}
	cells := []string{"resident memory: idle before / peak / after, MiB"}
	for _, s := range serverTitles {
		cell := ""
		for _, m := range mems {
			if m.Server == s.name {
				cell = fmt.Sprintf("%s / %s / %s", decimal(m.IdleMiB), decimal(m.PeakMiB), decimal(m.AfterMiB))
			}
		}
		cells = append(cells, cell)
	}
	fmt.Fprintf(w, "| %s | |\n", strings.Join(cells, " | "))
	if len(runs) > 0 {
		// On an otherwise idle machine the CPU time wrk and the server leave is idle time.
		fmt.Fprintf(w, "\nThe machine during the runs (median): %.0f %% idle, %.0f %% waiting for I/O.\n",
			100*median(runs, func(r run) float64 { return r.MachineIdle }), 100*median(runs, func(r run) float64 { return r.MachineIOWait }))
	}
}

func firstThreads(runs []run) int {
	if len(runs) == 0 {
		return 0
	}
	return runs[0].Threads
}

// median of f over runs, the mean of the middle two for an even count.
func median(runs []run, f func(run) float64) float64 {
	v := make([]float64, len(runs))
	for i, r := range runs {
		v[i] = f(r)
	}
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}

// thousands rounds x to a whole number written with thousands separators: 27386.4 → "27,386".
func thousands(x float64) string {
	s := strconv.FormatInt(int64(x+0.5), 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// decimal writes x with three significant digits, at most one decimal: 13.74 → "13.7",
// 112.4 → "112", 0.83 → "0.8".
func decimal(x float64) string {
	if x >= 100 {
		return thousands(x)
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}
