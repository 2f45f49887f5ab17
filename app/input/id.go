// Package input holds the checks every surface applies to what it is sent, so the API, the admin
// UI and the importer agree: ids are canonical decimal numbers (id.go), names are free of
// characters that hide or reorder text (name.go), and a JSON document never has a key twice in
// one object (jsondup.go). See docs/api.md, "Conventions". Forms are read whole by
// middleware.ReadForm, which belongs with HTTP.
package input

// maxIDDigits is the length of the largest int64, 9223372036854775807.
const maxIDDigits = 19

// ParseID reads a record id written the one canonical way: decimal digits without a sign, a
// leading zero, spaces or a fraction, from 1 to the largest int64. "01", "+1", "1.0" and " 1"
// are not ids, so a route never answers for a spelling nobody links to (and a cache or a log
// never sees two names for one record).
func ParseID(s string) (int64, bool) {
	if len(s) == 0 || len(s) > maxIDDigits || s[0] == '0' {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0') // 19 digits fit in a uint64
	}
	if n > 1<<63-1 {
		return 0, false
	}
	return int64(n), true
}
