// Package msghook receives what text providers send back (docs/messages.md, "Replies" and
// "Delivery statuses"): Twilio's incoming-message webhook and status callback, and WhatsApp's
// Cloud API webhook (its verification handshake, messages and statuses). Like app/payhook it is
// a small surface without sessions, CSRF checks or API keys: every request is authenticated by
// its provider's signature alone — X-Twilio-Signature under the stored auth token,
// X-Hub-Signature-256 under the stored app secret — before anything is read or written. An
// unsigned or forged request is answered 403 and changes nothing. What an answer does is
// app/replies' (one function for every channel).
package msghook

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/links"
	"frontdesk/app/messages"
	"frontdesk/app/replies"
	"frontdesk/db"
)

// maxBody bounds a notification; Twilio's and Meta's are a few kilobytes.
const maxBody = 1 << 20

// Paths, as the provider's console is given them (docs/messages.md).
const (
	TwilioSMSPath    = "/twilio/sms"
	TwilioStatusPath = "/twilio/status"
	WhatsAppPath     = "/whatsapp/webhook"
)

// Options are the hooks' dependencies.
type Options struct {
	DB       *db.DB
	Messages *messages.Service // the stored credentials, opened
	Replies  *replies.Engine
	// Links is the public URL: Twilio signs the URL it was given, which is the public one,
	// never what the request's Host header says.
	Links links.Base
	Log   *slog.Logger
}

// Hooks serves the providers' requests.
type Hooks struct{ o Options }

// New returns the hooks.
func New(o Options) *Hooks {
	if o.Log == nil {
		o.Log = slog.Default()
	}
	return &Hooks{o: o}
}

// Mount adds the routes to r.
func (h *Hooks) Mount(r chi.Router) {
	r.Post(TwilioSMSPath, h.twilioSMS)
	r.Post(TwilioStatusPath, h.twilioStatus)
	r.Get(WhatsAppPath, h.whatsAppVerify)
	r.Post(WhatsAppPath, h.whatsAppNotify)
}

// twilioForm reads and checks a Twilio request: its form under the account's auth token.
// When it answers false it has answered the request.
func (h *Hooks) twilioForm(w http.ResponseWriter, r *http.Request) (url.Values, bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		http.Error(w, "unreadable body", http.StatusBadRequest)
		return nil, false
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		http.Error(w, "unreadable form", http.StatusBadRequest)
		return nil, false
	}
	var t messages.TextTransport
	if err := h.o.DB.ReadTx(r.Context(), func(q *db.Queries) error {
		t, err = h.o.Messages.TextTransport(r.Context(), q, nil)
		return err
	}); err != nil {
		h.o.Log.ErrorContext(r.Context(), "twilio webhook: reading the credentials", "err", err)
		http.Error(w, "internal server error", http.StatusInternalServerError)
		return nil, false
	}
	full := h.o.Links.String() + r.URL.RequestURI()
	if t.Provider != messages.SMSTwilio || !replies.ValidTwilioSignature(t.AuthToken, full, form, r.Header.Get("X-Twilio-Signature")) {
		h.o.Log.WarnContext(r.Context(), "twilio webhook with a missing or wrong signature refused", "path", r.URL.Path)
		http.Error(w, "forbidden: invalid signature", http.StatusForbidden)
		return nil, false
	}
	return form, true
}

// twilioSMS is an incoming text: it acts (app/replies) and answers with TwiML that carries the
// reply, which Twilio sends back to the client. A message seen before is answered with an
// empty response: it was acted on and answered the first time.
func (h *Hooks) twilioSMS(w http.ResponseWriter, r *http.Request) {
	form, ok := h.twilioForm(w, r)
	if !ok {
		return
	}
	res, err := h.o.Replies.Handle(r.Context(), replies.Inbound{Channel: messages.ChannelSMS,
		ProviderID: form.Get("MessageSid"), From: form.Get("From"), Text: form.Get("Body"), Button: form.Get("ButtonPayload")})
	if errors.Is(err, replies.ErrInvalid) {
		http.Error(w, "bad request: no MessageSid or From", http.StatusBadRequest)
		return
	}
	if err != nil {
		h.o.Log.ErrorContext(r.Context(), "twilio incoming text", "err", err)
		http.Error(w, "internal server error", http.StatusInternalServerError)
		return
	}
	h.o.Log.InfoContext(r.Context(), "text reply", "channel", messages.ChannelSMS, "action", res.Action,
		"outcome", res.Outcome, "booking", res.BookingID, "replayed", res.Replayed)
	var b bytes.Buffer
	b.WriteString(xml.Header + "<Response>")
	if res.Reply != "" && !res.Replayed {
		b.WriteString("<Message>")
		_ = xml.EscapeText(&b, []byte(res.Reply))
		b.WriteString("</Message>")
	}
	b.WriteString("</Response>")
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(b.Bytes())
}

