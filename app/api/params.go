package api

import (
	"math"
	"net/http"
	"net/url"
	"strings"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/input"
	"frontdesk/app/resource"
)

// pathID reads the {id} path parameter: a canonical positive decimal (input.ParseID), otherwise
// 404 for that resource (an id that cannot exist names no resource, and "01" or "+1" is not
// another name for 1).
func pathID(r *http.Request, resourceName string) (int64, error) {
	id, ok := input.ParseID(chi.URLParam(r, "id"))
	if !ok {
		return 0, notFound(resourceName)
	}
	return id, nil
}

// queryKey carries a request's parsed query (rejectBadQuery parses it once; a list's filter
// reads ten parameters).
type queryKey struct{}

// query returns r's query parameters, parsed once per request. Treat them as read-only.
func query(r *http.Request) url.Values {
	if q, ok := r.Context().Value(queryKey{}).(url.Values); ok {
		return q
	}
	return r.URL.Query()
}

// queryValue reads a single-valued query parameter. Sent twice (client_id=1&client_id=2) it is
// a 400 "duplicate_<name>": which one the client meant cannot be guessed, and taking either
// silently would answer a question nobody asked.
func queryValue(r *http.Request, name string) (string, error) {
	vs := query(r)[name]
	switch len(vs) {
	case 0:
		return "", nil
	case 1:
		return vs[0], nil
	default:
		return "", badRequest("duplicate_" + name)
	}
}

// queryID reads an optional id query parameter (a canonical positive decimal); present but
// invalid → 400 "invalid_<name>".
func queryID(r *http.Request, name string) (int64, bool, error) {
	s, err := queryValue(r, name)
	if err != nil || s == "" {
		return 0, false, err
	}
	v, ok := input.ParseID(s)
	if !ok {
		return 0, false, badRequest("invalid_" + name)
	}
	return v, true, nil
}

// queryNumber reads an optional whole number in [1, max], written canonically; present but
// invalid → 400 "invalid_<name>".
func queryNumber(r *http.Request, name string, max int64) (int64, bool, error) {
	v, ok, err := queryID(r, name)
	if err == nil && ok && v > max {
		err = badRequest("invalid_" + name)
	}
	return v, ok, err
}

// queryIDs reads a list of positive integers given as repeated parameters, comma-separated
// values, or both (name=1,2&name=3). Rails-style name[]= is accepted too.
func queryIDs(r *http.Request, name string) ([]int64, error) {
	q := query(r)
	var out []int64
	for _, raw := range append(q[name], q[name+"[]"]...) {
		for _, s := range strings.Split(raw, ",") {
			if s = strings.TrimSpace(s); s == "" {
				continue
			}
			v, ok := input.ParseID(s)
			if !ok {
				return nil, badRequest("invalid_" + name)
			}
			out = append(out, v)
			if len(out) > 100 {
				return nil, badRequest("too_many_" + name)
			}
		}
	}
	return out, nil
}

// queryBool reads an optional boolean ("true"/"false"/"1"/"0").
func queryBool(r *http.Request, name string) (bool, bool, error) {
	s, err := queryValue(r, name)
	if err != nil {
		return false, false, err
	}
	switch s {
	case "":
		return false, false, nil
	case "true", "1":
		return true, true, nil
	case "false", "0":
		return false, true, nil
	default:
		return false, false, badRequest("invalid_" + name)
	}
}

// paging is a validated page request.
type paging struct{ Page, PerPage int64 }

func (p paging) Limit() int64  { return p.PerPage }
func (p paging) Offset() int64 { return (p.Page - 1) * p.PerPage }

// Pagination computes the response block for total records.
func (p paging) Pagination(total int64) resource.Pagination {
	return resource.NewPagination(p.Page, p.PerPage, total)
}

// maxPage keeps offsets far from overflow; nobody pages a million pages deep.
const maxPage = 1_000_000

func queryPaging(r *http.Request) (paging, error) {
	p := paging{Page: 1, PerPage: 30}
	if v, ok, err := queryNumber(r, "page", maxPage); err != nil {
		return p, err
	} else if ok {
		p.Page = v
	}
	if v, ok, err := queryNumber(r, "per_page", 100); err != nil {
		return p, err
	} else if ok {
		p.PerPage = v
	}
	if p.Offset() > math.MaxInt32 {
		return p, badRequest("invalid_page")
	}
	return p, nil
}

// boolParam turns an optional bool into sqlc's nullable filter argument.
func boolParam(v, ok bool) any {
	if !ok {
		return nil
	}
	return v
}
