// Package watest is a real HTTP receiver for the WhatsApp messages frontdesk sends, for tests:
// the Cloud API's messages endpoint, every request checked against Meta's own OpenAPI
// description of it (testdata/whatsapp_cloud_api.json, the send-message operation and the
// webhook payload copied from facebook/openapi; testdata/README.md). A request that does not
// match the description is answered 400 and recorded as a violation, which fails the test. It
// also checks incoming notifications a test makes against the description's webhook payload
// (CheckNotification), so what the tests post is what Meta would.
package watest

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

//go:embed testdata/whatsapp_cloud_api.json
var metaDoc []byte

// The credentials tests set WhatsApp up with.
const (
	PhoneNumberID = "106540352242922"
	AccessToken   = "test-access-token-0123456789"
	AppSecret     = "test-app-secret-0123456789"
	VerifyToken   = "test-verify-token"
)

// Message is one message received.
type Message struct {
	To       string
	Type     string
	Template string
	Lang     string
	Params   []string // the body's parameters, in order
	Payloads []string // the quick-reply buttons' payloads, in order
	Text     string   // a free-form text's body
	Raw      string
}

// Server is the receiver; its URL is the Graph API's base.
type Server struct {
	*httptest.Server
	t      testing.TB
	router routers.Router
	// incoming is the description as notifications are checked against it (see CheckNotification).
	incoming *openapi3.T

	mu         sync.Mutex
	messages   []Message
	violations []string
	attempts   int            // requests that matched the description, taken or not
	failNext   []int          // statuses to answer the next requests with, in order
	refuse     map[string]int // numbers (digits, as sent) refused with a Graph error code
	hold       func()         // called before each message is answered (Hold)
}

// Hold calls f before each message that matched the description is recorded and answered: a
// test makes the API slow with it, to stop frontdesk while messages are being sent.
func (s *Server) Hold(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hold = f
}

// FailNext makes the next len(statuses) requests fail with those statuses (a 5xx: Meta's
// "Something went wrong", error 131000; a 429: its throttling error, 130429).
func (s *Server) FailNext(statuses ...int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failNext = append(s.failNext, statuses...)
}

// Refuse makes every message to number (E.164) fail with HTTP 400 and the Graph error code,
// as Meta refuses a number that cannot receive it (131026: message undeliverable, the
// recipient is not on WhatsApp; 131030: not in the test number's allowed list).
func (s *Server) Refuse(number string, code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refuse == nil {
		s.refuse = map[string]int{}
	}
	s.refuse[strings.TrimPrefix(number, "+")] = code
}

// Attempts is how many requests that matched the description arrived, taken or refused.
func (s *Server) Attempts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.attempts
}

// Start runs a receiver for the test's life; at its end any request that broke Meta's
// description fails the test.
func Start(t testing.TB) *Server {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(metaDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc.Servers = nil // match any host: the test's
	for _, item := range doc.Paths.Map() {
		item.Servers = nil
	}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	// Meta's incoming message schemas (ButtonMessage, …) are allOf BaseMessageProperties, which
	// requires the fields of a message sent (messaging_product, recipient_type, to) that no
	// incoming message has — not even the schemas' own examples. Notifications are checked
	// against a copy without that list (testdata/README.md).
	incoming, err := openapi3.NewLoader().LoadFromData(metaDoc)
	if err != nil {
		t.Fatal(err)
	}
	incoming.Components.Schemas["BaseMessageProperties"].Value.Required = nil
	s := &Server{t: t, router: router, incoming: incoming}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(func() {
		s.Close()
		s.Check()
	})
	return s
}

// Messages are the messages received so far.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.messages...)
}

