package booking

import (
	"fmt"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // the tests must not depend on the host's zoneinfo
)

func mustZone(t testing.TB, name string) *time.Location {
	t.Helper()
	zone, err := time.LoadLocation(name)
	if err != nil {
		t.Fatalf("load zone %s: %v", name, err)
	}
	return zone
}

func mustDate(t testing.TB, s string) Date {
	t.Helper()
	d, err := ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// at reads "2006-01-02 15:04" in zone. Only for wall times that exist once.
func at(t testing.TB, zone *time.Location, s string) time.Time {
	t.Helper()
	tm, err := time.ParseInLocation("2006-01-02 15:04", s, zone)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// hm is minutes after midnight for "15:04".
func hm(s string) int {
	var h, m int
	if _, err := fmt.Sscanf(s, "%d:%d", &h, &m); err != nil {
		panic(err)
	}
	return h*60 + m
}

// slotKey shows everything a slot says, offsets included.
func slotKey(s Slot) string {
	return fmt.Sprintf("%s %s/%s #%d %s", s.Date, s.Start.Format(time.RFC3339Nano), s.End.Format(time.RFC3339Nano), s.ProviderID, s.ProviderName)
}

func slotKeys(slots []Slot) []string {
	out := make([]string, len(slots))
	for i, s := range slots {
		out[i] = slotKey(s)
	}
	return out
}

// diffKeys describes the first difference between two slot lists, or "".
func diffKeys(got, want []string) string {
	for i := 0; i < max(len(got), len(want)); i++ {
		g, w := "(none)", "(none)"
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			return fmt.Sprintf("%d slots, want %d; first difference at %d: got %s, want %s", len(got), len(want), i, g, w)
		}
	}
	return ""
}

// transitions lists the instants in [from, to) at which zone's offset changes.
func transitions(zone *time.Location, from, to time.Time) []time.Time {
	var out []time.Time
	for t := from.In(zone); ; {
		_, end := t.ZoneBounds()
		if end.IsZero() || !end.Before(to) {
			return out
		}
		_, before := end.Add(-time.Second).Zone()
		if _, after := end.Zone(); after != before {
			out = append(out, end)
		}
		t = end
	}
}

// setLocal swaps the host zone for one test; the engine must not notice.
func setLocal(t *testing.T, zone *time.Location) {
	t.Helper()
	saved := time.Local
	time.Local = zone
	t.Cleanup(func() { time.Local = saved })
}

func join(lines []string) string { return "\n\t" + strings.Join(lines, "\n\t") }
