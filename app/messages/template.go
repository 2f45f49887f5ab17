package messages

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"regexp"
	"strings"
	texttemplate "text/template"
	"text/template/parse"
	"unicode/utf8"

	"frontdesk/ui/i18n"
)

// Template is one message type's wording in one language: a subject line and a plain-text
// body, both in Go's text/template language over Fields ({{.Date}}, {{if .Price}}…{{end}}).
type Template struct {
	Subject string
	Body    string
}

// Limits of a template and of what it may produce.
const (
	MaxSubject     = 300
	MaxBody        = 20000
	maxBodyOutput  = 64 << 10
	maxSubjectLine = 400
)

// TemplateError is a template that cannot be sent, with the part it is in ("subject" or
// "body") and an explanation for the owner. It is shown in the preview; a message whose
// template fails is recorded as failed and never sent.
type TemplateError struct {
	Part string
	Msg  i18n.Msg
}

func (e *TemplateError) Error() string { return e.Part + ": " + e.Msg.Error() }

// defaultTemplate is the catalog's wording of kind in p's language.
func defaultTemplate(p *i18n.Printer, kind Kind) Template {
	var t Template
	for _, d := range defaultKeys {
		switch {
		case d.Kind != kind:
		case d.Part == "subject":
			t.Subject = p.T(d.Key)
		default:
			t.Body = p.T(d.Key)
		}
	}
	return t
}

// defaultKeys are the catalog keys of each type's default subject and body.
var defaultKeys = []struct {
	Kind Kind
	Part string
	Key  string
}{
	{Kind: Confirmation, Part: "subject", Key: "messages.template.confirmation.subject"},
	{Kind: Confirmation, Part: "body", Key: "messages.template.confirmation.body"},
	{Kind: Rescheduled, Part: "subject", Key: "messages.template.rescheduled.subject"},
	{Kind: Rescheduled, Part: "body", Key: "messages.template.rescheduled.body"},
	{Kind: Cancelled, Part: "subject", Key: "messages.template.cancelled.subject"},
	{Kind: Cancelled, Part: "body", Key: "messages.template.cancelled.body"},
	{Kind: Reminder, Part: "subject", Key: "messages.template.reminder.subject"},
	{Kind: Reminder, Part: "body", Key: "messages.template.reminder.body"},
	{Kind: PaymentRequest, Part: "subject", Key: "messages.template.payment_request.subject"},
	{Kind: PaymentRequest, Part: "body", Key: "messages.template.payment_request.body"},
	{Kind: Receipt, Part: "subject", Key: "messages.template.receipt.subject"},
	{Kind: Receipt, Part: "body", Key: "messages.template.receipt.body"},
	{Kind: WaitlistSeat, Part: "subject", Key: "messages.template.waitlist_seat.subject"},
	{Kind: WaitlistSeat, Part: "body", Key: "messages.template.waitlist_seat.body"},
}

// Rendered is a message's text, ready for the wire.
type Rendered struct {
	Subject string
	Text    string
	HTML    string
}

// render fills t with f. The subject must come out as one non-empty line; the body is the text
// part, and the HTML part is made from it (paragraphs, links), escaped.
func render(t Template, f Fields, business string) (Rendered, error) {
	subject, err := execute("subject", t.Subject, f, maxSubjectLine)
	if err != nil {
		return Rendered{}, err
	}
	subject = strings.Join(strings.Fields(subject), " ")
	if subject == "" {
		return Rendered{}, &TemplateError{"subject", i18n.M("messages.error.empty_subject")}
	}
	body, err := execute("body", t.Body, f, maxBodyOutput)
	if err != nil {
		return Rendered{}, err
	}
	body = strings.TrimSpace(strings.ReplaceAll(body, "\r\n", "\n"))
	if body == "" {
		return Rendered{}, &TemplateError{"body", i18n.M("messages.error.empty_body")}
	}
	html, err := htmlPart(body, business)
	if err != nil {
		return Rendered{}, err
	}
	return Rendered{Subject: subject, Text: body + "\n", HTML: html}, nil
}

// Check parses t and runs it on sample fields, as saving does: the errors a preview shows.
func Check(t Template, f Fields) error {
	if utf8.RuneCountInString(t.Subject) > MaxSubject || strings.ContainsAny(t.Subject, "\r\n") {
		return &TemplateError{"subject", i18n.M("messages.error.subject_line", "max", MaxSubject)}
	}
	if utf8.RuneCountInString(t.Body) > MaxBody {
		return &TemplateError{"body", i18n.M("messages.error.too_long", "max", MaxBody)}
	}
	_, err := render(t, f, f.Business)
	return err
}

