//go:build race

package app

// raceEnabled: the race detector instruments allocations too, so counts of them mean nothing.
const raceEnabled = true
