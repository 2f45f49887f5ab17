package mailer

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"frontdesk/app/messages"
	"frontdesk/db"
)

// WhatsApp (docs/messages.md, "WhatsApp"): one POST to the Cloud API's messages endpoint per
// message, a template with its body parameters and, when the template has them, the
// quick-reply buttons' payloads (app/replies reads them back). The answer's message id
// (wamid.…) takes the place of the Message-ID, as Twilio's SID does for an SMS.

// Quick-reply payloads, read back by app/replies.
const (
	payloadConfirm = "CONFIRM"
	payloadCancel  = "CANCEL"
)

// whatsAppBody is the JSON of a template message, or of a free-form text, to number to (E.164).
func whatsAppBody(to string, m *messages.WhatsAppMessage) ([]byte, error) {
	if m.Template == "" {
		return json.Marshal(map[string]any{"messaging_product": "whatsapp", "recipient_type": "individual",
			"to": strings.TrimPrefix(to, "+"), "type": "text", "text": map[string]any{"body": m.Text}})
	}
	type param struct {
		Type    string `json:"type"`
		Text    string `json:"text,omitempty"`
		Payload string `json:"payload,omitempty"`
	}
	type component struct {
		Type       string  `json:"type"`
		SubType    string  `json:"sub_type,omitempty"`
		Index      string  `json:"index,omitempty"`
		Parameters []param `json:"parameters"`
	}
	var comps []component
	if len(m.Params) > 0 {
		body := component{Type: "body"}
		for _, p := range m.Params {
			body.Parameters = append(body.Parameters, param{Type: "text", Text: p})
		}
		comps = append(comps, body)
	}
	if m.Buttons {
		comps = append(comps,
			component{Type: "button", SubType: "quick_reply", Index: "0", Parameters: []param{{Type: "payload", Payload: payloadConfirm}}},
			component{Type: "button", SubType: "quick_reply", Index: "1", Parameters: []param{{Type: "payload", Payload: payloadCancel}}})
	}
	tpl := map[string]any{"name": m.Template, "language": map[string]string{"policy": "deterministic", "code": m.Lang}}
	if len(comps) > 0 { // a template without fields or buttons has none (the API refuses null)
		tpl["components"] = comps
	}
	return json.Marshal(map[string]any{
		"messaging_product": "whatsapp",
		"recipient_type":    "individual",
		"to":                strings.TrimPrefix(to, "+"),
		"type":              "template",
		"template":          tpl,
	})
}

// whatsAppPost posts body to the phone number's messages endpoint and reads the answer.
func (m *Mailer) whatsAppPost(ctx context.Context, t messages.WhatsAppTransport, body []byte) (textResult, error) {
	ctx, cancel := context.WithTimeout(ctx, m.timeout)
	defer cancel()
	u := strings.TrimRight(t.Base, "/") + "/" + messages.WhatsAppVersion + "/" + url.PathEscape(t.PhoneNumberID) + "/messages"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return textResult{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+t.AccessToken)
	req.Header.Set("User-Agent", "frontdesk/1.0.0")
	resp, err := textClient.Do(req)
	if err != nil {
		return textResult{}, &textError{text: redactURLError(err), err: err}
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	var v struct {
		Messages []struct {
			ID string `json:"id"`
		} `json:"messages"`
		Error struct {
			Message string `json:"message"`
			Code    int    `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(raw, &v) // an answer that is not JSON is reported by its status
	out := textResult{status: resp.StatusCode}
	if resp.StatusCode >= 200 && resp.StatusCode <= 299 && len(v.Messages) > 0 {
		out.id = v.Messages[0].ID
		out.reply = fmt.Sprintf("%d accepted %s", resp.StatusCode, out.id)
		return out, nil
	}
	out.reply = fmt.Sprintf("%d", resp.StatusCode)
	if v.Error.Code != 0 {
		out.reply += fmt.Sprintf(" error %d", v.Error.Code)
	}
	if v.Error.Message != "" {
		out.reply += ": " + clip(v.Error.Message, 300)
	}
	code := 0
	if whatsAppAddressCodes[v.Error.Code] {
		code = 21211 // read as Twilio's "not a valid number": the address category, no retries
	}
	status := resp.StatusCode
	if status >= 200 && status <= 299 {
		status = http.StatusBadGateway // a 2xx without a message id: not taken
	}
	return out, &textError{status: status, code: code, text: out.reply}
}

// The Cloud API's error codes that say the number cannot receive this message: not on
// WhatsApp, or not a valid number. Retrying cannot help.
var whatsAppAddressCodes = map[int]bool{131026: true, 131030: true}

// sendWhatsApp sends envelope e's template message through t.
func (m *Mailer) sendWhatsApp(ctx context.Context, t messages.WhatsAppTransport, e messages.Envelope) (textResult, error) {
	if !t.Ready() || e.WhatsApp == nil {
		return textResult{}, messages.ErrTextsNotSetUp
	}
	body, err := whatsAppBody(e.Phone, e.WhatsApp)
	if err != nil {
		return textResult{}, err
	}
	return m.whatsAppPost(ctx, t, body)
}

// The test message is Meta's sample template, which every WhatsApp Business account has,
// approved, from the start: a test needs no template of the owner's to be approved first.
const (
	testTemplate     = "hello_world"
	testTemplateLang = "en_US"
)

// SendTestWhatsApp sends Meta's sample template to number now, with the stored WhatsApp
// settings, and returns what the Cloud API answered. Like a test text, it goes only to a
// client's number or the business's own.
func (m *Mailer) SendTestWhatsApp(ctx context.Context, number string) (string, error) {
	var t messages.WhatsAppTransport
	if err := m.db.ReadTx(ctx, func(q *db.Queries) error {
		var err error
		t, err = m.WhatsAppTransport(ctx, q, nil)
		return err
	}); err != nil {
		return "", err
	}
	if !t.Ready() {
		return "", messages.ErrTextsNotSetUp
	}
	if err := m.CheckTestNumber(ctx, number); err != nil {
		return "", err
	}
	res, err := m.sendWhatsApp(ctx, t, messages.Envelope{Channel: messages.ChannelWhatsApp, Phone: number, Date: m.now(),
		WhatsApp: &messages.WhatsAppMessage{Template: testTemplate, Lang: testTemplateLang}})
	return res.reply, err
}
