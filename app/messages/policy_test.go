package messages

import (
	"strings"
	"testing"
	"time"
)

// Segment counts parts as SMS carries them: GSM-7 (160, or 153 per part of a longer text; an
// extension character takes two septets and is never split), UCS-2 as soon as one character is
// outside GSM-7 (70, or 67 per part; an emoji is a surrogate pair, never split).
func TestSegmentTable(t *testing.T) {
	a := func(n int) string { return strings.Repeat("a", n) }
	u := func(n int) string { return strings.Repeat("á", n) } // á is not in GSM-7
	for _, c := range []struct {
		name     string
		text     string
		encoding string
		units    int
		segments int
	}{
		{"empty", "", EncodingGSM7, 0, 0},
		{"GSM 1", "Hola", EncodingGSM7, 4, 1},
		{"GSM 160", a(160), EncodingGSM7, 160, 1},
		{"GSM 161", a(161), EncodingGSM7, 161, 2},
		{"GSM 306", a(306), EncodingGSM7, 306, 2},
		{"GSM 307", a(307), EncodingGSM7, 307, 3},
		{"Spanish with á and í is UCS-2", "Mañana él irá à São? ¿Sí?", EncodingUCS2, 25, 1}, // á, ã, í are not GSM-7
		{"GSM-7 with ñ, é and the basic set", "Manana el N @£$¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ!\"#¤%&'()*+,-./:;<=>?¡ÄÖÑÜ§¿äöñüà\n\r", EncodingGSM7, 76, 1},
		{"extension 80 × { = 160 septets", strings.Repeat("{", 80), EncodingGSM7, 160, 1},
		{"extension 159 + € = 161 septets", a(159) + "€", EncodingGSM7, 161, 2},
		{"extension not split", a(152) + "€" + a(152), EncodingGSM7, 306, 3},
		{"extension fits at the end", a(151) + "€" + a(153), EncodingGSM7, 306, 2},
		{"extension set", "\f^{}\\[~]|€", EncodingGSM7, 20, 1},
		{"UCS-2 70", u(70), EncodingUCS2, 70, 1},
		{"UCS-2 71", u(71), EncodingUCS2, 71, 2},
		{"UCS-2 134", u(134), EncodingUCS2, 134, 2},
		{"UCS-2 135", u(135), EncodingUCS2, 135, 3},
		{"one emoji makes the text UCS-2", a(69) + "😀", EncodingUCS2, 71, 2},
		{"35 emoji = 70 units", strings.Repeat("😀", 35), EncodingUCS2, 70, 1},
		{"36 emoji = 72 units", strings.Repeat("😀", 36), EncodingUCS2, 72, 2},
		{"emoji not split", u(66) + "😀" + u(66), EncodingUCS2, 134, 3},
		{"emoji fits at the end", u(65) + "😀" + u(67), EncodingUCS2, 134, 2},
	} {
		got := Segment(c.text)
		if got.Encoding != c.encoding || got.Units != c.units || got.Segments != c.segments {
			t.Errorf("%s: %+v, want %s %d units %d segments", c.name, got, c.encoding, c.units, c.segments)
		}
	}
}

// Quiet hours are wall times of the location's zone: the span on a daylight-saving night is an
// hour shorter or longer, and its end is the instant the clocks show its end.
func TestQuietWindowAcrossDST(t *testing.T) {
	scl, err := time.LoadLocation("America/Santiago")
	if err != nil {
		t.Fatal(err)
	}
	q := Quiet{Enabled: true, Start: 21 * 60, End: 8 * 60}
	utc := func(y int, m time.Month, d, h, min int) time.Time { return time.Date(y, m, d, h, min, 0, 0, time.UTC) }
	for _, c := range []struct {
		name       string
		t          time.Time
		inside     bool
		start, end time.Time
	}{
		// Summer (UTC−3): 21:00 is 00:00Z, 08:00 is 11:00Z.
		{"summer night", utc(2026, 11, 24, 5, 0), true, utc(2026, 11, 24, 0, 0), utc(2026, 11, 24, 11, 0)},
		{"summer, one minute before", utc(2026, 11, 23, 23, 59), false, time.Time{}, time.Time{}},
		{"summer, at the start", utc(2026, 11, 24, 0, 0), true, utc(2026, 11, 24, 0, 0), utc(2026, 11, 24, 11, 0)},
		{"summer, at the end", utc(2026, 11, 24, 11, 0), false, time.Time{}, time.Time{}},
		// 6 September 2026: clocks go from 00:00 to 01:00 (UTC−4 → UTC−3): 21:00 on the 5th is
		// 01:00Z, 08:00 on the 6th is 11:00Z — ten hours.
		{"spring forward", utc(2026, 9, 6, 5, 0), true, utc(2026, 9, 6, 1, 0), utc(2026, 9, 6, 11, 0)},
		{"spring forward, 07:59 local", utc(2026, 9, 6, 10, 59), true, utc(2026, 9, 6, 1, 0), utc(2026, 9, 6, 11, 0)},
		{"spring forward, 08:00 local", utc(2026, 9, 6, 11, 0), false, time.Time{}, time.Time{}},
		// 5 April 2026: clocks go from 00:00 back to 23:00 (UTC−3 → UTC−4): 21:00 on the 4th
		// is 00:00Z on the 5th, 08:00 on the 5th is 12:00Z — twelve hours.
		{"fall back", utc(2026, 4, 5, 11, 30), true, utc(2026, 4, 5, 0, 0), utc(2026, 4, 5, 12, 0)},
		{"fall back, the repeated hour", utc(2026, 4, 5, 3, 30), true, utc(2026, 4, 5, 0, 0), utc(2026, 4, 5, 12, 0)},
	} {
		s, e, in := q.Window(c.t, scl)
		if in != c.inside || !s.Equal(c.start) || !e.Equal(c.end) {
			t.Errorf("%s: Window(%v) = %v %v %v, want %v %v %v", c.name, c.t, s.UTC(), e.UTC(), in, c.start, c.end, c.inside)
		}
	}
	// A reminder due at 03:00 on the spring-forward night goes at 20:59 the evening before.
	if got, want := q.BeforeQuiet(utc(2026, 9, 6, 6, 0), scl), utc(2026, 9, 6, 0, 59); !got.Equal(want) {
		t.Errorf("BeforeQuiet = %v, want %v", got.UTC(), want)
	}
	// A span within one day, and none.
	day := Quiet{Enabled: true, Start: 13 * 60, End: 14 * 60}
	if _, _, in := day.Window(utc(2026, 11, 24, 16, 30), scl); !in {
		t.Error("13:30 local is inside 13:00–14:00")
	}
	if _, _, in := day.Window(utc(2026, 11, 24, 17, 0), scl); in {
		t.Error("14:00 local is not inside 13:00–14:00")
	}
	if _, _, in := (Quiet{Start: 21 * 60, End: 8 * 60}).Window(utc(2026, 11, 24, 5, 0), scl); in {
		t.Error("quiet hours switched off still hold")
	}
}
