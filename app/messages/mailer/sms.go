package mailer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/nyaruka/phonenumbers"

	"frontdesk/app/messages"
	"frontdesk/db"
)

// Texts (docs/messages.md, "Channels"): an SMS through Twilio's Messages API or through a
// generic HTTP gateway. Both are one HTTP request per message; what the provider answered is
// the attempt's reply in the log, and its message id (Twilio's SM… sid) takes the place of the
// Message-ID.

// textResult is what a provider answered to one text.
type textResult struct {
	status int    // the HTTP status (0: no answer)
	id     string // the provider's id of the message, when it gave one
	reply  string // its words, for the log
}

// textError is a text the provider did not take, with its HTTP status and Twilio's error code.
type textError struct {
	status int
	code   int
	text   string
	err    error // a transport error, when there was no answer
}

func (e *textError) Error() string { return e.text }
func (e *textError) Unwrap() error { return e.err }

// Twilio's error codes that say the number cannot receive this text: invalid or unreachable
// numbers, landlines, numbers that replied STOP. Retrying cannot help.
var twilioAddressCodes = map[int]bool{21211: true, 21214: true, 21407: true, 21408: true, 21610: true,
	21612: true, 21614: true, 21635: true}

// classifyText reads a failed text like classify reads SMTP: a refusal of this message (a 4xx
// other than 401, 403, 408 and 429) is permanent; a refused login, throttling, a 5xx, a timeout
// or no connection is tried again on the schedule.
func classifyText(err error) *sendError {
	e := &sendError{category: messages.CategoryOther, text: strings.ToValidUTF8(err.Error(), "\uFFFD")}
	var te *textError
	if !errors.As(err, &te) {
		return e
	}
	e.code = te.status
	var ne net.Error
	switch {
	case twilioAddressCodes[te.code]:
		e.category, e.permanent = messages.CategoryAddress, true
	case te.status == http.StatusUnauthorized || te.status == http.StatusForbidden:
		e.category = messages.CategoryAuth
	case te.status == http.StatusRequestTimeout || te.status == http.StatusTooManyRequests || te.status >= 500:
		e.category = messages.CategoryTemporary
	case te.status >= 400:
		e.category, e.permanent = messages.CategoryRejected, true
	case errors.As(te.err, &ne) && ne.Timeout(), errors.Is(te.err, context.DeadlineExceeded):
		e.category = messages.CategoryTimeout
	case te.err != nil:
		e.category = messages.CategoryConnect
	}
	return e
}

// textClient sends texts: no redirects (a provider that answers with one has moved, and a
// credential must not follow it elsewhere), the attempt's timeout on each request. The gateway
// may be on the business's own network (a phone running a gateway app), so, unlike webhooks,
// private addresses are not refused: only an owner can set the URL.
var textClient = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// sendText sends envelope e's text through t.
func (m *Mailer) sendText(ctx context.Context, t messages.TextTransport, e messages.Envelope) (textResult, error) {
	ctx, cancel := context.WithTimeout(ctx, m.timeout)
	defer cancel()
	var req *http.Request
	var err error
	switch t.Provider {
	case messages.SMSTwilio:
		req, err = twilioRequest(ctx, t, e.Phone, e.Text)
	case messages.SMSGateway:
		req, err = gatewayRequest(ctx, t, e.Phone, e.Text)
	default:
		return textResult{}, messages.ErrTextsNotSetUp
	}
	if err != nil {
		return textResult{}, err
	}
	req.Header.Set("User-Agent", "frontdesk")
	resp, err := textClient.Do(req)
	if err != nil {
		return textResult{}, &textError{text: redactURLError(err), err: err}
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	out := textResult{status: resp.StatusCode, reply: strings.TrimSpace(string(body))}
	if t.Provider == messages.SMSTwilio {
		return twilioResult(out, body)
	}
	out.reply = fmt.Sprintf("%d %s", resp.StatusCode, clip(out.reply, 300))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return out, &textError{status: resp.StatusCode, text: out.reply}
	}
	return out, nil
}

