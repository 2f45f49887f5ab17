package bench

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

func TestRawBookingsFreeAllSucceedAndRaceHasOneWinnerPerGroup(t *testing.T) {
	l := Load{Concurrency: 6, Warmup: 20 * time.Millisecond, Duration: 150 * time.Millisecond}
	g := testGrid(t, 15, 5, 60)

	free, overlaps, err := measureRaw(t, l, g, 0)
	if err != nil {
		t.Fatal(err)
	}
	if free.Succeeded == 0 || free.Refused != 0 || free.Errors != 0 || overlaps != 0 {
		t.Fatalf("free: got %d booked, %d refused, %d errors (%s), %d overlaps; want all booked",
			free.Succeeded, free.Refused, free.Errors, free.FirstError, overlaps)
	}

	race, overlaps, err := measureRaw(t, l, g, 6)
	if err != nil {
		t.Fatal(err)
	}
	if race.Succeeded == 0 || race.Refused == 0 || race.Errors != 0 {
		t.Fatalf("race: got %d wins, %d refused, %d errors (%s); want wins and refusals", race.Succeeded, race.Refused, race.Errors, race.FirstError)
	}
	if overlaps != 0 {
		t.Fatalf("race: got %d double bookings, want 0", overlaps)
	}
	// At most one winner per group of six: the recorded window can cut a group in two.
	if groups := (race.Ops + race.Errors + 2*6) / 6; race.Succeeded > groups {
		t.Fatalf("race: got %d wins for about %d groups, want at most one per group", race.Succeeded, groups)
	}
}

func TestJSONBaselineAnswers(t *testing.T) {
	b, err := startJSONBaseline()
	if err != nil {
		t.Fatal(err)
	}
	defer b.stop()
	c := newClient(b.URL, "", 2)
	defer c.close()
	f := Drive(context.Background(), Load{Concurrency: 2, Duration: 100 * time.Millisecond}, b.op(c))
	if f.Ops == 0 || f.Errors != 0 || f.Rate <= 0 {
		t.Fatalf("got %d ops, %d errors (%s), rate %.0f; want requests answered", f.Ops, f.Errors, f.FirstError, f.Rate)
	}
}

func measureRaw(t *testing.T, l Load, g grid, racers int) (Figures, int, error) {
	t.Helper()
	ctx := context.Background()
	r, err := openRawBookings(ctx, filepath.Join(t.TempDir(), rawName(racers)))
	if err != nil {
		t.Fatal(err)
	}
	defer r.close()
	f := Drive(ctx, l, r.op(g, racers))
	n, err := r.overlaps(ctx, f, racers)
	return f, n, err
}
