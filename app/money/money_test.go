package money

import "testing"

func TestParseAndString(t *testing.T) {
	cases := []struct {
		in   string
		want Cents
		out  string
		bad  bool
	}{
		{in: "15000", want: 1500000, out: "15000.0"},
		{in: "15000.0", want: 1500000, out: "15000.0"},
		{in: "12.5", want: 1250, out: "12.5"},
		{in: "12.55", want: 1255, out: "12.55"},
		{in: "0.05", want: 5, out: "0.05"},
		{in: "0", want: 0, out: "0.0"},
		{in: "", bad: true},
		{in: "-1", bad: true},
		{in: "1.", bad: true},
		{in: ".5", bad: true},
		{in: "1.234", bad: true},
		{in: "1e5", bad: true},
		{in: "1,5", bad: true},
		{in: " 1", bad: true},
		{in: "99999999999999", bad: true},
		{in: "12'; DROP TABLE x", bad: true},
	}
	for _, c := range cases {
		got, err := Parse(c.in)
		if c.bad {
			if err == nil {
				t.Errorf("Parse(%q) = %d, want error", c.in, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("Parse(%q) = %d, %v; want %d", c.in, got, err, c.want)
			continue
		}
		if s := got.String(); s != c.out {
			t.Errorf("String(%d) = %q, want %q", got, s, c.out)
		}
	}
}

func TestPercent(t *testing.T) {
	if got := Cents(1500000).Percent(1000); got != 150000 {
		t.Errorf("10%% of 15000.0: got %v, want 1500.0", got)
	}
	if got := Cents(999).Percent(1550); got != 155 {
		t.Errorf("15.5%% of 9.99: got %d, want 155", got)
	}
}

// An amount of the right form but past MaxCents is ErrTooLarge, which says the bound: it used to
// be ErrInvalid, whose message ("at most 2 decimals") does not say what is wrong with 9999999999999.99.
func TestTooLarge(t *testing.T) {
	if c, err := Parse("1000000000000"); err != nil || c != MaxCents {
		t.Fatalf("Parse(MaxCents) = %d, %v", c, err)
	}
	for _, s := range []string{"1000000000000.01", "9999999999999.99", "99999999999999", "0099999999999999", "123456789012345678901234567890"} {
		if _, err := Parse(s); err != ErrTooLarge {
			t.Errorf("Parse(%q): %v, want ErrTooLarge", s, err)
		}
	}
	if _, err := Parse("99999999999999.999"); err != ErrInvalid {
		t.Errorf("three decimals: %v, want ErrInvalid", err)
	}
	if want := "must be at most 1000000000000.0"; ErrTooLarge.Error() != want {
		t.Errorf("ErrTooLarge says %q, want %q", ErrTooLarge, want)
	}
}
