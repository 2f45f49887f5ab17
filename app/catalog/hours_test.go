package catalog

import (
	"slices"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // the zone list is checked against the zones the binary embeds

	"frontdesk/ui/i18n"
)

func TestParseDay(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		breaks bool
		want   string // formatDay of the result
		err    string // part of the message; "" = valid
	}{
		{"empty is closed", "  ", false, "", ""},
		{"one range", "09:00-18:00", false, "09:00-18:00", ""},
		{"sorted, short hours, en dash, spaces", "14:00 – 19:00,9:00-13:00", false, "09:00-13:00, 14:00-19:00", ""},
		{"touching ranges", "09:00-13:00, 13:00-18:00", false, "09:00-13:00, 13:00-18:00", ""},
		{"until midnight", "18:00-24:00", false, "18:00-24:00", ""},
		{"the word to", "09:00 to 12:00", false, "09:00-12:00", ""},
		{"shift with breaks", "09:00-18:00 (13:00-14:00, 16:00-16:15), 19:00-21:00", true, "09:00-18:00 (13:00-14:00, 16:00-16:15), 19:00-21:00", ""},
		{"break at the shift's edge", "09:00-18:00 (09:00-09:30)", true, "09:00-18:00 (09:00-09:30)", ""},
		{"overlap", "09:00-13:00, 12:00-18:00", false, "", "overlap"},
		{"backwards", "18:00-09:00", false, "", "ends before it starts"},
		{"empty range", "09:00-09:00", false, "", "ends before it starts"},
		{"24:00 start", "24:00-24:00", false, "", "24:00 can only end"},
		{"past midnight", "22:00-24:30", false, "", "not a time range"},
		{"minutes 60", "09:60-10:00", false, "", "not a time range"},
		{"no dash", "0900 1800", false, "", "not a time range"},
		{"garbage", "<script>", false, "", "not a time range"},
		{"breaks not allowed", "09:00-18:00 (13:00-14:00)", false, "", "opening ranges only"},
		{"break outside its shift", "09:00-13:00 (12:30-13:30)", true, "", "not inside its shift"},
		{"overlapping breaks", "09:00-18:00 (12:00-13:00, 12:30-14:00)", true, "", "breaks 12:00-13:00 and 12:30-14:00 overlap"},
		{"unclosed parenthesis", "09:00-18:00 (13:00-14:00", true, "", "one pair of parentheses"},
		{"nested parentheses", "09:00-18:00 ((13:00-14:00))", true, "", "one pair of parentheses"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			shifts, msg := parseDay(tc.in, tc.breaks, false)
			if tc.err != "" {
				if !strings.Contains(msg, tc.err) {
					t.Fatalf("got message %q, want one containing %q", msg, tc.err)
				}
				return
			}
			if msg != "" {
				t.Fatalf("got message %q, want none", msg)
			}
			if got := formatDay(shifts, nil); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			// What is shown in the form reads back to the same hours.
			again, msg := parseDay(formatDay(shifts, nil), tc.breaks, false)
			if msg != "" || formatDay(again, nil) != tc.want {
				t.Errorf("round trip: got %q (%s), want %q", formatDay(again, nil), msg, tc.want)
			}
		})
	}
}

func TestParseKeywords(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
		err  string
	}{
		{"empty", " , ,", []string{}, ""},
		{"trimmed and spaces squeezed", "  hair ,  short   hair ", []string{"hair", "short hair"}, ""},
		{"repeats dropped ignoring case, first spelling kept", "Hair, hair, HAIR, cut", []string{"Hair", "cut"}, ""},
		{"50 characters", strings.Repeat("k", 50), []string{strings.Repeat("k", 50)}, ""},
		{"51 characters", strings.Repeat("k", 51), nil, "at most 50 characters"},
		{"20 keywords", keywords(20), nil, ""},
		{"21 keywords", keywords(21), nil, "at most 20"},
		{"control character", "a\x00b", nil, "control"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, msg := ParseKeywords(tc.in)
			if !strings.Contains(msg, tc.err) || (tc.err == "") != (msg == "") {
				t.Fatalf("got message %q, want %q", msg, tc.err)
			}
			if tc.want != nil && !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func keywords(n int) string {
	var ks []string
	for i := range n {
		ks = append(ks, "k"+strings.Repeat("x", i))
	}
	return strings.Join(ks, ",")
}

func TestZonesAndCountries(t *testing.T) {
	zs := Zones()
	if len(zs) < 400 {
		t.Fatalf("got %d zones, want the ~420 of zone.tab", len(zs))
	}
	for _, z := range zs {
		if _, err := time.LoadLocation(z); err != nil {
			t.Errorf("zone %q does not load from the embedded tzdata: %v", z, err)
		}
	}
	for _, z := range []string{"America/Santiago", "Asia/Kathmandu", "Europe/Kyiv", "UTC"} {
		if !IsZone(z) {
			t.Errorf("IsZone(%q) = false, want true", z)
		}
	}
	if IsZone("Mars/Olympus_Mons") || IsZone("Local") {
		t.Error("IsZone accepts a name that is not in the list")
	}
	cs := Countries()
	if len(cs) < 240 {
		t.Fatalf("got %d countries, want the ISO 3166 list", len(cs))
	}
	if c, ok := CountryByCode("CL"); !ok || c.Name != "Chile" {
		t.Errorf("CountryByCode(CL) = %+v, %v; want Chile", c, ok)
	}
	for _, c := range cs {
		if len(c.Code) != 2 || c.Name == "" {
			t.Errorf("malformed country %+v", c)
		}
	}
}

// On a 12-hour clock hours are typed and shown with am and pm: a time of 1:00 to 12:59 without
// them is refused (morning or evening?), 24-hour times past noon and 24:00 are still read, and
// what the form shows reads back to the same hours.
func TestParseDayTwelveHourClock(t *testing.T) {
	p := i18n.NewPrinter("es", i18n.Prefs{})
	twelve := Clock(func(m int64) string {
		if m == 1440 {
			return "24:00"
		}
		return p.Clock(int(m/60), int(m%60))
	})
	for _, tc := range []struct{ in, want, err string }{
		{"9:00 am-1:00 pm, 2:00 PM-7:30 p. m.", "9:00 a. m.-1:00 p. m., 2:00 p. m.-7:30 p. m.", ""},
		{"14:00-19:00 (15:00-3:30 pm)", "2:00 p. m.-7:00 p. m. (3:00 p. m.-3:30 p. m.)", ""},
		{"6 pm-24:00", "6:00 p. m.-24:00", ""},
		{"9:00-1:00 pm", "", "morning or evening"},
		{"9:00 am-5:00", "", "morning or evening"},
		{"13:00 pm-14:00", "", "not a time range"},
	} {
		shifts, msg := parseDay(tc.in, true, true)
		if tc.err != "" {
			if !strings.Contains(msg, tc.err) {
				t.Errorf("%q: got message %q, want one containing %q", tc.in, msg, tc.err)
			}
			continue
		}
		if msg != "" {
			t.Errorf("%q: got message %q", tc.in, msg)
			continue
		}
		if got := formatDay(shifts, twelve); got != tc.want {
			t.Errorf("%q: shown as %q, want %q", tc.in, got, tc.want)
		}
		if again, msg := parseDay(formatDay(shifts, twelve), true, true); msg != "" || formatDay(again, nil) != formatDay(shifts, nil) {
			t.Errorf("%q: round trip gives %q (%s)", tc.in, formatDay(again, nil), msg)
		}
	}
}
