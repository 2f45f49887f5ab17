// Package money converts between the API's decimal strings ("15000.0", "12.5") and the
// database's integer hundredths, so no amount ever passes through a float.
package money

import (
	"errors"
	"strconv"
	"strings"
)

// Cents is an amount in hundredths of the currency unit. Percentages use the same scale
// (hundredths of a percent), so one parser serves both.
type Cents int64

// MaxCents bounds parsed amounts well inside int64 (and inside what JavaScript clients can hold).
const MaxCents = 1_000_000_000_000_00

// ErrInvalid is returned for anything that is not a non-negative decimal with at most two
// fractional digits.
var ErrInvalid = errors.New("must be a non-negative decimal string with at most 2 decimals, e.g. \"15000\" or \"12.50\"")

// ErrTooLarge is returned for a decimal of the right form above MaxCents, so the message says
// what is wrong with it.
var ErrTooLarge = errors.New("must be at most " + Cents(MaxCents).String())

// Parse reads "15000", "15000.0", "12.5" or "12.55".
func Parse(s string) (Cents, error) {
	whole, frac, hasDot := strings.Cut(s, ".")
	if whole == "" || (hasDot && (frac == "" || len(frac) > 2)) {
		return 0, ErrInvalid
	}
	for _, part := range []string{whole, frac} {
		for _, r := range part {
			if r < '0' || r > '9' {
				return 0, ErrInvalid
			}
		}
	}
	if len(whole) > 13 {
		if len(strings.TrimLeft(whole, "0")) > 13 {
			return 0, ErrTooLarge
		}
		return 0, ErrInvalid
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return 0, ErrInvalid
	}
	var f int64
	if frac != "" {
		f, _ = strconv.ParseInt(frac, 10, 64)
		if len(frac) == 1 {
			f *= 10
		}
	}
	c := Cents(w*100 + f)
	if c > MaxCents {
		return 0, ErrTooLarge
	}
	return c, nil
}

// String formats with at least one decimal, as Connect v3 does: 1500000 → "15000.0",
// 1250 → "12.5", 1255 → "12.55".
func (c Cents) String() string {
	neg := c < 0
	if neg {
		c = -c
	}
	s := strconv.FormatInt(int64(c/100), 10)
	frac := int64(c % 100)
	switch {
	case frac == 0:
		s += ".0"
	case frac%10 == 0:
		s += "." + strconv.FormatInt(frac/10, 10)
	default:
		s += "." + strconv.FormatInt(100+frac, 10)[1:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// Percent applies a percentage given in hundredths of a percent (1000 = 10 %), rounding half up.
func (c Cents) Percent(bp int64) Cents {
	return Cents((int64(c)*bp + 5000) / 10000)
}
