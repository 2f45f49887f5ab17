package db

import "testing"

// fromScratch skips, under the race detector, a test that applies the migrations to an empty
// database: each such test takes 10–80 s under it, and none runs anything concurrently for it
// to watch. .ci/run runs this package again without -race, so they run in CI all the same.
func fromScratch(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("applies the migrations from scratch: run without -race (.ci/run does)")
	}
}