// execute runs one part. Only the plain parts of the language are allowed — text, fields,
// if/else, with — so that a template can neither loop nor call other templates; its output is
// bounded.
func execute(part, src string, f Fields, limit int) (string, error) {
	t, err := texttemplate.New(part).Option("missingkey=error").Parse(src)
	if err != nil {
		return "", &TemplateError{part, i18n.M("messages.error.syntax", "detail", plainError(err))}
	}
	if len(t.Templates()) > 1 {
		return "", &TemplateError{part, i18n.M("messages.error.not_allowed", "action", "define")}
	}
	if t.Tree != nil {
		if bad := forbidden(t.Tree.Root); bad != "" {
			return "", &TemplateError{part, i18n.M("messages.error.not_allowed", "action", bad)}
		}
	}
	var out limitedBuffer
	out.limit = limit
	if err := t.Execute(&out, f); err != nil {
		if m := unknownField.FindStringSubmatch(err.Error()); m != nil {
			return "", &TemplateError{part, i18n.M("messages.error.unknown_field", "field", "{{."+m[1]+"}}")}
		}
		if errors.Is(err, errTooLong) {
			return "", &TemplateError{part, i18n.M("messages.error.too_long", "max", limit)}
		}
		return "", &TemplateError{part, i18n.M("messages.error.syntax", "detail", plainError(err))}
	}
	return out.String(), nil
}

var unknownField = regexp.MustCompile(`can't evaluate field (\w+)`)

// plainError drops text/template's "template: subject:1:" prefix noise down to "line 1: …".
func plainError(err error) string {
	s := err.Error()
	s = strings.TrimPrefix(s, "template: ")
	for _, p := range []string{"subject:", "body:"} {
		if rest, ok := strings.CutPrefix(s, p); ok {
			return "line " + rest
		}
	}
	return s
}

// forbidden names the first action a template may not use, or "".
func forbidden(n parse.Node) string {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return ""
		}
		for _, c := range n.Nodes {
			if bad := forbidden(c); bad != "" {
				return bad
			}
		}
	case *parse.IfNode:
		return cmp2(forbidden(n.List), forbidden(n.ElseList))
	case *parse.WithNode:
		return cmp2(forbidden(n.List), forbidden(n.ElseList))
	case *parse.RangeNode:
		return "range"
	case *parse.TemplateNode:
		return "template"
	case *parse.BreakNode, *parse.ContinueNode:
		return "break"
	}
	return ""
}

func cmp2(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

var errTooLong = errors.New("output too long")

// limitedBuffer refuses writes past limit bytes, which stops the template.
type limitedBuffer struct {
	bytes.Buffer
	limit int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > b.limit {
		return 0, errTooLong
	}
	return b.Buffer.Write(p)
}

// htmlLayout is the HTML part: the text as paragraphs, every value escaped by html/template.
var htmlLayout = template.Must(template.New("html").Parse(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>{{.Business}}</title></head>
<body style="font-family:sans-serif;line-height:1.5;color:#1f2328;max-width:36em;margin:0 auto;padding:1em">
{{range .Paragraphs}}<p>{{range $i, $line := .}}{{if $i}}<br>{{end}}{{range $line}}{{if .Link}}<a href="{{.Text}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}{{end}}{{end}}</p>
{{end}}</body></html>
`))

type span struct {
	Text string
	Link bool
}

var linkPattern = regexp.MustCompile(`https?://[^\s<>"]+`)

// htmlPart lays body out as HTML: blank lines separate paragraphs, line breaks stay, and
// http(s) URLs become links.
func htmlPart(body, business string) (string, error) {
	var paragraphs [][][]span
	for _, para := range regexp.MustCompile(`\n\s*\n`).Split(body, -1) {
		var lines [][]span
		for _, line := range strings.Split(para, "\n") {
			var spans []span
			rest := line
			for _, loc := range linkPattern.FindAllStringIndex(line, -1) {
				off := len(line) - len(rest)
				spans = append(spans, span{Text: rest[:loc[0]-off]}, span{Text: line[loc[0]:loc[1]], Link: true})
				rest = line[loc[1]:]
			}
			lines = append(lines, append(spans, span{Text: rest}))
		}
		paragraphs = append(paragraphs, lines)
	}
	var b bytes.Buffer
	err := htmlLayout.Execute(&b, map[string]any{"Business": business, "Paragraphs": paragraphs})
	if err != nil {
		return "", fmt.Errorf("html part: %w", err)
	}
	return b.String(), nil
}
