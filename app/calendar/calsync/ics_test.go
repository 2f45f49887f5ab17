package calsync

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	gosync "sync"
	"testing"
	"time"

	_ "time/tzdata"

	"frontdesk/app/calendar"
	"frontdesk/app/fail"
	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// testNow is the tests' clock: Monday 2026-11-23 09:00 in Santiago.
var testNow = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

// openDB seeds location 1 in Santiago and providers 1 and 2 there.
func openDB(t testing.TB) *db.DB {
	t.Helper()
	d := dbtest.Open(t, filepath.Join(t.TempDir(), db.FileName))
	ms := testNow.UnixMilli()
	for _, q := range []string{
		`INSERT INTO company (id, name, created_at, updated_at) VALUES (1, 'Shop', 0, 0)`,
		`INSERT INTO countries (id, code, name) VALUES (1, 'CL', 'Chile')`,
		fmt.Sprintf(`INSERT INTO locations (id, uuid, name, timezone, country_id, created_at, updated_at) VALUES (1, 'l1', 'Centro', 'America/Santiago', 1, %d, %d)`, ms, ms),
		fmt.Sprintf(`INSERT INTO providers (id, public_name, location_id, created_at, updated_at) VALUES (1, 'Ana', 1, %d, %d), (2, 'Beto', 1, %d, %d)`, ms, ms, ms, ms),
	} {
		if _, err := d.Write.Exec(q); err != nil {
			t.Fatalf("seed: %v\n%s", err, q)
		}
	}
	return d
}

// feedServer serves one ICS text with an ETag and answers 304 to a matching If-None-Match.
type feedServer struct {
	mu          gosync.Mutex
	body, etag  string
	requests    int
	conditional int
}

func (f *feedServer) set(body, etag string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.body, f.etag = body, etag
}

func (f *feedServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests++
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		f.conditional++
		if inm == f.etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	w.Header().Set("ETag", f.etag)
	w.Header().Set("Content-Type", "text/calendar")
	fmt.Fprint(w, f.body)
}

const feedV1 = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" +
	"BEGIN:VEVENT\r\nUID:a\r\nSUMMARY:Dentist\r\nDTSTART;TZID=America/Santiago:20261124T110000\r\nDTEND;TZID=America/Santiago:20261124T120000\r\nEND:VEVENT\r\n" +
	"BEGIN:VEVENT\r\nUID:b\r\nSUMMARY:School run\r\nDTSTART;TZID=America/Santiago:20261125T080000\r\nDURATION:PT30M\r\nRRULE:FREQ=DAILY;COUNT=3\r\nEND:VEVENT\r\n" +
	"END:VCALENDAR\r\n"

