// Package smstest is a real HTTP receiver for the texts frontdesk sends, for tests: Twilio's
// Messages API, every request checked against Twilio's own OpenAPI description of it
// (testdata/twilio_messages.json, the Messages resource's create operation copied from
// twilio/twilio-oai; testdata/README.md), and a generic gateway endpoint that records what
// arrives. A request that does not match the description is answered 400 and recorded as a
// violation, which Check turns into a test failure.
package smstest

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

//go:embed testdata/twilio_messages.json
var twilioDoc []byte

// The account and token tests set up Twilio with.
const (
	AccountSID = "AC0123456789abcdef0123456789abcdef"
	AuthToken  = "test-auth-token-0123456789"
	From       = "+14155552345"
)

// Text is one text received.
type Text struct {
	To, From, Body string
	Header         http.Header
	Raw            string // the request body (the gateway's)
	Method, Path   string
}

// Server is the receiver; its URL is Twilio's base and, under /gateway, the gateway.
type Server struct {
	*httptest.Server
	t      testing.TB
	router routers.Router

	mu         sync.Mutex
	texts      []Text
	violations []string
	failNext   []int // statuses to answer the next requests with, in order
	attempts   int
}

// Start runs a receiver for the test's life; at its end any request that broke Twilio's
// description fails the test.
func Start(t testing.TB) *Server {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(twilioDoc)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background(), openapi3.DisableExamplesValidation()); err != nil {
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
	s := &Server{t: t, router: router}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(func() {
		s.Close()
		s.Check()
	})
	return s
}

// GatewayURL is the gateway endpoint's URL.
func (s *Server) GatewayURL() string { return s.URL + "/gateway" }

// FailNext makes the next len(statuses) requests fail with those statuses.
func (s *Server) FailNext(statuses ...int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failNext = append(s.failNext, statuses...)
}

// Texts are the texts received so far.
func (s *Server) Texts() []Text {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Text(nil), s.texts...)
}

// Attempts counts every request, refused ones included.
func (s *Server) Attempts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.attempts
}

// Check fails the test for every request that did not match Twilio's description.
func (s *Server) Check() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range s.violations {
		s.t.Errorf("smstest: a request broke Twilio's API description: %s", v)
	}
	s.violations = nil
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.attempts++
	var fail int
	if len(s.failNext) > 0 {
		fail, s.failNext = s.failNext[0], s.failNext[1:]
	}
	s.mu.Unlock()
	if strings.HasPrefix(r.URL.Path, "/gateway") {
		if fail != 0 {
			http.Error(w, "gateway down", fail)
			return
		}
		s.record(Text{Raw: string(body), Header: r.Header.Clone(), Method: r.Method, Path: r.URL.RequestURI()})
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, `{"ok":true}`)
		return
	}
	if err := s.validate(r, body); err != nil {
		s.mu.Lock()
		s.violations = append(s.violations, fmt.Sprintf("%s %s: %v", r.Method, r.URL.Path, err))
		s.mu.Unlock()
		twilioError(w, http.StatusBadRequest, 21601, err.Error())
		return
	}
	if fail != 0 {
		twilioError(w, fail, 20500, "Internal Server Error")
		return
	}
	form, _ := url.ParseQuery(string(body))
	to := form.Get("To")
	if strings.HasPrefix(to, "+1500555000") { // Twilio's magic test number for "invalid"
		twilioError(w, http.StatusBadRequest, 21211, "The 'To' number "+to+" is not a valid phone number.")
		return
	}
	s.record(Text{To: to, From: form.Get("From"), Body: form.Get("Body"), Header: r.Header.Clone(), Raw: string(body),
		Method: r.Method, Path: r.URL.Path})
	n := len(s.Texts())
	sid := fmt.Sprintf("SM%032x", n)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(map[string]any{"sid": sid, "status": "queued", "to": to, "from": form.Get("From"),
		"body": form.Get("Body"), "account_sid": AccountSID, "api_version": "2010-04-01", "num_segments": "1"})
}

func (s *Server) record(t Text) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.texts = append(s.texts, t)
}

// validate checks r against Twilio's description: the path and its AccountSid, the basic auth
// (the account's SID and the test token), the form body's fields and their types.
func (s *Server) validate(r *http.Request, body []byte) error {
	r2 := r.Clone(r.Context())
	r2.Body = io.NopCloser(strings.NewReader(string(body)))
	route, params, err := s.router.FindRoute(r2)
	if err != nil {
		return err
	}
	in := &openapi3filter.RequestValidationInput{Request: r2, PathParams: params, Route: route,
		Options: &openapi3filter.Options{MultiError: true, AuthenticationFunc: func(_ context.Context, ai *openapi3filter.AuthenticationInput) error {
			user, pass, ok := r.BasicAuth()
			if ai.SecurityScheme.Type != "http" || ai.SecurityScheme.Scheme != "basic" || !ok {
				return fmt.Errorf("no basic auth")
			}
			if user != AccountSID || pass != AuthToken {
				return fmt.Errorf("wrong account or token")
			}
			return nil
		}}}
	if err := openapi3filter.ValidateRequest(r.Context(), in); err != nil {
		return err
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return err
	}
	// The description lists every field as optional; the API needs To, a sender and a body.
	if form.Get("To") == "" || (form.Get("From") == "" && form.Get("MessagingServiceSid") == "") || form.Get("Body") == "" {
		return fmt.Errorf("To, From (or MessagingServiceSid) and Body are required")
	}
	return nil
}

func twilioError(w http.ResponseWriter, status, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"code": code, "message": msg, "status": status,
		"more_info": fmt.Sprintf("https://www.twilio.com/docs/errors/%d", code)})
}
