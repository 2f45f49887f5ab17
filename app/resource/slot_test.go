package resource

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// encodingJSON is what the /v3 writer produces: encoding/json with HTML escaping off, without
// the Encoder's trailing newline.
func encodingJSON(t testing.TB, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func TestSlotsJSONMatchesEncodingJSON(t *testing.T) {
	zone, err := time.LoadLocation("America/Santiago")
	if err != nil {
		t.Fatal(err)
	}
	service := int64(7)
	start := time.Date(2026, 9, 5, 23, 30, 0, 0, zone) // the spring-forward night
	type slot struct {
		provider   int64
		name, date string
		start, end time.Time
		session    *[3]int // session id, capacity, seats left: a class's slot
	}
	cases := []struct {
		name  string
		slots []slot
		meta  SlotsMetadata
	}{
		{"no slots, no service", nil, SlotsMetadata{LocationID: 1, Date: "2026-09-05", EndDate: "2026-09-05", Duration: 15}},
		{"no slots, with service", nil, SlotsMetadata{LocationID: 1, ServiceID: &service, Duration: 30}},
		{"slots across a DST change, hostile names", []slot{
			{3, `Ana "la <jefa>" & co`, "2026-09-05", start, start.Add(30 * time.Minute), nil},
			{4, "Zoë\u2028\x01\xff", "2026-09-06", start.Add(30 * time.Minute), start.Add(time.Hour), nil},
			{-1, "", "2026-09-06", start.Add(time.Hour).UTC(), start.Add(2 * time.Hour).UTC(), nil},
			{1 << 40, "P", "x\"y", time.Date(12026, 1, 1, 0, 0, 0, 0, zone), time.Date(12026, 1, 1, 0, 15, 0, 0, zone), nil},
		}, SlotsMetadata{LocationID: 12, Date: "2026-09-05", EndDate: "2026-09-06", ServiceID: &service, Duration: 30, SlotsCount: 4}},
		{"class sessions, one full", []slot{
			{5, "Benjamín", "2026-09-05", start, start.Add(time.Hour), &[3]int{41, 8, 3}},
			{5, "Benjamín", "2026-09-06", start.Add(24 * time.Hour), start.Add(25 * time.Hour), &[3]int{42, 12, 0}},
		}, SlotsMetadata{LocationID: 1, Date: "2026-09-05", EndDate: "2026-09-06", ServiceID: &service, Duration: 60, SlotsCount: 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := NewSlotsJSON(nil, len(c.slots))
			want := AvailableSlots{Data: AvailableSlotsData{Slots: []Slot{}, Metadata: c.meta}}
			for _, s := range c.slots {
				slot := NewSlot(s.provider, s.name, s.date, s.start, s.end)
				if x := s.session; x != nil {
					w.AddSession(s.provider, s.name, s.date, s.start, s.end, int64(x[0]), x[1], x[2])
					id, capacity, left := int64(x[0]), x[1], x[2]
					slot.SessionID, slot.Capacity, slot.SeatsLeft = &id, &capacity, &left
				} else {
					w.Add(s.provider, s.name, s.date, s.start, s.end)
				}
				want.Data.Slots = append(want.Data.Slots, slot)
			}
			if got, want := w.Finish(c.meta), encodingJSON(t, want); !bytes.Equal(got, want) {
				t.Fatalf("SlotsJSON:\ngot  %s\nwant %s", got, want)
			}
		})
	}
}

func TestNewSlotTimes(t *testing.T) {
	zone, err := time.LoadLocation("America/Santiago")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 9, 5, 23, 30, 0, 0, zone)
	s := NewSlot(1, "Ana", "2026-09-05", start, start.Add(45*time.Minute))
	want := Slot{StartTime: "23:30", EndTime: "01:15", ProviderID: 1, ProviderName: "Ana", Date: "2026-09-05",
		StartsAt: "2026-09-05T23:30:00-04:00", EndsAt: "2026-09-06T01:15:00-03:00"}
	if s != want {
		t.Fatalf("got %+v, want %+v", s, want)
	}
}

// BenchmarkSlotsDayJSON writes a day of ten providers, 240 slots, as the available_slots
// handler does.
func BenchmarkSlotsDayJSON(b *testing.B) {
	zone, err := time.LoadLocation("America/New_York")
	if err != nil {
		b.Fatal(err)
	}
	day := time.Date(2026, 11, 25, 8, 0, 0, 0, zone)
	service := int64(3)
	b.ReportAllocs()
	var size int
	buf := make([]byte, 0, 64<<10)
	for b.Loop() {
		w := NewSlotsJSON(buf, 240)
		for i := range 240 {
			start := day.Add(time.Duration(i/10) * 30 * time.Minute)
			w.Add(int64(1+i%10), "Provider Name", "2026-11-25", start, start.Add(15*time.Minute))
		}
		size = len(w.Finish(SlotsMetadata{LocationID: 1, Date: "2026-11-25", EndDate: "2026-11-25", ServiceID: &service, Duration: 15, SlotsCount: 240}))
	}
	b.ReportMetric(float64(size), "bytes/page")
}

// TestSlotRunMatchesSlotsJSON: every contiguous run of a SlotRun's slots, copied out, is byte
// for byte the body SlotsJSON writes for those slots alone.
func TestSlotRunMatchesSlotsJSON(t *testing.T) {
	zone, err := time.LoadLocation("America/Santiago")
	if err != nil {
		t.Fatal(err)
	}
	service := int64(3)
	start := time.Date(2026, 9, 5, 22, 0, 0, 0, zone) // across the spring-forward night
	names := []string{"Ana", `Bea "B" <x>`, "Zoë\u2028", ""}
	const n = 7
	run := NewSlotRun(n)
	for k := range n {
		s := start.Add(time.Duration(k) * 45 * time.Minute)
		run.Add(int64(k%3+1), names[k%len(names)], s.Format(time.DateOnly), s, s.Add(30*time.Minute))
	}
	if run.Len() != n {
		t.Fatalf("got Len %d, want %d", run.Len(), n)
	}
	for i := 0; i <= n; i++ {
		for j := i; j <= n; j++ {
			meta := SlotsMetadata{LocationID: 4, Date: "2026-09-05", EndDate: "2026-09-06", ServiceID: &service, Duration: 30, SlotsCount: j - i}
			w := NewSlotsJSON(nil, j-i)
			for k := i; k < j; k++ {
				s := start.Add(time.Duration(k) * 45 * time.Minute)
				w.Add(int64(k%3+1), names[k%len(names)], s.Format(time.DateOnly), s, s.Add(30*time.Minute))
			}
			want := w.Finish(meta)
			if got := run.AppendBody([]byte("x"), i, j, meta); !bytes.Equal(got[1:], want) || got[0] != 'x' {
				t.Fatalf("run [%d:%d]:\ngot  %s\nwant x%s", i, j, got, want)
			}
		}
	}
}
