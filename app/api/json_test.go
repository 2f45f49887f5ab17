package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// BenchmarkDecodeBookingBody is the JSON half of POST /v3/bookings: the body the bench's
// create_booking sends, decoded and checked as createBooking does.
func BenchmarkDecodeBookingBody(b *testing.B) {
	body := []byte(`{"start_time":"2026-11-24T11:00:00-03:00","service_id":1,"provider_id":2,"client_id":1,"location_id":1,"status_id":1}`)
	b.ReportAllocs()
	for b.Loop() {
		var v bookingBody
		if err := decodeObject(body, &v); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzOptUnmarshal holds Opt's direct reading of integers and strings to json.Unmarshal's: the
// same value, or the same error, for any valid JSON value.
func FuzzOptUnmarshal(f *testing.F) {
	for _, v := range []string{`1`, `-0`, `0`, `-12`, `9223372036854775807`, `9223372036854775808`, `-9223372036854775808`,
		`1.5`, `1e3`, `"x"`, `""`, `"a\"b"`, `"\u00e9"`, "\"\xff\"", `"é"`, `null`, `true`, `[1]`, `{"a":1}`} {
		f.Add([]byte(v))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			return
		}
		b = bytes.TrimSpace(b) // as encoding/json hands a value over
		var n Opt[int64]
		var wantN int64
		gotErr, wantErr := n.UnmarshalJSON(b), json.Unmarshal(b, &wantN)
		if string(b) != "null" && (fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || n.V != wantN) {
			t.Fatalf("Opt[int64] of %q: %d, %v; json.Unmarshal: %d, %v", b, n.V, gotErr, wantN, wantErr)
		}
		var s Opt[string]
		var wantS string
		gotErr, wantErr = s.UnmarshalJSON(b), json.Unmarshal(b, &wantS)
		if string(b) != "null" && (fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || s.V != wantS) {
			t.Fatalf("Opt[string] of %q: %q, %v; json.Unmarshal: %q, %v", b, s.V, gotErr, wantS, wantErr)
		}
	})
}
