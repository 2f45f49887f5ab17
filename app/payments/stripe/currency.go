package stripe

import "strings"

// Stripe wants amounts in a currency's smallest unit, which is not always a hundredth
// (https://docs.stripe.com/currencies): the zero-decimal currencies take whole units (CLP 15000
// is 15000, not 1500000) and the three-decimal ones thousandths with a last digit of 0. ISK,
// HUF and TWD are charged as two-decimal amounts, which is what frontdesk stores.
var zeroDecimal = map[string]bool{
	"BIF": true, "CLP": true, "DJF": true, "GNF": true, "JPY": true, "KMF": true, "KRW": true, "MGA": true,
	"PYG": true, "RWF": true, "UGX": true, "VND": true, "VUV": true, "XAF": true, "XOF": true, "XPF": true,
}

var threeDecimal = map[string]bool{"BHD": true, "JOD": true, "KWD": true, "OMR": true, "TND": true}

// toMinor converts hundredths of currency to Stripe's unit. A zero-decimal amount with a
// fraction of a unit is rounded half up (frontdesk rounds amounts it charges to whole units of
// such currencies before they get here, so this only guards).
func toMinor(currency string, cents int64) int64 {
	switch c := strings.ToUpper(currency); {
	case zeroDecimal[c]:
		return (cents + 50) / 100
	case threeDecimal[c]:
		return cents * 10
	}
	return cents
}

// fromMinor converts Stripe's unit to hundredths; ok is false when the amount has no exact
// value in hundredths (a three-decimal amount whose last digit is not 0).
func fromMinor(currency string, minor int64) (cents int64, ok bool) {
	switch c := strings.ToUpper(currency); {
	case zeroDecimal[c]:
		return minor * 100, true
	case threeDecimal[c]:
		return minor / 10, minor%10 == 0
	}
	return minor, true
}
