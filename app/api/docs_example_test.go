package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/apikey"
	"frontdesk/app/importer"
	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// docsExampleNow is when docs/api.md's worked example was taken: Monday 2026-11-23, 09:00 in
// Santiago. The demo places its bookings relative to the day it is loaded.
var docsExampleNow = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

// TestDocumentedBookingExample replays docs/api.md's "Worked example: a booking in the demo
// business" against the real demo business behind the real router: the tables of locations,
// services and providers are what the API answers, the available_slots request answers the
// slots and metadata shown, and the POST body shown books, answering the booking shown (all of
// it but the booking's id, which depends on how many bookings the demo has).
func TestDocumentedBookingExample(t *testing.T) {
	raw, err := os.ReadFile("../../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	start := strings.Index(doc, "## Worked example: a booking in the demo business")
	if start < 0 {
		t.Fatal("docs/api.md has no worked example of a booking")
	}
	section := doc[start:]
	section = section[:strings.Index(section[3:], "\n## ")+3]

	d := dbtest.Open(t, filepath.Join(t.TempDir(), db.FileName))
	if _, err := importer.Load(context.Background(), d, importer.Demo(), docsExampleNow); err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, db: d, now: docsExampleNow}
	f.api = New(d, Options{Now: func() time.Time { return f.now }, Log: testLogger(t), Links: fixturePublicURL})
	root := chi.NewRouter()
	root.Mount("/v3", f.api.Routes())
	f.srv = httptest.NewServer(root)
	t.Cleanup(f.srv.Close)
	f.key = f.newKey(apikey.FullAccess)
	get := func(path string) []byte {
		t.Helper()
		resp, raw := f.call("GET", path, nil)
		return wantStatus(t, resp, raw, http.StatusOK)
	}

	// The tables: each row's id answers with the names, zones, durations, prices and links shown.
	type named struct {
		ID         int64  `json:"id"`
		Name       string `json:"name"`
		PublicName string `json:"public_name"`
		Timezone   string `json:"timezone"`
		Duration   int    `json:"duration"`
		Price      string `json:"price"`
	}
	// ids lists the ids of a list answer, in order, as the tables write them ("1, 2, 10").
	ids := func(path string) string {
		var list struct{ Data []named }
		if err := json.Unmarshal(get(path), &list); err != nil {
			t.Fatal(err)
		}
		var out []int64
		for _, n := range list.Data {
			out = append(out, n.ID)
		}
		slices.Sort(out)
		texts := make([]string, len(out))
		for i, id := range out {
			texts[i] = strconv.FormatInt(id, 10)
		}
		return strings.Join(texts, ", ")
	}
	// table returns the rows of the table whose first header cell is header, as cells.
	table := func(header string) [][]string {
		t.Helper()
		var rows [][]string
		lines := strings.Split(section, "\n")
		i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "| "+header+" |") })
		if i < 0 {
			t.Fatalf("the worked example has no table of %ss", header)
		}
		for _, l := range lines[i+2:] {
			if !strings.HasPrefix(l, "|") {
				break
			}
			var cells []string
			for _, c := range strings.Split(strings.Trim(l, "|"), "|") {
				cells = append(cells, strings.TrimSpace(c))
			}
			rows = append(rows, cells)
		}
		if len(rows) == 0 {
			t.Fatalf("the table of %ss is empty", header)
		}
		return rows
	}
	for _, r := range table("location id") { // id, name, zone, hours
		type hours struct {
			DayID int    `json:"day_id"`
			Open  string `json:"open"`
			Close string `json:"close"`
		}
		var l struct {
			Name     string  `json:"name"`
			Timezone string  `json:"timezone"`
			Times    []hours `json:"times"`
		}
		json.Unmarshal(get("/v3/locations/"+r[0]), &l)
		// The hours as the table writes them: runs of days with the same hours, Monday first.
		var runs []string
		names := []string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
		slices.SortFunc(l.Times, func(a, b hours) int { return (a.DayID+6)%7 - (b.DayID+6)%7 })
		for i := 0; i < len(l.Times); {
			j := i
			for j+1 < len(l.Times) && l.Times[j+1].DayID == (l.Times[j].DayID+1)%7 &&
				l.Times[j+1].Open == l.Times[i].Open && l.Times[j+1].Close == l.Times[i].Close {
				j++
			}
			days := names[l.Times[i].DayID]
			if j > i {
				days += "–" + names[l.Times[j].DayID]
			}
			runs = append(runs, days+" "+l.Times[i].Open+"–"+l.Times[i].Close)
			i = j + 1
		}
		if l.Name != r[1] || l.Timezone != r[2] || strings.Join(runs, ", ") != r[3] {
			t.Errorf("location %s is %q in %s, open %s; the page says %q in %s, open %s", r[0], l.Name, l.Timezone, strings.Join(runs, ", "), r[1], r[2], r[3])
		}
	}
	for _, r := range table("service id") { // id, name, minutes, price
		var s named
		json.Unmarshal(get("/v3/services/"+r[0]), &s)
		if s.Name != r[1] || strconv.Itoa(s.Duration) != r[2] || !strings.HasPrefix(r[3], s.Price) {
			t.Errorf("service %s is %q, %d minutes, %s; the page says %q, %s minutes, %s", r[0], s.Name, s.Duration, s.Price, r[1], r[2], r[3])
		}
	}
	for _, r := range table("provider id") { // id, name, location ids, service ids
		var p named
		json.Unmarshal(get("/v3/providers/"+r[0]), &p)
		var at []string
		for _, loc := range []string{"1", "2"} {
			if slices.Contains(strings.Split(ids("/v3/providers?per_page=100&location_ids="+loc), ", "), r[0]) {
				at = append(at, loc)
			}
		}
		offers := ids("/v3/services?per_page=100&provider_id=" + r[0])
		if p.PublicName != r[1] || strings.Join(at, ", ") != r[2] || offers != r[3] {
			t.Errorf("provider %s is %q at %s offering %s; the page says %q at %s offering %s", r[0], p.PublicName, strings.Join(at, ", "), offers, r[1], r[2], r[3])
		}
	}

	// The requests and the answers shown, in order: the GET, its answer, the POST, its body, its
	// answer.
	blocks := regexp.MustCompile("(?s)```(http|json)\n(.*?)```").FindAllStringSubmatch(section, -1)
	if len(blocks) != 5 || blocks[0][1] != "http" || blocks[2][1] != "http" {
		t.Fatalf("found %d code blocks in the worked example, want GET, its answer, POST, its body and its answer", len(blocks))
	}
	getLine, shownSlots, postLine, body, shownBooking := strings.TrimSpace(blocks[0][2]), blocks[1][2], strings.TrimSpace(blocks[2][2]), blocks[3][2], blocks[4][2]

	path, ok := strings.CutPrefix(getLine, "GET ")
	if !ok {
		t.Fatalf("the first request is %q, want a GET", getLine)
	}
	resp, realSlots := f.call("GET", path, nil)
	wantStatus(t, resp, realSlots, http.StatusOK)
	validateResponse(t, "listAvailableSlots", resp, realSlots)
	type slotsAnswer struct {
		Data struct {
			Slots    []json.RawMessage `json:"slots"`
			Metadata json.RawMessage   `json:"metadata"`
		} `json:"data"`
	}
	var shown, real slotsAnswer
	if err := json.Unmarshal([]byte(shownSlots), &shown); err != nil {
		t.Fatalf("the slots shown are not JSON: %v", err)
	}
	json.Unmarshal(realSlots, &real)
	if !sameJSON(shown.Data.Metadata, real.Data.Metadata) || len(shown.Data.Slots) == 0 || len(shown.Data.Slots) > len(real.Data.Slots) {
		t.Errorf("the slots answer shown:\n%s\nthe real one:\n%s", shownSlots, realSlots)
	}
	for i, s := range shown.Data.Slots {
		if i < len(real.Data.Slots) && !sameJSON(s, real.Data.Slots[i]) {
			t.Errorf("slot %d shown %s, real %s", i, s, real.Data.Slots[i])
		}
	}

	if postLine != "POST /v3/bookings" {
		t.Fatalf("the second request is %q, want POST /v3/bookings", postLine)
	}
	resp, booked := f.call("POST", "/v3/bookings", body)
	wantStatus(t, resp, booked, http.StatusCreated)
	validateResponse(t, "createBooking", resp, booked)
	var shownB, realB map[string]any
	if err := json.Unmarshal([]byte(shownBooking), &shownB); err != nil {
		t.Fatalf("the booking shown is not JSON: %v", err)
	}
	json.Unmarshal(booked, &realB)
	delete(shownB, "id")
	delete(realB, "id")
	if fmt.Sprint(shownB) != fmt.Sprint(realB) {
		shownJSON, _ := json.MarshalIndent(shownB, "", "  ")
		realJSON, _ := json.MarshalIndent(realB, "", "  ")
		t.Errorf("the booking shown (but its id):\n%s\nthe real answer:\n%s\n%s", shownJSON, realJSON, booked)
	}
}

// sameJSON reports whether two JSON texts hold the same value.
func sameJSON(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && fmt.Sprint(x) == fmt.Sprint(y)
}