type clock struct {
	mu gosync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func blocks(t *testing.T, d *db.DB) []string {
	t.Helper()
	rows, err := d.R.ScheduleCalendarBusy(context.Background(), db.ScheduleCalendarBusyParams{
		Floor: 0, Until: testNow.Add(400 * 24 * time.Hour).UnixMilli(), Since: 0, ProviderIds: []int64{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	zone, _ := time.LoadLocation("America/Santiago")
	var out []string
	for _, r := range rows {
		out = append(out, fmt.Sprintf("%d %s–%s %s", r.ProviderID, db.Time(r.StartsAt).In(zone).Format("01-02 15:04"), db.Time(r.EndsAt).In(zone).Format("15:04"), r.Summary))
	}
	return out
}

func connection(t *testing.T, d *db.DB, provider int64) db.CalendarConnection {
	t.Helper()
	c, err := d.R.CalendarConnectionByProvider(context.Background(), provider)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestICSFeedBlocksAndKeepsLastGood: an ICS address served by a test server gives its events as
// busy blocks; an unchanged feed (304 to If-None-Match) writes nothing; a malformed or
// unreachable feed keeps the last good busy time, records why, and after the stale age the
// connection is stale.
func TestICSFeedBlocksAndKeepsLastGood(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	feed := &feedServer{}
	feed.set(feedV1, `"v1"`)
	srv := httptest.NewServer(feed)
	defer srv.Close()
	clk := &clock{t: testNow}
	w := New(d, nil, nil, clk.now)
	w.StaleAfter = time.Hour

	if _, err := calendar.Connect(ctx, d, nil, 1, calendar.Settings{Kind: calendar.KindICS, URL: srv.URL + "/ana.ics", AllowPrivate: true,
		RevealSummary: true, StaleBlocks: true}, clk.now()); err != nil {
		t.Fatal(err)
	}
	if err := w.PollDue(ctx); err != nil {
		t.Fatal(err)
	}
	want := []string{"1 11-24 11:00–12:00 Dentist", "1 11-25 08:00–08:30 School run", "1 11-26 08:00–08:30 School run", "1 11-27 08:00–08:30 School run"}
	if got := blocks(t, d); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("blocks\n%v\nwant\n%v", got, want)
	}
	if c := connection(t, d, 1); c.LastError != "" || !c.LastSuccessAt.Valid {
		t.Fatalf("after a good poll: %+v", c)
	}

	// Not due yet: nothing asked. Due: a conditional request, answered 304, writes no block.
	if err := w.PollDue(ctx); err != nil || feed.requests != 1 {
		t.Fatalf("a poll before the interval: %d requests, %v", feed.requests, err)
	}
	one := db.ScheduleBusyVersionParams{ProviderIds: []int64{1}, TeacherIds: []int64{1}}
	v1, _ := d.R.ScheduleBusyVersion(ctx, one)
	clk.add(w.interval())
	if err := w.PollDue(ctx); err != nil {
		t.Fatal(err)
	}
	if feed.conditional != 1 {
		t.Errorf("conditional requests: %d, want 1", feed.conditional)
	}
	if v, _ := d.R.ScheduleBusyVersion(ctx, one); v != v1 {
		t.Errorf("an unchanged feed moved the busy-time version %d → %d", v1, v)
	}

	// Malformed: the last good busy time stays, the error is recorded.
	feed.set("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\n", `"v2"`)
	clk.add(w.interval())
	if err := w.PollDue(ctx); err != nil {
		t.Fatal(err)
	}
	if got := blocks(t, d); len(got) != 4 {
		t.Errorf("a malformed feed changed the busy time: %v", got)
	}
	if c := connection(t, d, 1); !strings.Contains(c.LastError, "malformed") {
		t.Errorf("last error %q", c.LastError)
	}
	// Unreachable: likewise; past the stale age the connection is stale.
	srv.Close()
	clk.add(w.StaleAfter)
	if err := w.PollDue(ctx); err != nil {
		t.Fatal(err)
	}
	if got := blocks(t, d); len(got) != 4 {
		t.Errorf("an unreachable feed changed the busy time: %v", got)
	}
	c, err := calendar.Get(ctx, d.R, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Stale || c.LastError == "" || c.Blocks != 4 {
		t.Errorf("after an hour without a good sync: stale %v, last error %q, %d blocks", c.Stale, c.LastError, c.Blocks)
	}
}

// TestICSLimits: a response over the size limit is refused and stores nothing.
func TestICSLimits(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	feed := &feedServer{}
	feed.set(feedV1, `"v1"`)
	srv := httptest.NewServer(feed)
	defer srv.Close()
	w := New(d, nil, nil, func() time.Time { return testNow })
	w.MaxBytes = 100
	if _, err := calendar.Connect(ctx, d, nil, 1, calendar.Settings{Kind: calendar.KindICS, URL: srv.URL, AllowPrivate: true}, testNow); err != nil {
		t.Fatal(err)
	}
	err := w.Poll(ctx, connection(t, d, 1))
	if !errors.Is(err, ErrTooLarge) || len(blocks(t, d)) != 0 {
		t.Errorf("a feed over the limit: %v, %d blocks", err, len(blocks(t, d)))
	}
}

// TestCalendarURLsOnPrivateAddressesNeedTheOptIn: a loopback or private calendar address is
// refused when saved without the owner's opt-in, and, for one that got past (a name resolving
// to loopback, or the opt-in withdrawn), at dial time by the webhooks' guard.
func TestCalendarURLsOnPrivateAddressesNeedTheOptIn(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	feed := &feedServer{}
	feed.set(feedV1, `"v1"`)
	srv := httptest.NewServer(feed)
	defer srv.Close()
	for _, u := range []string{srv.URL + "/a.ics", "http://localhost/a.ics", "https://10.0.0.5/cal", "http://[::1]:8080/", "http://169.254.169.254/latest"} {
		for _, kind := range []string{calendar.KindICS, calendar.KindCalDAV} {
			_, err := calendar.Connect(ctx, d, nil, 1, calendar.Settings{Kind: kind, URL: u, Username: "u", Password: "p"}, testNow)
			if fail.CodeOf(err) != fail.CodeInvalid || fail.FieldOf(err) != "url" {
				t.Errorf("%s %s saved without the opt-in: %v", kind, u, err)
			}
		}
	}
	if _, err := calendar.Connect(ctx, d, nil, 1, calendar.Settings{Kind: calendar.KindICS, URL: srv.URL, AllowPrivate: true}, testNow); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Write.Exec(`UPDATE calendar_connections SET allow_private = 0`); err != nil {
		t.Fatal(err)
	}
	w := New(d, nil, nil, func() time.Time { return testNow })
	if err := w.Poll(ctx, connection(t, d, 1)); err == nil || feed.requests != 0 {
		t.Fatalf("polled a loopback feed without the opt-in: %v, %d requests", err, feed.requests)
	}
	if c := connection(t, d, 1); !strings.HasPrefix(c.LastError, "forbidden_address") {
		t.Errorf("last error %q", c.LastError)
	}
}