// twilioRequest is a POST to the Messages resource of the 2010-04-01 API: form-encoded To,
// From (or MessagingServiceSid) and Body, the account SID and auth token as basic auth.
func twilioRequest(ctx context.Context, t messages.TextTransport, to, text string) (*http.Request, error) {
	form := url.Values{"To": {to}, "Body": {text}}
	if t.StatusCallback != "" {
		form.Set("StatusCallback", t.StatusCallback) // delivery statuses into the log (app/msghook)
	}
	if strings.HasPrefix(t.From, "MG") {
		form.Set("MessagingServiceSid", t.From)
	} else {
		form.Set("From", t.From)
	}
	u := strings.TrimRight(t.TwilioBase, "/") + "/2010-04-01/Accounts/" + url.PathEscape(t.AccountSID) + "/Messages.json"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.SetBasicAuth(t.AccountSID, t.AuthToken)
	return req, nil
}

// twilioResult reads Twilio's answer: the message's sid and status on 201, its error code and
// message otherwise.
func twilioResult(out textResult, body []byte) (textResult, error) {
	var v struct {
		Sid      string `json:"sid"`
		Status   any    `json:"status"` // a string on success, the HTTP status (a number) on error
		Code     int    `json:"code"`
		Message  string `json:"message"`
		MoreInfo string `json:"more_info"`
	}
	_ = json.Unmarshal(body, &v) // an answer that is not JSON is reported by its status
	if out.status >= 200 && out.status <= 299 {
		out.id = v.Sid
		out.reply = fmt.Sprintf("%d %v %s", out.status, v.Status, v.Sid)
		return out, nil
	}
	out.reply = fmt.Sprintf("%d", out.status)
	if v.Code != 0 {
		out.reply += fmt.Sprintf(" error %d", v.Code)
	}
	if v.Message != "" {
		out.reply += ": " + clip(v.Message, 300)
	}
	return out, &textError{status: out.status, code: v.Code, text: out.reply}
}

// gatewayRequest fills the gateway's URL and body template: {{to}} is the number in E.164 and
// {{text}} the text, each escaped for where it stands (a query in the URL; a JSON string in a
// JSON body; form encoding in a form body; as is otherwise).
func gatewayRequest(ctx context.Context, t messages.TextTransport, to, text string) (*http.Request, error) {
	u := strings.NewReplacer("{{to}}", url.QueryEscape(to), "{{text}}", url.QueryEscape(text)).Replace(t.URL)
	esc := func(s string) string { return s }
	switch ct := strings.ToLower(t.ContentType); {
	case strings.Contains(ct, "json"):
		esc = func(s string) string {
			b, _ := json.Marshal(s)
			return string(b[1 : len(b)-1])
		}
	case strings.Contains(ct, "x-www-form-urlencoded"):
		esc = url.QueryEscape
	}
	var body io.Reader
	if t.Method != http.MethodGet {
		body = strings.NewReader(strings.NewReplacer("{{to}}", esc(to), "{{text}}", esc(text)).Replace(t.Body))
	}
	req, err := http.NewRequestWithContext(ctx, t.Method, u, body)
	if err != nil {
		return nil, fmt.Errorf("the gateway URL: %s", redactURLError(err))
	}
	if body != nil {
		req.Header.Set("Content-Type", t.ContentType)
	}
	if t.AuthValue != "" {
		req.Header.Set(t.AuthName, t.AuthValue)
	}
	return req, nil
}

// redactURLError keeps a URL, which may carry a key in its query, out of an error's words.
func redactURLError(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Op + ": " + ue.Err.Error()
	}
	return err.Error()
}

// SendTestText sends a test text to number now, with the stored SMS settings, and returns the
// provider's answer. Like the test email it does not go through the queue.
func (m *Mailer) SendTestText(ctx context.Context, number string) (string, error) {
	var t messages.TextTransport
	var err error
	if err = m.db.ReadTx(ctx, func(q *db.Queries) error {
		t, err = m.TextTransport(ctx, q, nil)
		return err
	}); err != nil {
		return "", err
	}
	if !t.Ready() {
		return "", messages.ErrTextsNotSetUp
	}
	// Only to a client's number or the business's own: never to anyone.
	if err := m.CheckTestNumber(ctx, number); err != nil {
		return "", err
	}
	text, err := m.TestText(ctx)
	if err != nil {
		return "", err
	}
	res, err := m.sendText(ctx, t, messages.Envelope{Channel: messages.ChannelSMS, Phone: number, Text: text, Date: time.Now()})
	if err != nil {
		return res.reply, err
	}
	return res.reply, nil
}

// callingCode is the country calling code of an E.164 number ("+56" of "+56961234567"), for the
// server's log, which never holds the number itself.
func callingCode(e164 string) string {
	n, err := phonenumbers.Parse(e164, "")
	if err != nil {
		return ""
	}
	return fmt.Sprintf("+%d", n.GetCountryCode())
}
