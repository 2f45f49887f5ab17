package app

import (
	"encoding/json"
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
