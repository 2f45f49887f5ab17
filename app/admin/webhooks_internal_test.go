package admin

import (
	"context"
	"testing"
	"time"
)

func TestCountdown(t *testing.T) {
	tests := []struct {
		name string
		in   time.Duration
		want string
	}{
		{"overdue", -time.Minute, "under a minute"},
		{"seconds", 59 * time.Second, "under a minute"},
		{"minutes", 12*time.Minute + 20*time.Second, "~12 min"},
		{"almost an hour", 59*time.Minute + 59*time.Second, "~1 h"},
		{"hours", 4*time.Hour + 40*time.Minute, "~5 h"},
		{"almost two days", 47*time.Hour + 45*time.Minute, "~2 days"},
		{"days", 70 * time.Hour, "~3 days"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := countdown(context.Background(), tc.in); got != tc.want {
				t.Errorf("countdown(%v) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
