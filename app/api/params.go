package api

import (
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/resource"
)

// pathID reads the {id} path parameter: a positive integer, otherwise 404 for that resource
// (an id that cannot exist names no resource).
func pathID(r *http.Request, resourceName string) (int64, error) {
	id, err := strconv.ParseInt(chi.URLParam(r, "id"), 10, 64)
	if err != nil || id < 1 {
		return 0, notFound(resourceName)
	}
	return id, nil
}

// queryID reads an optional positive integer query parameter; present but invalid → 400
// "invalid_<name>".
func queryID(r *http.Request, name string) (int64, bool, error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		return 0, false, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 1 {
		return 0, false, badRequest("invalid_" + name)
	}
	return v, true, nil
}

// queryIDs reads a list of positive integers given as repeated parameters, comma-separated
// values, or both (name=1,2&name=3). Rails-style name[]= is accepted too.
func queryIDs(r *http.Request, name string) ([]int64, error) {
	q := r.URL.Query()
	var out []int64
	for _, raw := range append(q[name], q[name+"[]"]...) {
		for _, s := range strings.Split(raw, ",") {
			if s = strings.TrimSpace(s); s == "" {
				continue
			}
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil || v < 1 {
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
	switch r.URL.Query().Get(name) {
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
	q := r.URL.Query()
	if s := q.Get("page"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v < 1 || v > maxPage {
			return p, badRequest("invalid_page")
		}
		p.Page = v
	}
	if s := q.Get("per_page"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v < 1 || v > 100 {
			return p, badRequest("invalid_per_page")
		}
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
