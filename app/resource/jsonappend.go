package resource

import (
	"strconv"

	"frontdesk/app/jsontext"
)

// The functions below write JSON by appending to a byte slice, for the few answers that are
// large enough for encoding/json's reflection to be a visible share of a request (a day of
// slots is some 47 KB). Their output is byte for byte what encoding/json produces with HTML
// escaping off, the /v3 writer's setting (strings by app/jsontext); the tests compare the two.

func appendJSONInt(b []byte, v int64) []byte { return strconv.AppendInt(b, v, 10) }

func appendJSONNullString(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return jsontext.String(b, *s)
}

func appendJSONNullInt(b []byte, v *int64) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	return appendJSONInt(b, *v)
}

// appendJSON appends the paging block as encoding/json would.
func (p Pagination) appendJSON(b []byte) []byte {
	b = append(b, `{"current_page":`...)
	b = appendJSONInt(b, p.CurrentPage)
	b = append(b, `,"per_page":`...)
	b = appendJSONInt(b, p.PerPage)
	b = append(b, `,"next_page":`...)
	b = appendJSONNullInt(b, p.NextPage)
	b = append(b, `,"prev_page":`...)
	b = appendJSONNullInt(b, p.PrevPage)
	b = append(b, `,"total_records":`...)
	b = appendJSONInt(b, p.TotalRecords)
	b = append(b, `,"total_pages":`...)
	b = appendJSONInt(b, p.TotalPages)
	return append(b, '}')
}
