// Package resource holds the JSON shapes of frontdesk's public resources — what /v3 answers and
// what webhook payloads carry — and the functions that build them from database rows. sqlc rows
// never go on the wire: a column only reaches a client if a function here puts it there.
package resource

import (
	"database/sql"
	"fmt"
	"strings"
	"time"

	"frontdesk/app/money"
)

// Timestamp formats a stored instant as a record timestamp: ISO 8601 in UTC with a Z.
func Timestamp(ms int64) string { return time.UnixMilli(ms).UTC().Format(time.RFC3339) }

// NullTimestamp is Timestamp for optional instants.
func NullTimestamp(ms sql.NullInt64) *string {
	if !ms.Valid {
		return nil
	}
	s := Timestamp(ms.Int64)
	return &s
}

// LocalTime formats an instant in a location's zone, with that zone's offset at that instant.
func LocalTime(ms int64, zone *time.Location) string {
	return time.UnixMilli(ms).In(zone).Format(time.RFC3339)
}

// WallClock formats minutes since local midnight as HH:MM ("24:00" for 1440).
func WallClock(min int64) string { return fmt.Sprintf("%02d:%02d", min/60, min%60) }

// ParseWallClock reads HH:MM into minutes since midnight; "24:00" is allowed as an end.
func ParseWallClock(s string) (int64, error) {
	var h, m int64
	if len(s) != 5 || s[2] != ':' {
		return 0, fmt.Errorf("time %q: want HH:MM", s)
	}
	if _, err := fmt.Sscanf(s, "%02d:%02d", &h, &m); err != nil || h > 24 || m > 59 || (h == 24 && m != 0) {
		return 0, fmt.Errorf("time %q: want HH:MM between 00:00 and 24:00", s)
	}
	return h*60 + m, nil
}

// Money formats stored hundredths as a decimal string.
func Money(cents int64) string { return money.Cents(cents).String() }

// NullMoney is Money for optional amounts and percentages.
func NullMoney(v sql.NullInt64) *string {
	if !v.Valid {
		return nil
	}
	s := Money(v.Int64)
	return &s
}

// NullString turns a nullable column into a JSON string or null.
func NullString(s sql.NullString) *string {
	if !s.Valid {
		return nil
	}
	return &s.String
}

// NullInt turns a nullable column into a JSON integer or null.
func NullInt(v sql.NullInt64) *int64 {
	if !v.Valid {
		return nil
	}
	return &v.Int64
}

// NullFloat turns a nullable column into a JSON number or null.
func NullFloat(v sql.NullFloat64) *float64 {
	if !v.Valid {
		return nil
	}
	return &v.Float64
}

// Pagination is the paging block of every list response.
type Pagination struct {
	CurrentPage  int64  `json:"current_page"`
	PerPage      int64  `json:"per_page"`
	NextPage     *int64 `json:"next_page"`
	PrevPage     *int64 `json:"prev_page"`
	TotalRecords int64  `json:"total_records"`
	TotalPages   int64  `json:"total_pages"`
}

// NewPagination computes the paging block for page (1-based) of perPage records out of total.
func NewPagination(page, perPage, total int64) Pagination {
	p := Pagination{CurrentPage: page, PerPage: perPage, TotalRecords: total, TotalPages: (total + perPage - 1) / perPage}
	if page < p.TotalPages {
		n := page + 1
		p.NextPage = &n
	}
	if page > 1 {
		prev := min(page-1, max(p.TotalPages, 1))
		p.PrevPage = &prev
	}
	return p
}

// List is the envelope of every paginated list.
type List[T any] struct {
	Data       []T        `json:"data"`
	Pagination Pagination `json:"pagination"`
}

// ZoneName is the human part of an IANA zone name: "America/Santiago" → "Santiago".
func ZoneName(iana string) string {
	if i := strings.LastIndexByte(iana, '/'); i >= 0 {
		iana = iana[i+1:]
	}
	return strings.ReplaceAll(iana, "_", " ")
}

// ZoneOffset is the zone's UTC offset at t as "-03:00".
func ZoneOffset(zone *time.Location, t time.Time) string {
	return t.In(zone).Format("-07:00")
}
