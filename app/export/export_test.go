package export_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/export"
	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// world is a business in Santiago (a zone with DST) with one location, service, provider and
// clients; bookings are added with addBookings.
type world struct {
	d                                   *db.DB
	location, service, provider, client int64
}

func newWorld(t testing.TB) world {
	t.Helper()
	d := dbtest.Open(t, filepath.Join(t.TempDir(), "f.db"))
	ms := time.Now().UnixMilli()
	w := world{d: d}
	exec := func(q string, args ...any) int64 {
		t.Helper()
		res, err := d.Write.Exec(q, args...)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		id, _ := res.LastInsertId()
		return id
	}
	exec(`INSERT INTO company (name, created_at, updated_at) VALUES ('Studio', ?, ?)`, ms, ms)
	country := exec(`INSERT INTO countries (code, name) VALUES ('CL', 'Chile')`)
	w.location = exec(`INSERT INTO locations (uuid, name, timezone, country_id, created_at, updated_at) VALUES ('c', 'Centro, "Norte"', 'America/Santiago', ?, ?, ?)`, country, ms, ms)
	w.service = exec(`INSERT INTO services (uuid, name, duration_min, price_cents, created_at, updated_at) VALUES ('s', 'Corte
de pelo', 30, 1250, ?, ?)`, ms, ms)
	w.provider = exec(`INSERT INTO providers (public_name, location_id, created_at, updated_at) VALUES ('Ñandú', ?, ?, ?)`, w.location, ms, ms)
	exec(`INSERT INTO messages (message_key, kind, recipient, to_address, state, note, send_at, subject, created_at, updated_at)
		VALUES ('k1', 'test', 'address', '-owner@example.com', 'failed', '550 "no", thanks', ?, 'Prueba
¿llega?', ?, ?)`, ms, ms, ms)
	hook := exec(`INSERT INTO webhooks (url, events_json, created_at, updated_at) VALUES ('https://example.com/hook?a=1,b="2"', '["*"]', ?, ?)`, ms, ms)
	exec(`INSERT INTO events (id, type, body, created_at) VALUES ('evt_1', 'booking.created', '{}', ?)`, ms)
	delivery := exec(`INSERT INTO deliveries (event_id, webhook_id, state, attempts, last_attempt_at, last_status, created_at, updated_at)
		VALUES ('evt_1', ?, 'failed', 2, ?, 500, ?, ?)`, hook, ms, ms, ms)
	exec(`INSERT INTO delivery_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error_category, error_message)
		VALUES (?, 1, ?, 5, NULL, 'dns', 'no such host'), (?, 2, ?, 5, 500, 'http_status', '-500 "oops";
again')`, delivery, ms, delivery, ms)
	w.client = exec(`INSERT INTO clients (first_name, last_name, email, phone, created_at, updated_at) VALUES ('=HYPERLINK("x")', 'Pérez; "Jr"', '@evil', '+56911112222', ?, ?)`, ms, ms)
	return w
}

// addBookings adds n bookings of 30 minutes, one after another from start.
func (w world) addBookings(t testing.TB, start time.Time, n int) {
	t.Helper()
	s := start.UnixMilli()
	_, err := w.d.Write.Exec(`WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < ?)
INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at, block_start_at, block_end_at,
	price_cents, list_price_cents, created_at, updated_at)
SELECT ?, ?, ?, ?, 1, ? + i * 1800000, ? + i * 1800000 + 1800000, ? + i * 1800000, ? + i * 1800000 + 1800000, 1250, 1500, ?, ?
FROM k`, n, w.location, w.service, w.provider, w.client, s, s, s, s, s, s)
	if err != nil {
		t.Fatal(err)
	}
}

