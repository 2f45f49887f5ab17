package mailer_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"frontdesk/app/messages"
)

// The writer keeps the parsed message plan under a change counter (loadPlan, migration
// 00380). Settings written behind its back — plain SQL on the write pool, as another process
// or a restore would — must shape the very next booking's messages.
func TestKeptPlanFollowsSettingsWrites(t *testing.T) {
	e := newEnv(t, envOptions{})
	planned := func(v int64) (kinds []string) {
		for _, x := range e.entries(v) {
			k := string(x.Kind)
			if x.Kind == messages.Reminder {
				k = fmt.Sprintf("reminder/%v", x.Offset)
			}
			kinds = append(kinds, k)
		}
		slices.Sort(kinds)
		return kinds
	}
	day := time.Date(2026, 12, 3, 9, 0, 0, 0, santiago)
	check := func(what string, hour int, want ...string) {
		t.Helper()
		v := e.book("John", day.Add(time.Duration(hour)*time.Hour))
		if got := planned(v.Booking.ID); !slices.Equal(got, want) {
			t.Errorf("%s: planned %v, want %v", what, got, want)
		}
	}
	check("the default plan", 0, "confirmation", "reminder/24h0m0s", "reminder/2h0m0s")
	check("the plan again, kept", 1, "confirmation", "reminder/24h0m0s", "reminder/2h0m0s")

	if _, err := e.db.Write.Exec(`UPDATE message_kinds SET enabled = 0 WHERE kind = 'confirmation'`); err != nil {
		t.Fatal(err)
	}
	check("confirmations switched off", 2, "reminder/24h0m0s", "reminder/2h0m0s")

	if _, err := e.db.Write.Exec(`UPDATE message_settings SET reminder_offsets = '60' WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	check("one reminder an hour ahead", 3, "reminder/1h0m0s")

	if _, err := e.db.Write.Exec(`DELETE FROM message_kinds WHERE kind = 'reminder'`); err != nil {
		t.Fatal(err)
	}
	check("the reminder kind gone", 4)
}
