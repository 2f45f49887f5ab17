package ui

import (
	"bytes"
	"context"
	"html"
	"io"
	"strings"

	"github.com/a-h/templ"
)

// Table is the shared list component: a header row, the rows given as children (<tr>…</tr>),
// and a message instead of an empty table. On a wide screen it is a table; on a phone each row
// becomes a stacked card that shows every column with its header beside it (static/app.css
// prints each cell's data-label). The labels are written here, once, from the headers, so no
// page has to repeat them on every cell.
func Table(testID string, headers []string, empty bool, emptyText string) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		var body bytes.Buffer
		if !empty {
			if rows := templ.GetChildren(ctx); rows != nil {
				if err := rows.Render(templ.ClearChildren(ctx), &body); err != nil {
					return err
				}
			}
		}
		return tableFrame(testID, headers, empty, emptyText, labelCells(body.String(), headers)).Render(templ.ClearChildren(ctx), w)
	})
}

// labelCells gives every <td> of rendered rows a data-label naming its column: the header at
// its position in the row (counting colspans). templ escapes text, so a literal "<td" or "<tr"
// in the markup is always a tag.
func labelCells(rows string, headers []string) string {
	var out strings.Builder
	out.Grow(len(rows) + len(rows)/4)
	col := 0
	for {
		i := strings.IndexByte(rows, '<')
		if i < 0 {
			out.WriteString(rows)
			return out.String()
		}
		out.WriteString(rows[:i])
		rows = rows[i:]
		switch {
		case isTag(rows, "<tr"):
			col = 0
		case isTag(rows, "<td"):
			label := ""
			if col < len(headers) {
				label = headers[col]
			}
			end := strings.IndexByte(rows, '>')
			col += colspan(rows[:max(end, 0)])
			out.WriteString(`<td data-label="` + html.EscapeString(label) + `"`)
			rows = rows[3:]
			continue
		}
		out.WriteByte('<')
		rows = rows[1:]
	}
}

func isTag(s, tag string) bool {
	if !strings.HasPrefix(s, tag) || len(s) == len(tag) {
		return false
	}
	c := s[len(tag)]
	return c == ' ' || c == '>' || c == '\n' || c == '\t'
}

// colspan reads a cell's colspan attribute (1 without one).
func colspan(tag string) int {
	_, v, ok := strings.Cut(tag, `colspan="`)
	if !ok {
		return 1
	}
	n := 0
	for _, c := range v {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return max(n, 1)
}
