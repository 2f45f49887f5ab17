package messages

import (
	"bytes"
	"errors"
	htmltemplate "html/template"
	"strings"
	"testing"
	texttemplate "text/template"
)

// The owner's templates run on eval.go's evaluator instead of text/template's executor; these
// tests hold the two to the same output, and the same refusals, on what templates can say.

var sampleFields = Fields{
	Business: "Peluquería <Ana> & Co's", ClientName: "Ana Rojas", ClientFirstName: "Ana",
	Service: "Corte + brushing", Date: "Friday, 27 November 2026", Time: "10:00", Price: "$15.000",
	ManageLink: "https://book.example.com/b/abc?x=1&y='2'", BookingID: 42,
}

// reference runs src with text/template as execute did before eval.go: the output, or whether
// it failed and whether the failure was an unknown field.
func reference(src string, f Fields) (out string, failed, unknown bool) {
	t, err := texttemplate.New("body").Option("missingkey=error").Parse(src)
	if err != nil {
		return "", true, false
	}
	if len(t.Templates()) > 1 || (t.Tree != nil && forbidden(t.Tree.Root) != "") {
		return "", true, false
	}
	var b limitedBuffer
	b.limit = maxBodyOutput
	if err := t.Execute(&b, f); err != nil {
		return "", true, strings.Contains(err.Error(), "can't evaluate field")
	}
	return b.String(), false, false
}

func ours(src string, f Fields) (out string, failed, unknown bool) {
	out, err := execute("body", src, f, maxBodyOutput)
	if err != nil {
		var te *TemplateError
		return "", true, errors.As(err, &te) && te.Msg.Key == "messages.error.unknown_field"
	}
	return out, false, false
}

var evalCases = []string{
	"",
	"plain text, no actions",
	"Hi {{.ClientName}}, see you {{.Date}} at {{.Time}}.",
	"{{if .Price}}Price: {{.Price}}{{end}}",
	"{{if .Reminder}}in {{.Reminder}}{{else}}soon{{end}}",
	"{{if .Reminder}}a{{else if .Price}}b{{else}}c{{end}}",
	"{{with .ManageLink}}Change it: {{.}}{{else}}no link{{end}}",
	"{{with .Address}}at {{.}}{{end}}",
	"{{- .Service -}}  \n  {{- .Time}}",
	"{{/* a comment */}}x",
	"#{{.BookingID}} {{printf \"%05d\" .BookingID}} {{len .Service}}",
	"{{$x := .Date}}{{$x}} {{$x = .Time}}{{$x}} {{$}}",
	"{{if eq .Service \"Corte + brushing\"}}yes{{end}} {{if ne .BookingID 42}}no{{end}}",
	"{{if and .Price .Date}}both{{end}} {{or .Reminder .Time}} {{not .Price}} {{and .Reminder .Date}}",
	"{{if lt .BookingID 100}}small{{end}} {{if ge .Date \"A\"}}later{{end}} {{gt 1.5 1.25}} {{le 2 2}}",
	"{{.Date | printf \"%q\"}} {{print .Time 3 true nil}} {{println .Time}}",
	"{{html .Business}} {{js .Business}} {{urlquery .ManageLink}}",
	"{{index .Service 0}} {{slice .Service 1 5}} {{slice .Service 6}}",
	"{{(.Date)}} {{(printf \"%s-%s\" .Time .Date)}} {{1.0}} {{0x10}} {{'a'}} {{1e3}} {{3i}}",
	"{{eq .BookingID 42 43}} {{eq .Time \"x\" \"10:00\"}} {{true}} {{false}} {{.}}",
	"{{with $y := .Time}}{{$y}}{{end}}",
	"{{.Nmae}}",
	"{{.Date.Year}}",
	"{{if .Nope}}x{{end}}",
	"{{shell .Date}}",
	"{{range .Date}}x{{end}}",
	`{{define "a"}}x{{end}}{{template "a"}}`,
	"{{.Date",
	"{{eq .BookingID \"42\"}}",
	"{{lt true false}}",
	"{{len .BookingID}}",
	"{{index .Service 99}}",
	"{{printf}}",
	"{{not}}",
	"{{nil}}",
	"{{.Time 1}}",
	"{{call .Date}}",
	"{{and}}",
	"{{$.Service}} {{$.Date.Nope}}",
}

func TestEvaluatorMatchesTextTemplate(t *testing.T) {
	for _, src := range evalCases {
		t.Run(src, func(t *testing.T) { compareEval(t, src, sampleFields) })
	}
	// Empty fields: every if takes its else branch.
	for _, src := range evalCases {
		compareEval(t, src, Fields{})
	}
}

func compareEval(t *testing.T, src string, f Fields) {
	t.Helper()
	wantOut, wantFailed, wantUnknown := reference(src, f)
	gotOut, gotFailed, gotUnknown := ours(src, f)
	if gotFailed != wantFailed || gotUnknown != wantUnknown || gotOut != wantOut {
		t.Errorf("template %q:\ngot  %q (failed %v, unknown field %v)\nwant %q (failed %v, unknown field %v)",
			src, gotOut, gotFailed, gotUnknown, wantOut, wantFailed, wantUnknown)
	}
}

func FuzzEvaluator(f *testing.F) {
	for _, src := range evalCases {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > MaxBody {
			return
		}
		compareEval(t, src, sampleFields)
	})
}

// oldLayout is the HTML part as html/template made it before htmlPart wrote it out itself.
var oldLayout = htmltemplate.Must(htmltemplate.New("html").Parse(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>{{.Business}}</title></head>
<body style="font-family:sans-serif;line-height:1.5;color:#1f2328;max-width:36em;margin:0 auto;padding:1em">
{{range .Paragraphs}}<p>{{range $i, $line := .}}{{if $i}}<br>{{end}}{{range $line}}{{if .Link}}<a href="{{.Text}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}{{end}}{{end}}</p>
{{end}}</body></html>
`))

func TestHTMLPartMatchesHTMLTemplate(t *testing.T) {
	bodies := []string{
		"Hi Ana,\n\nsee you Friday.\nBye",
		"Pay at https://pay.example.com/c/x?a=1&b='2'+3 (today) or http://ex.com/ñandú\x00 <b>bold</b> \"q\"",
		"bad utf-8: \xff\xfe and \uFFFD and \uFDD0 and https://x.example/%41%zz%4",
		"escapes https://x.example/a%41 https://x.example/b%4 https://x.example/c%41b",
		"links https://a.example/1 https://b.example/2\n   \n\nlast",
	}
	for _, body := range bodies {
		for _, business := range []string{sampleFields.Business, "", "A+B \x00 \xff"} {
			got, err := htmlPart(body, business)
			if err != nil {
				t.Fatal(err)
			}
			want := referenceHTML(t, body, business)
			if got != want {
				t.Errorf("body %q, business %q:\ngot  %s\nwant %s", body, business, got, want)
			}
		}
	}
}

func referenceHTML(t *testing.T, body, business string) string {
	t.Helper()
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
	var b bytes.Buffer
	if err := oldLayout.Execute(&b, map[string]any{"Business": business, "Paragraphs": paragraphs}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
