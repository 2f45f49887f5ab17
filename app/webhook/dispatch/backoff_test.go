package dispatch

import (
	"errors"
	"flag"
	"io"
	"math"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"frontdesk/app/webhook"
)

const defaultScheduleFlag = "0s,5s,5m,30m,2h,5h,10h,14h,20h,24h"

func constRnd(v float64) func() float64 { return func() float64 { return v } }

func TestDefaultSchedule(t *testing.T) {
	s := webhook.DefaultSchedule()
	if got := s.String(); got != defaultScheduleFlag {
		t.Errorf("DefaultSchedule().String() = %q, want %q", got, defaultScheduleFlag)
	}
	parsed, err := webhook.ParseSchedule(defaultScheduleFlag)
	if err != nil {
		t.Fatalf("ParseSchedule(%q): %v", defaultScheduleFlag, err)
	}
	if !slices.Equal(parsed, s) {
		t.Errorf("ParseSchedule(%q) = %v, want %v", defaultScheduleFlag, parsed, s)
	}
	if got, want := s.Remaining(1), 75*time.Hour+35*time.Minute+5*time.Second; got != want {
		t.Errorf("Remaining(1) = %v, want %v", got, want)
	}
	if got := s.Remaining(9); got != 24*time.Hour {
		t.Errorf("Remaining(9) = %v, want 24h", got)
	}
	if got := s.Remaining(10); got != 0 {
		t.Errorf("Remaining(10) = %v, want 0", got)
	}
}

func TestParseSchedule(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    webhook.Schedule
		wantErr string
	}{
		{name: "test schedule", in: "0s,1s,2s", want: webhook.Schedule{0, time.Second, 2 * time.Second}},
		{name: "single", in: "0s", want: webhook.Schedule{0}},
		{name: "spaces", in: " 0s , 100ms,1m30s ", want: webhook.Schedule{0, 100 * time.Millisecond, 90 * time.Second}},
		{name: "bare zero", in: "0", want: webhook.Schedule{0}},
		{name: "seven days", in: "168h", want: webhook.Schedule{168 * time.Hour}},
		{name: "empty", in: "", wantErr: "empty"},
		{name: "blank", in: "   ", wantErr: "empty"},
		{name: "empty entry", in: "0s,,5m", wantErr: "entry 2 is empty"},
		{name: "trailing comma", in: "0s,5s,", wantErr: "entry 3 is empty"},
		{name: "no unit", in: "0s,5", wantErr: `entry 2 "5" is not a duration`},
		{name: "days unit", in: "1d", wantErr: `entry 1 "1d" is not a duration`},
		{name: "garbage", in: "soon", wantErr: `"soon" is not a duration`},
		{name: "negative", in: "0s,-5s", wantErr: `entry 2 "-5s" is negative`},
		{name: "too long", in: "0s,169h", wantErr: `entry 2 "169h" is longer than 168h`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := webhook.ParseSchedule(tt.in)
			if tt.wantErr != "" {
				if err == nil || !errors.Is(err, webhook.ErrInvalidSchedule) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("ParseSchedule(%q) = %v, %v; want ErrInvalidSchedule containing %q", tt.in, got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseSchedule(%q): %v", tt.in, err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("ParseSchedule(%q) = %v, want %v", tt.in, got, tt.want)
			}
			if again, err := webhook.ParseSchedule(got.String()); err != nil || !slices.Equal(again, got) {
				t.Errorf("round trip via %q = %v, %v; want %v", got.String(), again, err, got)
			}
		})
	}
}

func TestScheduleIsAFlag(t *testing.T) {
	s := webhook.DefaultSchedule()
	fs := flag.NewFlagSet("frontdesk", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Var(&s, "webhook-retry-schedule", "delays before each delivery attempt")
	if err := fs.Parse([]string{"--webhook-retry-schedule=0s,10ms,20ms"}); err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if want := (webhook.Schedule{0, 10 * time.Millisecond, 20 * time.Millisecond}); !slices.Equal(s, want) {
		t.Errorf("after flag parse got %v, want %v", s, want)
	}
	if err := fs.Parse([]string{"--webhook-retry-schedule=-1s"}); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("flag parse of -1s: got error %v, want one mentioning negative", err)
	}
}

