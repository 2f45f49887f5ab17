package booking

import (
	"reflect"
	"testing"
)

func TestEachTriple(t *testing.T) {
	cases := []struct {
		name    string
		packed  string
		want    [][3]int64
		wantErr bool
	}{
		{"none", "", nil, false},
		{"one", "3 1700000000000 1700000900000", [][3]int64{{3, 1700000000000, 1700000900000}}, false},
		{"two, negative", "1 -5 0 2 10 20", [][3]int64{{1, -5, 0}, {2, 10, 20}}, false},
		{"largest 18 digits", "1 999999999999999999 2", [][3]int64{{1, 999999999999999999, 2}}, false},
		{"not a whole triple", "1 2", nil, true},
		{"letters", "1 2 x", nil, true},
		{"double space", "1  2 3", nil, true},
		{"trailing space", "1 2 3 ", nil, true},
		{"lone minus", "1 - 3", nil, true},
		{"too long to fit", "1 2 1234567890123456789", nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got [][3]int64
			err := eachTriple(c.packed, func(a, b, x int64) { got = append(got, [3]int64{a, b, x}) })
			if (err != nil) != c.wantErr {
				t.Fatalf("eachTriple(%q): got error %v, want error %v", c.packed, err, c.wantErr)
			}
			if !c.wantErr && !reflect.DeepEqual(got, c.want) {
				t.Fatalf("eachTriple(%q): got %v, want %v", c.packed, got, c.want)
			}
		})
	}
}
