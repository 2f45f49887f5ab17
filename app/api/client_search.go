package api

import (
	"cmp"
	"database/sql"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"frontdesk/app/resource"
	"frontdesk/db"
)

// Quick search bounds, from the reference.
const (
	maxQueryRunes      = 50
	defaultSearchLimit = 10
	maxSearchLimit     = 25
	// trigram is the shortest query the full-text index can answer.
	trigram = 3
	// aboveAll sorts after any character, so q+aboveAll bounds the strings that start with q.
	aboveAll = "\U0010FFFF"
	// tierArms is how many lookups an exact or prefix tier unites: one client can come back that
	// many times, so a tier fetches that many times the rows it may need.
	tierArms = 7
)

// quickSearchClients finds active clients by name, email, phone, identification number or
// record number: exact matches first, then prefixes, then (for three or more characters)
// anything containing q. Each tier is one LIMITed query on an index, so a common query costs
// the same as a rare one; within a tier the hits are ordered by name.
func (a *API) quickSearchClients(w http.ResponseWriter, r *http.Request) {
	q, err := queryValue(r, "q")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	q = strings.TrimSpace(q)
	switch {
	case q == "":
		a.writeError(w, r, badRequest("missing_q"))
		return
	case !utf8.ValidString(q) || strings.ContainsFunc(q, isControl):
		a.writeError(w, r, badRequest("invalid_q"))
		return
	case utf8.RuneCountInString(q) > maxQueryRunes:
		a.writeError(w, r, badRequest("q_too_long"))
		return
	}
	limit := int64(defaultSearchLimit)
	if v, ok, err := queryNumber(r, "limit", maxSearchLimit); err != nil {
		a.writeError(w, r, err)
		return
	} else if ok {
		limit = v
	}
	hits, err := a.searchClients(r, q, limit)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Data []resource.ClientSearchResult `json:"data"`
	}{hits})
}

// clientHit is a search row, whichever tier's query produced it.
type clientHit struct {
	ID                   int64
	FirstName            string
	LastName             sql.NullString
	Email                sql.NullString
	Phone                sql.NullString
	IdentificationNumber sql.NullString
	RecordNumber         sql.NullString
}

func (a *API) searchClients(r *http.Request, q string, limit int64) ([]resource.ClientSearchResult, error) {
	ctx := r.Context()
	lower := strings.ToLower(q)
	var first, rest, restEnd string
	if f, l, ok := strings.Cut(q, " "); ok {
		first, rest = f, strings.TrimSpace(l)
		restEnd = rest + aboveAll
	}
	seen := map[int64]bool{}
	out := []resource.ClientSearchResult{}
	// add appends one tier's new hits, ordered by name, until the limit.
	add := func(hits []clientHit) {
		hits = slices.DeleteFunc(hits, func(h clientHit) bool {
			dup := seen[h.ID]
			seen[h.ID] = true
			return dup
		})
		slices.SortStableFunc(hits, func(x, y clientHit) int {
			return cmp.Or(strings.Compare(fullName(x), fullName(y)), cmp.Compare(x.ID, y.ID))
		})
		for _, h := range hits {
			if int64(len(out)) == limit {
				return
			}
			out = append(out, resource.NewClientSearchResult(h.ID, h.FirstName, h.LastName, h.Email, h.Phone, h.IdentificationNumber, h.RecordNumber))
		}
	}
	exact, err := a.db.R.SearchClientsExact(ctx, db.SearchClientsExactParams{
		Lower: text(lower), Q: text(q), First: first, Rest: text(rest), Limit: limit * tierArms,
	})
	if err != nil {
		return nil, err
	}
	add(convertHits(exact, func(c db.SearchClientsExactRow) clientHit { return clientHit(c) }))
	prefix, err := a.db.R.SearchClientsPrefix(ctx, db.SearchClientsPrefixParams{
		Lower: text(lower), LowerEnd: text(lower + aboveAll), Q: text(q), QEnd: text(q + aboveAll),
		First: first, Rest: text(rest), RestEnd: text(restEnd), Limit: (limit + int64(len(out))) * tierArms,
	})
	if err != nil {
		return nil, err
	}
	add(convertHits(prefix, func(c db.SearchClientsPrefixRow) clientHit { return clientHit(c) }))
	if int64(len(out)) == limit || utf8.RuneCountInString(q) < trigram {
		return out, nil
	}
	// A quoted FTS5 phrase is literal text: only '"' needs escaping, by doubling.
	phrase := `"` + strings.ReplaceAll(q, `"`, `""`) + `"`
	containing, err := a.db.R.SearchClientsContaining(ctx, db.SearchClientsContainingParams{Phrase: phrase, Limit: limit + int64(len(out))})
	if err != nil {
		return nil, err
	}
	add(convertHits(containing, func(c db.SearchClientsContainingRow) clientHit { return clientHit(c) }))
	return out, nil
}

func convertHits[T any](rows []T, conv func(T) clientHit) []clientHit {
	out := make([]clientHit, len(rows))
	for i, r := range rows {
		out[i] = conv(r)
	}
	return out
}

func fullName(h clientHit) string { return strings.ToLower(h.FirstName + " " + h.LastName.String) }

func text(s string) sql.NullString { return sql.NullString{String: s, Valid: true} }