// Check fails the test for every request that did not match Meta's description.
func (s *Server) Check() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range s.violations {
		s.t.Errorf("watest: a request broke the WhatsApp Cloud API description: %s", v)
	}
	s.violations = nil
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if err := s.validate(r, body); err != nil {
		s.mu.Lock()
		s.violations = append(s.violations, fmt.Sprintf("%s %s: %v", r.Method, r.URL.Path, err))
		s.mu.Unlock()
		graphError(w, http.StatusBadRequest, 100, err.Error())
		return
	}
	var v struct {
		To       string                `json:"to"`
		Type     string                `json:"type"`
		Text     struct{ Body string } `json:"text"`
		Template struct {
			Name     string `json:"name"`
			Language struct {
				Code string `json:"code"`
			} `json:"language"`
			Components []struct {
				Type       string `json:"type"`
				Parameters []struct {
					Text    string `json:"text"`
					Payload string `json:"payload"`
				} `json:"parameters"`
			} `json:"components"`
		} `json:"template"`
	}
	_ = json.Unmarshal(body, &v)
	s.mu.Lock()
	s.attempts++
	fail := 0
	if len(s.failNext) > 0 {
		fail, s.failNext = s.failNext[0], s.failNext[1:]
	}
	refused := s.refuse[strings.TrimPrefix(v.To, "+")]
	hold := s.hold
	s.mu.Unlock()
	if hold != nil {
		hold()
	}
	switch {
	case fail == http.StatusTooManyRequests:
		graphError(w, fail, 130429, "Rate limit hit")
		return
	case fail != 0:
		graphError(w, fail, 131000, "Something went wrong")
		return
	case refused != 0:
		graphError(w, http.StatusBadRequest, refused, "Message Undeliverable.")
		return
	}
	m := Message{To: v.To, Type: v.Type, Template: v.Template.Name, Lang: v.Template.Language.Code, Text: v.Text.Body, Raw: string(body)}
	for _, c := range v.Template.Components {
		for _, p := range c.Parameters {
			switch c.Type {
			case "body":
				m.Params = append(m.Params, p.Text)
			case "button":
				m.Payloads = append(m.Payloads, p.Payload)
			}
		}
	}
	s.mu.Lock()
	s.messages = append(s.messages, m)
	n := len(s.messages)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"messaging_product": "whatsapp",
		"contacts": []map[string]string{{"input": v.To, "wa_id": strings.TrimPrefix(v.To, "+")}},
		"messages": []map[string]string{{"id": WAMID(n)}}})
}

// WAMID is the id the receiver gives the n-th message (from 1).
func WAMID(n int) string { return fmt.Sprintf("wamid.TEST%04d", n) }

// validate checks r against the description: the path (version and phone number id), the
// bearer token, the JSON body's schema.
func (s *Server) validate(r *http.Request, body []byte) error {
	if got := r.Header.Get("Authorization"); got != "Bearer "+AccessToken {
		return fmt.Errorf("wrong or missing bearer token")
	}
	if !strings.Contains(r.URL.Path, "/"+PhoneNumberID+"/") {
		return fmt.Errorf("not the phone number id's endpoint: %s", r.URL.Path)
	}
	r2 := r.Clone(r.Context())
	r2.Body = io.NopCloser(bytes.NewReader(body))
	route, params, err := s.router.FindRoute(r2)
	if err != nil {
		return err
	}
	in := &openapi3filter.RequestValidationInput{Request: r2, PathParams: params, Route: route,
		Options: &openapi3filter.Options{MultiError: true, AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
	return openapi3filter.ValidateRequest(r.Context(), in)
}

// CheckNotification fails the test when body is not a webhook payload as the description has
// it (what the tests post as Meta).
func (s *Server) CheckNotification(body []byte) {
	s.t.Helper()
	schema := s.incoming.Components.Schemas["WebhookPayload"]
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		s.t.Fatal(err)
	}
	if err := schema.Value.VisitJSON(v, openapi3.MultiErrors()); err != nil {
		s.t.Fatalf("watest: the notification breaks the description's WebhookPayload: %v", err)
	}
}

func graphError(w http.ResponseWriter, status, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": "OAuthException", "code": code}})
}
