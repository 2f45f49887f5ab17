//go:build race

package export_test

// raceEnabled: under the race detector the flat-memory tests' 110,000 bookings take minutes
// (every SQLite statement is instrumented), so they run without it: .ci/run runs them again
// without -race, after the race-detector run of the whole suite.
const raceEnabled = true
