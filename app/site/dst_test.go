package site_test

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

var timeLinkRE = regexp.MustCompile(`aria-label="([^"]*)" data-testid="time" data-start="([^"]+)">([^<]*)(?:<small>([^<]*)</small>)?`)

type shownTime struct{ spoken, start, label, offset string }

func shownTimes(body string) []shownTime {
	var out []shownTime
	for _, m := range timeLinkRE.FindAllStringSubmatch(body, -1) {
		out = append(out, shownTime{m[1], m[2], strings.TrimSpace(m[3]), m[4]})
	}
	return out
}

// On the Santiago fall-back evening (Saturday 4 April 2026, 24:00 becomes 23:00) the 23:30 that
// happens twice is offered twice, labelled with each offset, and booking each stores its own
// instant. On the spring-forward night (Sunday 6 September 2026, 00:00 becomes 01:00) no time
// of the missing hour is offered.
func TestRepeatedAndMissingHours(t *testing.T) {
	f := newFixture(t)
	ana := strconv.FormatInt(f.ana, 10)
	res := f.get("/book/1/1/times?provider=" + ana + "&date=2026-04-04")
	wantStatus(t, res, http.StatusOK)
	var twenty330 []shownTime
	for _, st := range shownTimes(res.body) {
		if st.label == "23:30" {
			twenty330 = append(twenty330, st)
		}
		if st.offset != "" && st.label != "23:00" && st.label != "23:30" {
			t.Errorf("%s is labelled with an offset though it happens once", st.label)
		}
	}
	if len(twenty330) != 2 {
		t.Fatalf("23:30 offered %d times on the fall-back evening, want 2: %v", len(twenty330), shownTimes(res.body))
	}
	if twenty330[0].offset != "UTC−3" || twenty330[1].offset != "UTC−4" {
		t.Errorf("the two 23:30s are labelled %q and %q, want UTC−3 and UTC−4", twenty330[0].offset, twenty330[1].offset)
	}
	for _, st := range twenty330 {
		if !strings.Contains(st.spoken, "Saturday, 4 April 2026, 23:30 ("+st.offset+")") {
			t.Errorf("spoken label %q does not tell the two apart", st.spoken)
		}
	}

	wantUTC := []time.Time{time.Date(2026, 4, 5, 2, 30, 0, 0, time.UTC), time.Date(2026, 4, 5, 3, 30, 0, 0, time.UTC)}
	for i, st := range twenty330 {
		at, err := time.Parse(time.RFC3339, st.start)
		if err != nil {
			t.Fatal(err)
		}
		manage := f.book(1, f.details(1, f.ana, at))
		page := f.get(manage)
		wantBody(t, page, "Saturday, 4 April 2026, 23:30 ("+st.offset+")")
		var stored int64
		if err := f.db.Read.QueryRow(`SELECT start_at FROM bookings ORDER BY id DESC LIMIT 1`).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if got := time.UnixMilli(stored).UTC(); !got.Equal(wantUTC[i]) {
			t.Errorf("booking the %s 23:30 stored %v, want %v", st.offset, got, wantUTC[i])
		}
	}

	res = f.get("/book/1/1/times?provider=" + ana + "&date=2026-09-06")
	wantStatus(t, res, http.StatusOK)
	times := shownTimes(res.body)
	if len(times) == 0 || times[0].label != "01:00" {
		t.Fatalf("spring-forward day starts at %v, want 01:00 first", times)
	}
	for _, st := range times {
		if strings.HasPrefix(st.label, "00:") {
			t.Errorf("%s offered on the spring-forward day: that hour does not exist", st.label)
		}
	}
	// A crafted link to the missing hour is not a time the site offers.
	missing := time.Date(2026, 9, 6, 0, 30, 0, 0, time.FixedZone("", -4*3600)) // would be 00:30 −04 = 01:30 −03
	res = f.get(detailsPath(1, f.ana, missing))
	if res.status != http.StatusOK {
		t.Fatalf("status %d", res.status)
	}
	wantBody(t, res, "Sunday, 6 September 2026, 01:30") // the instant, shown as the clock reads it
}

// When one of the two 23:30s of the fall-back evening is taken, the one left is still labelled
// with its offset: "23:30" alone does not say that it is the second one, an hour later than the
// customer may think.
func TestRepeatedTimeLabelledWhenItsTwinIsTaken(t *testing.T) {
	f := newFixture(t)
	f.book(haircut, f.details(haircut, f.ana, time.Date(2026, 4, 5, 2, 30, 0, 0, time.UTC))) // 23:30 UTC−3
	res := f.get("/book/1/1/times?provider=" + strconv.FormatInt(f.ana, 10) + "&date=2026-04-04")
	wantStatus(t, res, http.StatusOK)
	var left []shownTime
	for _, st := range shownTimes(res.body) {
		if st.label == "23:30" {
			left = append(left, st)
		}
	}
	if len(left) != 1 {
		t.Fatalf("23:30 offered %d times with one of them booked, want 1: %v", len(left), shownTimes(res.body))
	}
	if left[0].offset != "UTC−4" || !strings.Contains(left[0].spoken, "23:30 (UTC−4)") {
		t.Errorf("the 23:30 left is shown as %+v, want it labelled UTC−4", left[0])
	}
}

// The zone is said as people say it — the place and the offset of the day shown — not as an
// IANA name: Santiago is UTC−3 until the night of 4 April 2026 and UTC−4 after it, in English
// and in Spanish, on the booking picker, the reschedule picker and a form that asks for a
// time again.
func TestZoneNamedWithOffset(t *testing.T) {
	f := newFixture(t)
	times := "/book/1/1/times?provider=" + strconv.FormatInt(f.ana, 10) + "&date="
	for date, want := range map[string]string{"2026-03-31": "Santiago time (UTC−3)", "2026-04-06": "Santiago time (UTC−4)"} {
		res := f.get(times + date)
		wantStatus(t, res, http.StatusOK)
		wantBody(t, res, `data-testid="site-zone">All times are `+want+`.<`)
		if strings.Contains(res.body, "America/Santiago") {
			t.Errorf("%s: the page names the zone by its IANA name", date)
		}
	}
	manage := f.bookAt(time.Date(2026, 3, 31, 10, 0, 0, 0, santiago))
	wantBody(t, f.get(manage+"/reschedule?date=2026-04-07"), "All times are Santiago time (UTC−4).")
	// A form sent without a time offers the day's times, with the zone of that day.
	form := f.details(haircut, f.ana, time.Date(2026, 3, 31, 11, 0, 0, 0, santiago))
	form.Del("start")
	wantBody(t, f.post("/book/1/1/details", form), `<p class="hint">All times are Santiago time (UTC−3).</p>`)

	f.exec(`UPDATE company SET language = 'es'`)
	wantBody(t, f.get(times+"2026-04-06"), "Todos los horarios están en hora de Santiago (UTC−4).")
}