func TestNextAttempt(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	s := webhook.DefaultSchedule()
	tests := []struct {
		name    string
		attempt int
		outcome Outcome
		rnd     func() float64
		want    Verdict
		delay   time.Duration // checked only for Retry
	}{
		{name: "200 delivered", attempt: 1, outcome: Outcome{Status: 200}, want: Delivered},
		{name: "204 delivered", attempt: 3, outcome: Outcome{Status: 204}, want: Delivered},
		{name: "299 delivered", attempt: 1, outcome: Outcome{Status: 299}, want: Delivered},
		{name: "2xx on last attempt delivered", attempt: 10, outcome: Outcome{Status: 200}, want: Delivered},
		{name: "410 gone at once", attempt: 1, outcome: Outcome{Status: 410}, want: Gone},
		{name: "410 on last attempt still gone", attempt: 10, outcome: Outcome{Status: 410}, want: Gone},
		{name: "500 after attempt 1 waits 5s", attempt: 1, outcome: Outcome{Status: 500}, want: Retry, delay: 5 * time.Second},
		{name: "network error after attempt 2 waits 5m", attempt: 2, outcome: Outcome{}, want: Retry, delay: 5 * time.Minute},
		{name: "redirect is a failure", attempt: 1, outcome: Outcome{Status: 302}, want: Retry, delay: 5 * time.Second},
		{name: "404 is retried", attempt: 4, outcome: Outcome{Status: 404}, want: Retry, delay: 2 * time.Hour},
		{name: "199 is a failure", attempt: 1, outcome: Outcome{Status: 199}, want: Retry, delay: 5 * time.Second},
		{name: "300 is a failure", attempt: 1, outcome: Outcome{Status: 300}, want: Retry, delay: 5 * time.Second},
		{name: "attempt 9 waits 24h", attempt: 9, outcome: Outcome{Status: 500}, want: Retry, delay: 24 * time.Hour},
		{name: "last attempt exhausted", attempt: 10, outcome: Outcome{Status: 500}, want: Exhausted},
		{name: "network error on last attempt exhausted", attempt: 10, outcome: Outcome{}, want: Exhausted},
		{name: "past the end exhausted", attempt: 11, outcome: Outcome{Status: 503}, want: Exhausted},
		{name: "attempt 0 treated as 1", attempt: 0, outcome: Outcome{Status: 500}, want: Retry, delay: 5 * time.Second},

		{name: "jitter low bound", attempt: 1, outcome: Outcome{Status: 500}, rnd: constRnd(0), want: Retry, delay: 4 * time.Second},
		{name: "jitter high bound", attempt: 1, outcome: Outcome{Status: 500}, rnd: constRnd(1), want: Retry, delay: 6 * time.Second},
		{name: "jitter middle", attempt: 3, outcome: Outcome{Status: 500}, rnd: constRnd(0.5), want: Retry, delay: 30 * time.Minute},
		{name: "jitter quarter", attempt: 3, outcome: Outcome{Status: 500}, rnd: constRnd(0.25), want: Retry, delay: 27 * time.Minute},
		{name: "rnd above 1 clamped", attempt: 1, outcome: Outcome{Status: 500}, rnd: constRnd(7), want: Retry, delay: 6 * time.Second},
		{name: "rnd below 0 clamped", attempt: 1, outcome: Outcome{Status: 500}, rnd: constRnd(-3), want: Retry, delay: 4 * time.Second},

		{name: "429 early waits at least 30s", attempt: 1, outcome: Outcome{Status: 429}, want: Retry, delay: 30 * time.Second},
		{name: "429 doubles a longer delay", attempt: 3, outcome: Outcome{Status: 429}, rnd: constRnd(0), want: Retry, delay: 48 * time.Minute},
		{name: "502 doubles", attempt: 4, outcome: Outcome{Status: 502}, want: Retry, delay: 4 * time.Hour},
		{name: "504 doubles", attempt: 5, outcome: Outcome{Status: 504}, want: Retry, delay: 10 * time.Hour},
		{name: "503 not slowed", attempt: 1, outcome: Outcome{Status: 503}, want: Retry, delay: 5 * time.Second},
		{name: "slow-down capped at 24h", attempt: 8, outcome: Outcome{Status: 429}, want: Retry, delay: 24 * time.Hour},
		{name: "slow-down never shortens the schedule", attempt: 9, outcome: Outcome{Status: 429}, rnd: constRnd(1), want: Retry, delay: 28*time.Hour + 48*time.Minute},

		{name: "retry-after longer than schedule wins", attempt: 1, outcome: Outcome{Status: 503, RetryAfter: 2 * time.Minute}, want: Retry, delay: 2 * time.Minute},
		{name: "retry-after shorter than schedule ignored", attempt: 2, outcome: Outcome{Status: 503, RetryAfter: time.Second}, rnd: constRnd(0), want: Retry, delay: 4 * time.Minute},
		{name: "retry-after zero ignored", attempt: 1, outcome: Outcome{Status: 500, RetryAfter: 0}, want: Retry, delay: 5 * time.Second},
		{name: "retry-after out of bounds capped at 24h", attempt: 1, outcome: Outcome{Status: 503, RetryAfter: 30 * 24 * time.Hour}, want: Retry, delay: 24 * time.Hour},
		{name: "retry-after saturated capped at 24h", attempt: 1, outcome: Outcome{Status: 429, RetryAfter: math.MaxInt64}, want: Retry, delay: 24 * time.Hour},
		{name: "retry-after beats slow-down", attempt: 1, outcome: Outcome{Status: 429, RetryAfter: 10 * time.Minute}, want: Retry, delay: 10 * time.Minute},
		{name: "slow-down beats retry-after", attempt: 1, outcome: Outcome{Status: 429, RetryAfter: 10 * time.Second}, want: Retry, delay: 30 * time.Second},
		{name: "retry-after on 410 still gone", attempt: 1, outcome: Outcome{Status: 410, RetryAfter: time.Hour}, want: Gone},
		{name: "retry-after on last attempt still exhausted", attempt: 10, outcome: Outcome{Status: 503, RetryAfter: time.Minute}, want: Exhausted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := NextAttempt(s, tt.attempt, tt.outcome, now, tt.rnd)
			if got.Verdict != tt.want {
				t.Fatalf("NextAttempt(attempt %d, %+v).Verdict = %v, want %v", tt.attempt, tt.outcome, got.Verdict, tt.want)
			}
			if tt.want != Retry {
				if !got.Next.IsZero() || got.Delay != 0 {
					t.Errorf("NextAttempt(...) = %+v, want zero Next and Delay for %v", got, tt.want)
				}
				return
			}
			if got.Delay != tt.delay {
				t.Errorf("Delay = %v, want %v", got.Delay, tt.delay)
			}
			if want := now.Add(tt.delay); !got.Next.Equal(want) {
				t.Errorf("Next = %v, want %v", got.Next, want)
			}
		})
	}
}

