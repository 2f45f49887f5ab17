package messages

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
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
	{Kind: ProviderBooked, Part: "subject", Key: "messages.template.provider_booked.subject"},
	{Kind: ProviderBooked, Part: "body", Key: "messages.template.provider_booked.body"},
	{Kind: ProviderMoved, Part: "subject", Key: "messages.template.provider_moved.subject"},
	{Kind: ProviderMoved, Part: "body", Key: "messages.template.provider_moved.body"},
	{Kind: ProviderCancelled, Part: "subject", Key: "messages.template.provider_cancelled.subject"},
	{Kind: ProviderCancelled, Part: "body", Key: "messages.template.provider_cancelled.body"},
	{Kind: ProviderAgenda, Part: "subject", Key: "messages.template.provider_agenda.subject"},
	{Kind: ProviderAgenda, Part: "body", Key: "messages.template.provider_agenda.body"},
	{Kind: WaitlistOffer, Part: "subject", Key: "messages.template.waitlist_offer.subject"},
	{Kind: WaitlistOffer, Part: "body", Key: "messages.template.waitlist_offer.body"},
	{Kind: GiftCard, Part: "subject", Key: "messages.template.gift_card.subject"},
	{Kind: GiftCard, Part: "body", Key: "messages.template.gift_card.body"},
	{Kind: MembershipStarted, Part: "subject", Key: "messages.template.membership_started.subject"},
	{Kind: MembershipStarted, Part: "body", Key: "messages.template.membership_started.body"},
	{Kind: MembershipRenewed, Part: "subject", Key: "messages.template.membership_renewed.subject"},
	{Kind: MembershipRenewed, Part: "body", Key: "messages.template.membership_renewed.body"},
	{Kind: MembershipFailed, Part: "subject", Key: "messages.template.membership_failed.subject"},
	{Kind: MembershipFailed, Part: "body", Key: "messages.template.membership_failed.body"},
	{Kind: MembershipPaused, Part: "subject", Key: "messages.template.membership_paused.subject"},
	{Kind: MembershipPaused, Part: "body", Key: "messages.template.membership_paused.body"},
	{Kind: MembershipResumed, Part: "subject", Key: "messages.template.membership_resumed.subject"},
	{Kind: MembershipResumed, Part: "body", Key: "messages.template.membership_resumed.body"},
	{Kind: MembershipCancelled, Part: "subject", Key: "messages.template.membership_cancelled.subject"},
	{Kind: MembershipCancelled, Part: "body", Key: "messages.template.membership_cancelled.body"},
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
	trees, err := parseTemplate(part, src)
	if err != nil {
		return "", &TemplateError{part, i18n.M("messages.error.syntax", "detail", plainError(err))}
	}
	if len(trees) > 1 {
		return "", &TemplateError{part, i18n.M("messages.error.not_allowed", "action", "define")}
	}
	tree := trees[part]
	if bad := forbidden(tree.Root); bad != "" {
		return "", &TemplateError{part, i18n.M("messages.error.not_allowed", "action", bad)}
	}
	var out limitedBuffer
	out.limit = limit
	if err := run(tree, &out, f); err != nil {
		var unknown *errUnknownField
		switch {
		case errors.As(err, &unknown):
			return "", &TemplateError{part, i18n.M("messages.error.unknown_field", "field", "{{."+unknown.name+"}}")}
		case errors.Is(err, errTooLong):
			return "", &TemplateError{part, i18n.M("messages.error.too_long", "max", limit)}
		}
		return "", &TemplateError{part, i18n.M("messages.error.syntax", "detail", plainError(err))}
	}
	return out.String(), nil
}

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

// The HTML part: the text as paragraphs, every value escaped as html/template would escape it
// in its place (eval_test.go compares the two). It is written out here, not run by
// html/template, for the reason eval.go gives.
const (
	htmlHead = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>`
	htmlBody = `</title></head>
<body style="font-family:sans-serif;line-height:1.5;color:#1f2328;max-width:36em;margin:0 auto;padding:1em">
`
	htmlEnd = `</body></html>
`
)

type span struct {
	Text string
	Link bool
}

var (
	linkPattern    = regexp.MustCompile(`https?://[^\s<>"]+`)
	paragraphSplit = regexp.MustCompile(`\n\s*\n`)
)

// htmlPart lays body out as HTML: blank lines separate paragraphs, line breaks stay, and
// http(s) URLs become links.
func htmlPart(body, business string) (string, error) {
	var paragraphs [][][]span
	for _, para := range paragraphSplit.Split(body, -1) {
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
	var b strings.Builder
	b.WriteString(htmlHead)
	b.WriteString(escapeHTML(business))
	b.WriteString(htmlBody)
	for _, lines := range paragraphs {
		b.WriteString("<p>")
		for i, line := range lines {
			if i > 0 {
				b.WriteString("<br>")
			}
			for _, sp := range line {
				if sp.Link {
					b.WriteString(`<a href="` + escapeHTML(normalizeURL(sp.Text)) + `">` + escapeHTML(sp.Text) + "</a>")
				} else {
					b.WriteString(escapeHTML(sp.Text))
				}
			}
		}
		b.WriteString("</p>\n")
	}
	b.WriteString(htmlEnd)
	return b.String(), nil
}

// escapeHTML is html/template's escaper for text and quoted attribute values.
func escapeHTML(s string) string {
	return htmlReplacer.Replace(s)
}

var htmlReplacer = strings.NewReplacer("\x00", "\uFFFD", `"`, "&#34;", "&", "&amp;", "'", "&#39;", "+", "&#43;", "<", "&lt;", ">", "&gt;")

// normalizeURL is html/template's URL normalizer: it percent-encodes every byte that may not
// stand in a URL, and leaves the rest (an existing %xx escape included) as it is.
func normalizeURL(s string) string {
	var b strings.Builder
	written := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case strings.IndexByte("!#$&*+,/:;=?@[]-._~", c) >= 0,
			'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
			continue
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]): // as html/template: not at the very end
			continue
		}
		b.WriteString(s[written:i])
		fmt.Fprintf(&b, "%%%02x", c)
		written = i + 1
	}
	if written == 0 {
		return s
	}
	b.WriteString(s[written:])
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
