package booking

import "fmt"

// Queries that would return hundreds of small rows (the bookings of a busy day) return
// them packed into one text instead — decimal integers separated by single spaces, '' for none
// — because modernc SQLite spends more on handing over each row and column than on finding
// it. These read that text back, with a loop over the digits rather than strconv.

// eachInt calls fn for each integer of packed.
func eachInt(packed string, fn func(int64)) error {
	for i := 0; i < len(packed); i++ {
		neg := packed[i] == '-'
		if neg {
			i++
		}
		start := i
		var x int64
		for ; i < len(packed) && packed[i] != ' '; i++ {
			c := packed[i]
			if c < '0' || c > '9' || i-start >= 18 {
				return fmt.Errorf("packed integers: unexpected %q", packed)
			}
			x = x*10 + int64(c-'0')
		}
		if i == start || i == len(packed)-1 { // an empty field, or a space at the end
			return fmt.Errorf("packed integers: empty field in %q", packed)
		}
		if neg {
			x = -x
		}
		fn(x)
	}
	return nil
}

// eachTriple calls fn for each triple of integers of packed.
func eachTriple(packed string, fn func(a, b, c int64)) error {
	var v [3]int64
	n := 0
	err := eachInt(packed, func(x int64) {
		v[n%3] = x
		if n++; n%3 == 0 {
			fn(v[0], v[1], v[2])
		}
	})
	if err == nil && n%3 != 0 {
		err = fmt.Errorf("packed integers: %d is not a whole number of triples", n)
	}
	return err
}