// Every step of the default schedule stays within ±20 % for any rnd value,
// and the same rnd always gives the same answer.
func TestNextAttemptJitterBounds(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	s := webhook.DefaultSchedule()
	for attempt := 1; attempt < len(s); attempt++ {
		step := s[attempt]
		lo := time.Duration(math.Floor(float64(step) * 0.8))
		hi := time.Duration(math.Ceil(float64(step) * 1.2))
		for _, r := range []float64{0, 0.1, 0.5, 0.9, 0.999999, 1} {
			d := NextAttempt(s, attempt, Outcome{Status: 500}, now, constRnd(r))
			if d.Delay < lo || d.Delay > hi {
				t.Errorf("attempt %d rnd %v: delay %v, want within [%v, %v]", attempt, r, d.Delay, lo, hi)
			}
			if again := NextAttempt(s, attempt, Outcome{Status: 500}, now, constRnd(r)); again != d {
				t.Errorf("attempt %d rnd %v: got %+v then %+v, want identical", attempt, r, d, again)
			}
		}
	}
}

func TestZeroDelayScheduleStaysZero(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	s := webhook.Schedule{0, 0, 0}
	for _, r := range []float64{0, 1} {
		if d := NextAttempt(s, 1, Outcome{Status: 500}, now, constRnd(r)); d.Delay != 0 || !d.Next.Equal(now) {
			t.Errorf("rnd %v: got %+v, want Delay 0 and Next now", r, d)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	later := now.Add(90 * time.Second)
	tests := []struct {
		name   string
		header string
		want   time.Duration
		wantOK bool
	}{
		{name: "seconds", header: "120", want: 2 * time.Minute, wantOK: true},
		{name: "zero", header: "0", want: 0, wantOK: true},
		{name: "spaces", header: " 7 ", want: 7 * time.Second, wantOK: true},
		{name: "IMF-fixdate", header: later.Format(http.TimeFormat), want: 90 * time.Second, wantOK: true},
		{name: "RFC 850 date", header: later.Format("Monday, 02-Jan-06 15:04:05 GMT"), want: 90 * time.Second, wantOK: true},
		{name: "asctime date", header: later.Format(time.ANSIC), want: 90 * time.Second, wantOK: true},
		{name: "date in the past means now", header: now.Add(-time.Hour).Format(http.TimeFormat), want: 0, wantOK: true},
		{name: "largest exact seconds", header: "9223372036", want: 9223372036 * time.Second, wantOK: true},
		{name: "seconds past Duration saturate", header: "9223372037", want: math.MaxInt64, wantOK: true},
		{name: "seconds past uint64 saturate", header: "99999999999999999999999", want: math.MaxInt64, wantOK: true},
		{name: "empty", header: "", wantOK: false},
		{name: "negative", header: "-5", wantOK: false},
		{name: "plus sign", header: "+5", wantOK: false},
		{name: "fraction", header: "1.5", wantOK: false},
		{name: "unit", header: "5s", wantOK: false},
		{name: "garbage", header: "tomorrow", wantOK: false},
		{name: "ISO 8601 is not an HTTP-date", header: "2026-03-01T12:01:30Z", wantOK: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseRetryAfter(tt.header, now)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("ParseRetryAfter(%q) = %v, %v; want %v, %v", tt.header, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestOutcomeOf(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	if got := OutcomeOf(nil, now); got != (Outcome{}) {
		t.Errorf("OutcomeOf(nil) = %+v, want zero Outcome", got)
	}
	resp := &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {"60"}}}
	if got, want := OutcomeOf(resp, now), (Outcome{Status: 429, RetryAfter: time.Minute}); got != want {
		t.Errorf("OutcomeOf(429, Retry-After 60) = %+v, want %+v", got, want)
	}
	resp = &http.Response{StatusCode: 500, Header: http.Header{"Retry-After": {"later"}}}
	if got, want := OutcomeOf(resp, now), (Outcome{Status: 500}); got != want {
		t.Errorf("OutcomeOf(500, bad Retry-After) = %+v, want %+v", got, want)
	}
}

func TestVerdictString(t *testing.T) {
	for v, want := range map[Verdict]string{Delivered: "delivered", Retry: "retry", Exhausted: "exhausted", Gone: "gone", 0: "Verdict(0)"} {
		if got := v.String(); got != want {
			t.Errorf("Verdict(%d).String() = %q, want %q", int(v), got, want)
		}
	}
}
