package mcp_test

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Two assistants, each in its own MCP session, book the same time at the same moment: one
// gets it, the other is told "just taken" with other free times that day — which it can book —
// and the provider is never double-booked.
func TestTwoSessionsBookingTheSameTime(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a, b := f.connect(f.newKey("", true)), f.connect(f.newKey("", true))
	slotIDs := regexp.MustCompile(`slot_id (slot_[A-Za-z0-9_-]+)`)
	const rounds = 4
	for round := range rounds {
		var ft freeTimes
		ok(t, a, "find_free_times", map[string]any{"location_id": 1, "service_id": 1, "provider_id": providerBen, "date": "2027-04-03"}, &ft)
		if len(ft.Slots) == 0 {
			t.Fatalf("round %d: no free slot left", round)
		}
		target := ft.Slots[0]
		var wg sync.WaitGroup
		start := make(chan struct{})
		results := make([]toolResult, 2)
		errs := make([]error, 2)
		for i, cs := range []*sdk.ClientSession{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				results[i], errs[i] = tryCall(cs, "book", map[string]any{
					"slot_id": target.SlotID, "client_id": []int{clientMaria, clientJohn}[i], "idempotency_key": fmt.Sprintf("r%d-%d", round, i),
				})
			}()
		}
		close(start)
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatalf("round %d: book: %v", round, err)
			}
		}
		won, lost := results[0], results[1]
		if won.isError {
			won, lost = lost, won
		}
		if won.isError || !lost.isError {
			t.Fatalf("round %d: want one success and one refusal, got %q and %q", round, results[0].text, results[1].text)
		}
		if !strings.HasPrefix(lost.text, "just_taken: slot_id:") || !strings.Contains(lost.text, "Free times still open") {
			t.Fatalf("round %d: loser got %q, want just_taken with alternatives", round, lost.text)
		}
		alts := slotIDs.FindAllStringSubmatch(lost.text, -1)
		if len(alts) == 0 || strings.Contains(lost.text, target.SlotID) {
			t.Fatalf("round %d: alternatives %q: want some, without the taken time", round, lost.text)
		}
		if round == 0 { // the alternatives are real: the loser books one
			ok(t, b, "book", map[string]any{"slot_id": alts[0][1], "client_id": clientJohn, "idempotency_key": "alt"}, nil)
		}
	}
	if n := count(t, f, `SELECT count(*) FROM bookings WHERE status_id <> 5`); n != rounds+1 {
		t.Fatalf("%d bookings, want %d", n, rounds+1)
	}
	if n := count(t, f, `SELECT count(*) FROM bookings x JOIN bookings y ON x.id < y.id AND x.provider_id = y.provider_id
		AND x.status_id <> 5 AND y.status_id <> 5 AND x.block_start_at < y.block_end_at AND y.block_start_at < x.block_end_at`); n != 0 {
		t.Fatalf("%d overlapping pairs of bookings", n)
	}
}
