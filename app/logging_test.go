package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Durations read as a person reads them, in both formats: a string such as "35ms" or "1.2s"
// that time.ParseDuration reads back, never integer nanoseconds.
func TestLogDurationsReadable(t *testing.T) {
	for d, want := range map[time.Duration]string{
		1234567 * time.Nanosecond:                  "1.23ms",
		35*time.Millisecond + 123*time.Microsecond: "35.1ms",
		1234 * time.Millisecond:                    "1.23s",
		83*time.Second + 456*time.Millisecond:      "1m23s",
		850*time.Microsecond + 400:                 "850µs",
	} {
		if got := readableDuration(d); got != want {
			t.Errorf("readableDuration(%d) = %q, want %q", d, got, want)
		}
	}
	for _, format := range []string{"json", "text"} {
		srv := serveInProcess(t, newDataDir(t), []string{"--addr", "127.0.0.1:0"}, "FRONTDESK_LOG_FORMAT="+format)
		res, err := http.Get(srv.URL + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		srv.stop()
		var got string
		for _, line := range strings.Split(srv.logs.String(), "\n") {
			if format == "json" {
				var e struct {
					Msg, Path string
					Duration  any
				}
				if json.Unmarshal([]byte(line), &e) == nil && e.Msg == "http" && e.Path == "/healthz" {
					got, _ = e.Duration.(string)
				}
			} else if m := regexp.MustCompile(`msg=http .*path=/healthz .*duration=(\S+)`).FindStringSubmatch(line); m != nil {
				got = m[1]
			}
		}
		if _, err := time.ParseDuration(got); err != nil {
			t.Errorf("%s: the access line's duration %q does not read as a duration:\n%s", format, got, srv.logs)
		}
	}
}

// The level is written as slog writes it without ReplaceAttr, in both formats, at every level
// (a level between the named ones too): readableDurations writes it as a string, which the
// JSON handler would otherwise encode through encoding/json on every line.
func TestLogLevelWrittenAsSlogWritesIt(t *testing.T) {
	for _, format := range []string{logJSON, logText} {
		for _, level := range []slog.Level{slog.LevelInfo, slog.LevelWarn, slog.LevelError, slog.LevelInfo + 2} {
			var ours, plain bytes.Buffer
			reference := slog.New(slog.NewJSONHandler(&plain, nil))
			if format == logText {
				reference = slog.New(slog.NewTextHandler(&plain, nil))
			}
			at := time.Date(2026, 12, 2, 15, 0, 0, 0, time.UTC)
			for _, l := range []*slog.Logger{newLogger(&ours, format), reference} {
				r := slog.NewRecord(at, level, "hello", 0)
				r.AddAttrs(slog.String("path", "/v3/services/1"), slog.Any("level", "nested key, not the record's"))
				if err := l.Handler().Handle(context.Background(), r); err != nil {
					t.Fatal(err)
				}
			}
			if ours.String() != plain.String() {
				t.Errorf("%s at %v: got %q, want %q", format, level, ours.String(), plain.String())
			}
		}
	}
	// An access log line costs no more allocations than slog's own handler takes for it.
	line := slog.NewRecord(time.Now(), slog.LevelInfo, "http", 0)
	line.AddAttrs(slog.String("method", "GET"), slog.Int("status", 200), slog.Duration("duration", time.Millisecond))
	allocs := func(h slog.Handler) float64 {
		return testing.AllocsPerRun(100, func() { h.Handle(context.Background(), line) })
	}
	ours, plain := allocs(newLogger(io.Discard, logJSON).Handler()), allocs(slog.NewJSONHandler(io.Discard, nil))
	// The readable duration is one string more than slog's integer.
	if ours > plain+1 && !raceEnabled {
		t.Errorf("a JSON line costs %v allocations, slog's own handler %v", ours, plain)
	}
}