// twilioStatus is a status callback: the text's delivery status (and error code) in the log.
func (h *Hooks) twilioStatus(w http.ResponseWriter, r *http.Request) {
	form, ok := h.twilioForm(w, r)
	if !ok {
		return
	}
	status := strings.ToLower(form.Get("MessageStatus"))
	note := ""
	if c := form.Get("ErrorCode"); c != "" {
		note = "error " + c
		if m := form.Get("ErrorMessage"); m != "" {
			note += ": " + m
		}
	}
	if _, err := h.o.Replies.Delivery(r.Context(), form.Get("MessageSid"), status, note); err != nil {
		h.o.Log.ErrorContext(r.Context(), "twilio status callback", "err", err)
		http.Error(w, "internal server error", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// whatsAppTransport reads the WhatsApp channel's stored settings, secrets opened.
func (h *Hooks) whatsAppTransport(ctx context.Context) (messages.WhatsAppTransport, error) {
	var t messages.WhatsAppTransport
	err := h.o.DB.ReadTx(ctx, func(q *db.Queries) error {
		var err error
		t, err = h.o.Messages.WhatsAppTransport(ctx, q, nil)
		return err
	})
	return t, err
}

// whatsAppVerify is the webhook verification handshake: Meta sends hub.mode=subscribe, the
// verify token the owner typed in both places, and a challenge to echo.
func (h *Hooks) whatsAppVerify(w http.ResponseWriter, r *http.Request) {
	t, err := h.whatsAppTransport(r.Context())
	if err != nil {
		h.o.Log.ErrorContext(r.Context(), "whatsapp webhook: reading the settings", "err", err)
		http.Error(w, "internal server error", http.StatusInternalServerError)
		return
	}
	q := r.URL.Query()
	if q.Get("hub.mode") != "subscribe" || t.VerifyToken == "" ||
		subtle.ConstantTimeCompare([]byte(q.Get("hub.verify_token")), []byte(t.VerifyToken)) != 1 {
		http.Error(w, "forbidden: wrong verify token", http.StatusForbidden)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	io.WriteString(w, q.Get("hub.challenge"))
}

// whatsAppNotification is the part of a Cloud API webhook notification frontdesk reads.
type whatsAppNotification struct {
	Object string `json:"object"`
	Entry  []struct {
		Changes []struct {
			Field string `json:"field"`
			Value struct {
				Messages []struct {
					From string                `json:"from"`
					ID   string                `json:"id"`
					Type string                `json:"type"`
					Text struct{ Body string } `json:"text"`
					// Context names the message this one answers (ours, for a button).
					Context struct {
						ID string `json:"id"`
					} `json:"context"`
					Button struct {
						Payload string `json:"payload"`
						Text    string `json:"text"`
					} `json:"button"`
					Interactive struct {
						ButtonReply struct {
							ID    string `json:"id"`
							Title string `json:"title"`
						} `json:"button_reply"`
					} `json:"interactive"`
				} `json:"messages"`
				Statuses []struct {
					ID     string `json:"id"`
					Status string `json:"status"`
					Errors []struct {
						Code    int    `json:"code"`
						Title   string `json:"title"`
						Message string `json:"message"`
					} `json:"errors"`
				} `json:"statuses"`
			} `json:"value"`
		} `json:"changes"`
	} `json:"entry"`
}

// whatsAppNotify is a signed notification: clients' messages go through app/replies (which
// writes the answer into the messages outbox, in the transaction that records what the message
// did: sent as a WhatsApp text with the outbox's retries and log), statuses into the message log. Anything else in it
// is ignored and answered 200, so Meta does not send it again.
func (h *Hooks) whatsAppNotify(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		http.Error(w, "unreadable body", http.StatusBadRequest)
		return
	}
	t, err := h.whatsAppTransport(r.Context())
	if err != nil {
		h.o.Log.ErrorContext(r.Context(), "whatsapp webhook: reading the settings", "err", err)
		http.Error(w, "internal server error", http.StatusInternalServerError)
		return
	}
	if !replies.ValidMetaSignature(t.AppSecret, body, r.Header.Get("X-Hub-Signature-256")) {
		h.o.Log.WarnContext(r.Context(), "whatsapp webhook with a missing or wrong signature refused")
		http.Error(w, "forbidden: invalid signature", http.StatusForbidden)
		return
	}
	var n whatsAppNotification
	if err := json.Unmarshal(body, &n); err != nil {
		http.Error(w, "unreadable notification", http.StatusBadRequest)
		return
	}
	for _, e := range n.Entry {
		for _, c := range e.Changes {
			for _, m := range c.Value.Messages {
				in := replies.Inbound{Channel: messages.ChannelWhatsApp, ProviderID: m.ID, From: m.From, Text: m.Text.Body,
					ReplyTo: m.Context.ID}
				switch m.Type {
				case "button":
					in.Text, in.Button = m.Button.Text, m.Button.Payload
				case "interactive":
					in.Text, in.Button = m.Interactive.ButtonReply.Title, m.Interactive.ButtonReply.ID
				}
				res, err := h.o.Replies.Handle(r.Context(), in)
				if errors.Is(err, replies.ErrInvalid) {
					continue
				}
				if err != nil {
					h.o.Log.ErrorContext(r.Context(), "whatsapp incoming message", "err", err)
					http.Error(w, "internal server error", http.StatusInternalServerError)
					return
				}
				h.o.Log.InfoContext(r.Context(), "text reply", "channel", messages.ChannelWhatsApp, "action", res.Action,
					"outcome", res.Outcome, "booking", res.BookingID, "replayed", res.Replayed)
			}
			for _, s := range c.Value.Statuses {
				note := ""
				if len(s.Errors) > 0 {
					note = fmt.Sprintf("error %d: %s", s.Errors[0].Code, strings.TrimSpace(s.Errors[0].Title+" "+s.Errors[0].Message))
				}
				if _, err := h.o.Replies.Delivery(r.Context(), s.ID, strings.ToLower(s.Status), note); err != nil {
					h.o.Log.ErrorContext(r.Context(), "whatsapp status", "err", err)
					http.Error(w, "internal server error", http.StatusInternalServerError)
					return
				}
			}
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(`{"received":true}`))
}
