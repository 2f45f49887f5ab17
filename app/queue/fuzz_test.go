package queue

import "testing"

// FuzzParseSchedule: a retry schedule is accepted only with every step between 0 and 7 days,
// and prints back to text that parses to the same schedule.
func FuzzParseSchedule(f *testing.F) {
	for _, s := range []string{"0s,5s,5m,30m,2h", "1h30m", " 1s , 2s ", "-1s", "8d", "168h", ",", "1ns", "5m,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sch, err := ParseSchedule(s)
		if err != nil {
			return
		}
		for _, d := range sch {
			if d < 0 || d > maxStep {
				t.Fatalf("ParseSchedule(%q) accepted step %v", s, d)
			}
		}
		again, err := ParseSchedule(sch.String())
		if err != nil || len(again) != len(sch) {
			t.Fatalf("ParseSchedule(%q).String() = %q, which parses to %v, %v", s, sch.String(), again, err)
		}
		for i := range sch {
			if again[i] != sch[i] {
				t.Fatalf("ParseSchedule(%q): step %d %v prints as %q, which parses to %v", s, i, sch[i], sch.String(), again[i])
			}
		}
	})
}
