//go:build race

package db

// raceEnabled: the tests that apply the migrations from scratch skip (fromScratch).
const raceEnabled = true
