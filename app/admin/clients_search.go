package admin

import (
	"context"
	"database/sql"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"frontdesk/db"
	"frontdesk/ui"
)

// Finding clients, for the client list and the client pickers of the booking pages, and the
// paging of lists.

const (
	// maxSearchRunes bounds the text of a search.
	maxSearchRunes = 100
	// trigramRunes is the shortest text the client search index answers (migration 00010).
	trigramRunes = 3
)

// clientMatch is one client found by findClients, whichever query found it.
type clientMatch struct {
	ID                             int64
	FirstName                      string
	LastName, Email, Phone, Record sql.NullString
	Active                         bool
}

func (c clientMatch) name() string { return clientName(c.FirstName, c.LastName) }

func clientName(first string, last sql.NullString) string {
	return strings.TrimSpace(first + " " + last.String)
}

// searchText cleans a typed search: valid UTF-8, no control characters, bounded.
func searchText(s string) string {
	s = strings.ToValidUTF8(s, "")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > maxSearchRunes {
		s = string([]rune(s)[:maxSearchRunes])
	}
	return s
}

// findClients returns one page of the clients matching text (name, email, phone,
// identification or record number; "" matches all) in name order, and how many match. A
// provider account finds only the clients of its own bookings, by name or phone.
func (a *Admin) findClients(ctx context.Context, text string, active sql.NullBool, limit, offset int64) ([]clientMatch, int64, error) {
	if pid := scopedProvider(ctx); pid != 0 {
		return a.providerClients(ctx, pid, text, limit, offset)
	}
	var out []clientMatch
	if utf8.RuneCountInString(text) >= trigramRunes {
		// A quoted FTS5 phrase is literal text: only '"' needs escaping, by doubling.
		phrase := `"` + strings.ReplaceAll(text, `"`, `""`) + `"`
		total, err := a.db.R.AdminCountClientSearch(ctx, db.AdminCountClientSearchParams{Phrase: phrase, Active: active})
		if err != nil || total == 0 {
			return nil, total, err
		}
		rows, err := a.db.R.AdminSearchClients(ctx, db.AdminSearchClientsParams{Phrase: phrase, Active: active, Limit: limit, Offset: offset})
		for _, c := range rows {
			out = append(out, clientMatch{c.ID, c.FirstName, c.LastName, c.Email, c.Phone, c.RecordNumber, c.Active})
		}
		return out, total, err
	}
	needle := strings.ToLower(text)
	total, err := a.db.R.AdminCountClients(ctx, db.AdminCountClientsParams{Needle: needle, Active: active})
	if err != nil || total == 0 {
		return nil, total, err
	}
	rows, err := a.db.R.AdminListClients(ctx, db.AdminListClientsParams{Needle: needle, Active: active, Limit: limit, Offset: offset})
	for _, c := range rows {
		out = append(out, clientMatch{c.ID, c.FirstName, c.LastName, c.Email, c.Phone, c.RecordNumber, c.Active})
	}
	return out, total, err
}

// pageNumber reads the page query parameter: a positive number, 1 otherwise.
func pageNumber(q url.Values) int64 {
	n, err := strconv.ParseInt(q.Get("page"), 10, 64)
	if err != nil || n < 1 || n > 1_000_000 {
		return 1
	}
	return n
}

// listPager describes page of a list of total items (items: their number in words), linking to the neighbours with the
// current query otherwise unchanged.
func listPager(u *url.URL, page, perPage, total int64, items string) ui.Pager {
	pages := (total + perPage - 1) / perPage
	pg := ui.Pager{Page: page, Pages: pages, Total: total, Noun: items}
	link := func(n int64) string {
		q := u.Query()
		q.Set("page", strconv.FormatInt(n, 10))
		return u.Path + "?" + q.Encode()
	}
	if page > 1 {
		pg.Prev = link(min(page-1, max(pages, 1)))
	}
	if page < pages {
		pg.Next = link(page + 1)
	}
	return pg
}

// providerClients is findClients for a provider account: the clients of its bookings (at most
// the first 200 by name).
func (a *Admin) providerClients(ctx context.Context, providerID int64, text string, limit, offset int64) ([]clientMatch, int64, error) {
	rows, err := a.db.R.ProviderClients(ctx, db.ProviderClientsParams{ProviderID: providerID, Search: text})
	if err != nil {
		return nil, 0, err
	}
	var out []clientMatch
	for i, c := range rows {
		if int64(i) >= offset && int64(len(out)) < limit {
			out = append(out, clientMatch{ID: c.ID, FirstName: c.FirstName, LastName: c.LastName, Phone: c.Phone, Active: true})
		}
	}
	return out, int64(len(rows)), nil
}
