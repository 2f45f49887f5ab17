package app

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// jsonLines writes every record byte for byte as slog's JSON handler with newLogger's options
// does, whether it encodes the record itself or hands it to slog.
func TestJSONLinesWriteAsSlog(t *testing.T) {
	at := time.Date(2026, 12, 3, 17, 4, 5, 123456789, time.FixedZone("", 3600))
	strs := []string{"", "plain", `quote " and \ back`, "tab\tnew\nline\rcr", "bell\b feed\f", "\x00\x01\x1f\x7f", "<html>&amp;",
		"ünïcödé ✓ 😀", "bad \xff\xfe utf8", "line\u2028para\u2029sep", strings.Repeat("long ", 5000)}
	records := []func() slog.Record{
		func() slog.Record { // the access line
			r := slog.NewRecord(at, slog.LevelInfo, "http", 0)
			r.AddAttrs(slog.String("request_id", "01JX"), slog.String("method", "GET"), slog.String("path", "/v3/bookings/1"),
				slog.Int("status", 200), slog.Int("bytes", 512), slog.Duration("duration", 1234567*time.Nanosecond),
				slog.String("remote", "127.0.0.1"))
			return r
		},
		func() slog.Record {
			r := slog.NewRecord(time.Time{}, slog.LevelWarn+1, "no time", 0)
			r.AddAttrs(slog.Bool("yes", true), slog.Uint64("big", 1<<63), slog.Int64("neg", -42))
			return r
		},
		func() slog.Record { // kinds slog encodes: a float, a time, an error, a group
			r := slog.NewRecord(at, slog.LevelError, "mixed", 0)
			r.AddAttrs(slog.Float64("f", 1.5), slog.Time("t", at), slog.Any("err", context.Canceled),
				slog.Group("g", slog.String("a", "b")), slog.Duration("d", 3*time.Second))
			return r
		},
		func() slog.Record {
			r := slog.NewRecord(at, slog.LevelInfo, "empty key", 0)
			r.AddAttrs(slog.Attr{}, slog.String("", "x"))
			return r
		},
		func() slog.Record {
			return slog.NewRecord(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), slog.LevelInfo, "far", 0)
		},
	}
	for _, s := range strs {
		records = append(records, func() slog.Record {
			r := slog.NewRecord(at, slog.LevelInfo, s, 0)
			r.AddAttrs(slog.String(s, s), slog.Duration("duration", 850*time.Microsecond))
			return r
		})
	}
	opts := &slog.HandlerOptions{Level: slog.LevelInfo, ReplaceAttr: readableDurations}
	for i, record := range records {
		var ours, theirs bytes.Buffer
		if err := newJSONLines(&ours, opts).Handle(context.Background(), record()); err != nil {
			t.Fatal(err)
		}
		if err := slog.NewJSONHandler(&theirs, opts).Handle(context.Background(), record()); err != nil {
			t.Fatal(err)
		}
		if ours.String() != theirs.String() {
			t.Errorf("record %d:\n got %q\nwant %q", i, ours.String(), theirs.String())
		}
	}
	// Derived handlers write through the same writer.
	var out bytes.Buffer
	log := slog.New(newJSONLines(&out, opts)).With("component", "test")
	log.Info("derived", "n", 1)
	if !strings.Contains(out.String(), `"msg":"derived","component":"test","n":1}`) {
		t.Errorf("derived handler wrote %q", out.String())
	}
}

func FuzzJSONLinesWriteAsSlog(f *testing.F) {
	f.Add("http", "path", "/v3/bookings/1", int64(200))
	f.Add("\xff\u2028", "\"\\", "\x00<>&", int64(-1))
	opts := &slog.HandlerOptions{Level: slog.LevelInfo, ReplaceAttr: readableDurations}
	at := time.Date(2026, 12, 3, 17, 4, 5, 0, time.UTC)
	f.Fuzz(func(t *testing.T, msg, key, value string, n int64) {
		var ours, theirs bytes.Buffer
		record := func() slog.Record {
			r := slog.NewRecord(at, slog.LevelInfo, msg, 0)
			r.AddAttrs(slog.String(key, value), slog.Int64("n", n), slog.Duration("d", time.Duration(n)))
			return r
		}
		newJSONLines(&ours, opts).Handle(context.Background(), record())
		slog.NewJSONHandler(&theirs, opts).Handle(context.Background(), record())
		if ours.String() != theirs.String() {
			t.Errorf("got %q\nwant %q", ours.String(), theirs.String())
		}
	})
}

// BenchmarkAccessLine prints the cost of one access line through slog's JSON handler and
// through jsonLines.
func BenchmarkAccessLine(b *testing.B) {
	opts := &slog.HandlerOptions{Level: slog.LevelInfo, ReplaceAttr: readableDurations}
	line := slog.NewRecord(time.Now(), slog.LevelInfo, "http", 0)
	line.AddAttrs(slog.String("request_id", "01JXYZABCDEFGH"), slog.String("method", "GET"),
		slog.String("path", "/v3/bookings/1"), slog.Int("status", 200), slog.Int("bytes", 512),
		slog.Duration("duration", 1234567*time.Nanosecond), slog.String("remote", "127.0.0.1"))
	for _, h := range []struct {
		name string
		h    slog.Handler
	}{{"slog", slog.NewJSONHandler(io.Discard, opts)}, {"jsonLines", newJSONLines(io.Discard, opts)}} {
		b.Run(h.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				h.h.Handle(context.Background(), line)
			}
		})
	}
}