func exportText(t testing.TB, d *db.DB, kind string, f export.Filter, o export.Options) string {
	t.Helper()
	var b bytes.Buffer
	w, err := export.NewWriter(&b, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := export.Write(context.Background(), d, kind, f, w); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestNeutralise(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"Ana", "Ana"},
		{"=1+1", "'=1+1"},
		{"+56911112222", "'+56911112222"},
		{"-2", "'-2"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\tx", "'\tx"},
		{"\rx", "'\rx"},
		{"a=b", "a=b"},
		{" =1", " =1"},
		{"'quoted", "'quoted"},
	} {
		if got := export.Neutralise(c.in); got != c.want {
			t.Errorf("Neutralise(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// pythonRead parses file with Python's csv module and returns its records.
func pythonRead(t *testing.T, file string, excel bool, comma string) [][]string {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed to check the files read alike: %v", err)
	}
	enc := "utf-8"
	if excel {
		enc = "utf-8-sig"
	}
	script := `import csv, io, json, sys
data = sys.stdin.buffer.read().decode(sys.argv[1])
print(json.dumps(list(csv.reader(io.StringIO(data, newline=""), delimiter=sys.argv[2], strict=True))))`
	cmd := exec.Command(python, "-c", script, enc, comma)
	cmd.Stdin = strings.NewReader(file)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python csv: %v", err)
	}
	var records [][]string
	if err := json.Unmarshal(out, &records); err != nil {
		t.Fatal(err)
	}
	return records
}

func goRead(t *testing.T, file string, excel bool, comma rune) [][]string {
	t.Helper()
	if excel {
		if !strings.HasPrefix(file, "\uFEFF") {
			t.Fatal("an Excel file starts with a byte-order mark")
		}
		file = strings.TrimPrefix(file, "\uFEFF")
	}
	r := csv.NewReader(strings.NewReader(file))
	r.Comma = comma
	records, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return records
}

// TestReadsAlikeInGoAndPython: every list, plain and Excel-friendly in both languages, reads
// to the same records with Go's encoding/csv and Python's csv, quotes, separators, line breaks
// and accents included, and the hostile cells arrive neutralised.
func TestReadsAlikeInGoAndPython(t *testing.T) {
	w := newWorld(t)
	w.addBookings(t, time.Date(2026, 3, 2, 15, 0, 0, 0, time.UTC), 3)
	for _, kind := range export.Kinds {
		for _, o := range []export.Options{{}, {Excel: true, Lang: "en"}, {Excel: true, Lang: "es"}} {
			file := exportText(t, w.d, kind, export.Filter{}, o)
			comma := ','
			if o.Excel && o.Lang == "es" {
				comma = ';'
			}
			fromGo, fromPython := goRead(t, file, o.Excel, comma), pythonRead(t, file, o.Excel, string(comma))
			if !reflect.DeepEqual(fromGo, fromPython) {
				t.Errorf("%s %+v: Go read %q, Python %q", kind, o, fromGo, fromPython)
			}
			if kind == "messages" && (len(fromGo) != 2 || fromGo[1][4] != "'-owner@example.com" || fromGo[1][5] != "Prueba\n¿llega?") {
				t.Errorf("messages %+v: %q", o, fromGo)
			}
			if kind == "deliveries" && (len(fromGo) != 2 || fromGo[1][3] != `https://example.com/hook?a=1,b="2"` || fromGo[1][6] != "failed" ||
				fromGo[1][9] != "500" || fromGo[1][10] != "http_status: -500 \"oops\";\nagain") {
				t.Errorf("deliveries %+v: %q", o, fromGo)
			}
			if kind == "bookings" {
				if len(fromGo) != 4 {
					t.Fatalf("bookings %+v: %d records, want a header and 3", o, len(fromGo))
				}
				row := strings.Join(fromGo[1], "|")
				for _, want := range []string{`Centro, "Norte"`, "Corte\nde pelo", "Ñandú", `'=HYPERLINK("x") Pérez; "Jr"`, "'@evil", "'+56911112222"} {
					if !strings.Contains(row, want) {
						t.Errorf("bookings %+v: row %q lacks %q", o, row, want)
					}
				}
				price := "12.5"
				if comma == ';' {
					price = "12,5"
				}
				if fromGo[1][11] != price {
					t.Errorf("bookings %+v: price %q, want %q", o, fromGo[1][11], price)
				}
			}
		}
	}
}

// TestTimesInBusinessZoneAcrossDST: Santiago moves its clocks forward on 6 September 2026; a
// booking at noon on either side is at noon in the file, and the header names the zone.
func TestTimesInBusinessZoneAcrossDST(t *testing.T) {
	w := newWorld(t)
	zone, err := time.LoadLocation("America/Santiago")
	if err != nil {
		t.Fatal(err)
	}
	w.addBookings(t, time.Date(2026, 9, 5, 12, 0, 0, 0, zone), 1)
	w.addBookings(t, time.Date(2026, 9, 7, 12, 0, 0, 0, zone), 1)
	records := goRead(t, exportText(t, w.d, "bookings", export.Filter{}, export.Options{}), false, ',')
	if got := records[0][1]; got != "start (America/Santiago)" {
		t.Errorf("header %q, want the zone named", got)
	}
	var starts []string
	for _, r := range records[1:] {
		starts = append(starts, r[1]+" – "+r[2])
	}
	want := []string{"2026-09-05 12:00:00 – 2026-09-05 12:30:00", "2026-09-07 12:00:00 – 2026-09-07 12:30:00"}
	if !reflect.DeepEqual(starts, want) {
		t.Errorf("times %q, want %q", starts, want)
	}
	// The list's date filter is a local date too.
	day := booking.Date{Year: 2026, Month: 9, Day: 7}
	records = goRead(t, exportText(t, w.d, "bookings", export.Filter{Bookings: booking.Filter{From: &day, To: &day}}, export.Options{}), false, ',')
	if len(records) != 2 || records[1][1] != "2026-09-07 12:00:00" {
		t.Errorf("from=to=2026-09-07: %q, want the one booking of that day", records)
	}
}

// peakHeap exports every booking to a sink that samples the heap in use every 256 KiB written,
// and returns the highest sample and the bytes written.
func peakHeap(t *testing.T, d *db.DB) (peak uint64, written int64) {
	t.Helper()
	runtime.GC()
	s := &sampler{}
	w, err := export.NewWriter(s, export.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := export.Write(context.Background(), d, "bookings", export.Filter{}, w); err != nil {
		t.Fatal(err)
	}
	return s.peak, s.n
}

type sampler struct {
	n, next int64
	peak    uint64
}

func (s *sampler) Write(p []byte) (int, error) {
	s.n += int64(len(p))
	if s.n >= s.next {
		s.next = s.n + 256<<10
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		s.peak = max(s.peak, m.HeapInuse)
	}
	return len(p), nil
}

var _ io.Writer = (*sampler)(nil)

// TestStreamsInFlatMemory: exporting 100 000 bookings holds no more heap than exporting
// 10 000: the rows go out as they are read.
func TestStreamsInFlatMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 110 000 bookings")
	}
	if raceEnabled {
		t.Skip("writes 110 000 bookings: run without -race (.ci/run does)")
	}
	w := newWorld(t)
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	w.addBookings(t, start, 10_000)
	small, smallBytes := peakHeap(t, w.d)
	w.addBookings(t, start.AddDate(2, 0, 0), 90_000)
	large, largeBytes := peakHeap(t, w.d)
	t.Logf("10 000 rows: %d bytes written, peak heap %d KiB; 100 000 rows: %d bytes, peak heap %d KiB",
		smallBytes, small>>10, largeBytes, large>>10)
	if largeBytes < 9*smallBytes {
		t.Fatalf("the larger export wrote %d bytes, the smaller %d: not ten times the rows", largeBytes, smallBytes)
	}
	// The file of 100 000 rows is ~14 MB: holding it, or its rows, would show several MB more.
	if large > small+4<<20 {
		t.Errorf("peak heap %d KiB for 100 000 rows against %d KiB for 10 000: memory grows with the rows", large>>10, small>>10)
	}
}
