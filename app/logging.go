package app

import (
	"io"
	"log/slog"
	"os"
	"time"
)

// Log formats (--log-format, FRONTDESK_LOG_FORMAT; README "Logs").
const (
	logText = "text" // key=value lines for a person at a terminal
	logJSON = "json" // one JSON object per line, for journald, docker logs and log collectors
)

// logFormat is the format serve logs in: the one asked for, or else JSON under systemd (which
// sets JOURNAL_STREAM and INVOCATION_ID for its services) or wherever standard error is not a
// terminal (a pipe, a file, a container's log), and text on a terminal.
func logFormat(env Env, asked string) string {
	if asked != "" {
		return asked
	}
	if env.Getenv("JOURNAL_STREAM") != "" || env.Getenv("INVOCATION_ID") != "" {
		return logJSON
	}
	if f, ok := env.Stderr.(*os.File); ok && isTerminal(f) {
		return logText
	}
	return logJSON
}

// newLogger is the process logger on w, in format (logText or logJSON). Durations are written
// as Go durations rounded to what a person reads ("35ms", "1.2s", "2m5s") in both formats —
// strings in JSON, which time.ParseDuration and log tools read back — rather than slog's JSON
// default of integer nanoseconds. JSON lines are slog's, the access log's written quicker
// (logjson.go).
func newLogger(w io.Writer, format string) *slog.Logger {
	opts := &slog.HandlerOptions{Level: slog.LevelInfo, ReplaceAttr: readableDurations}
	if format == logText {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(newJSONLines(w, opts))
}

func readableDurations(groups []string, a slog.Attr) slog.Attr {
	switch a.Value.Kind() {
	case slog.KindDuration:
		return slog.String(a.Key, readableDuration(a.Value.Duration()))
	case slog.KindAny:
		// With ReplaceAttr set, a handler passes the record's level through it as a value of
		// any kind, which the JSON handler would write through encoding/json (Level's
		// MarshalJSON) on every line; its name as a string is written the same, for less.
		if l, ok := a.Value.Any().(slog.Level); ok && a.Key == slog.LevelKey && len(groups) == 0 {
			return slog.String(a.Key, l.String())
		}
	}
	return a
}

// readableDuration rounds d to two or three significant digits, down to a microsecond.
func readableDuration(d time.Duration) string {
	abs := d.Abs()
	switch {
	case abs >= time.Minute:
		d = d.Round(time.Second)
	case abs >= 10*time.Second:
		d = d.Round(100 * time.Millisecond)
	case abs >= time.Second:
		d = d.Round(10 * time.Millisecond)
	case abs >= 10*time.Millisecond:
		d = d.Round(100 * time.Microsecond)
	case abs >= time.Millisecond:
		d = d.Round(10 * time.Microsecond)
	default:
		d = d.Round(time.Microsecond)
	}
	return d.String()
}
