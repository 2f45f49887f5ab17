// Package mcp serves the Model Context Protocol endpoint /mcp: an AI assistant (a chat bot, a
// voice agent) connects with an API key and books for customers through tools. Everything is
// built on the official Go SDK's Streamable HTTP transport.
//
// The tools are thin layers over the stores the /v3 API uses — app/booking for times and
// bookings, app/clients for clients — called as the customer flow with source "mcp", so the
// same rules, events and webhooks apply. What this package adds is what a model needs: dates
// resolved in the location's calendar, slot ids instead of time arithmetic (slotid.go), and
// errors in plain words that say what to do next (errors.go).
//
// Access (access.go) is checked on every HTTP request: the key (app/keyauth, shared with /v3,
// so a revoked key fails on its next call and the rate limits are one budget), the owner's
// channel switch and the key's own MCP switch. Each tool then checks its Connect v3 scope.
// docs/mcp.md is the user's manual.
package mcp

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"frontdesk/app/keyauth"
	"frontdesk/app/links"
	"frontdesk/db"
)

// Options configure the endpoint.
type Options struct {
	Now     func() time.Time
	Log     *slog.Logger
	Keys    *keyauth.Keys // shared with /v3 (app/server.go); nil makes one without limits
	Version string        // reported to clients
	// Links is the base of generated absolute links (a visit's checkout URL): the public URL.
	Links links.Base
}

// Server is the MCP endpoint.
type Server struct {
	db    *db.DB
	now   func() time.Time
	log   *slog.Logger
	keys  *keyauth.Keys
	links links.Base

	// The SDK server with its tools, resources and prompts is built on the first request
	// (sdkServer), not at start: building it derives and checks every tool's JSON schema, half
	// a megabyte of heap and many pages of code that an appliance no assistant talks to would
	// keep resident for nothing (docs/mcp.md).
	build   sync.Once
	version string
	sdk     *sdk.Server

	tools []registered

	slotKeyMu sync.Mutex
	slotKey   []byte // mcp_settings.slot_key, read once
}

// maxBody bounds one request body, as /v3 does.
const maxBody = 1 << 20

// New returns the endpoint over d.
func New(d *db.DB, o Options) *Server {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Keys == nil {
		o.Keys = keyauth.New(d, keyauth.Options{Now: o.Now, Log: o.Log})
	}
	return &Server{db: d, now: o.Now, log: o.Log, keys: o.Keys, links: o.Links, version: o.Version}
}

// sdkServer is the SDK server, built with its tools, resources and prompts on first use.
func (s *Server) sdkServer() *sdk.Server {
	s.build.Do(func() {
		s.sdk = sdk.NewServer(&sdk.Implementation{Name: "frontdesk", Title: "frontdesk booking", Version: s.version},
			&sdk.ServerOptions{Instructions: instructions, Logger: s.log})
		s.addTools()
		s.addResources()
		s.addPrompts()
	})
	return s.sdk
}

// instructions is what the server tells a client at connection, for its model.
const instructions = `frontdesk is this business's booking system. Use the tools to find services, ` +
	`find free times, and book, reschedule or cancel appointments for the customer you are talking to. ` +
	`Never compute dates or times yourself: use resolve_date for dates and book only with a slot_id from ` +
	`find_free_times. Times are in the location's time zone; tell the customer the local time. ` +
	`The "receptionist" prompt describes the whole flow.`

// Handler serves the endpoint; mount it at /mcp.
//
// The transport is stateless with JSON answers: every POST carries one message and is answered
// on its own, so there is no session to lose on a restart and no stream for a proxy or the
// server's write timeout to cut. Localhost (DNS rebinding) protection is off because it
// refuses every request a reverse proxy on the same machine forwards with the public Host,
// and it guards against browsers riding on ambient credentials, which Bearer keys are not.
func (s *Server) Handler() http.Handler {
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.sdkServer() }, &sdk.StreamableHTTPOptions{
		Stateless:                  true,
		JSONResponse:               true,
		Logger:                     s.log,
		DisableLocalhostProtection: true,
		MaxRequestBodyBytes:        maxBody,
	})
	// The SDK hands tools the key only through its own TokenInfo, so the key access already
	// checked is passed on that way; the verifier cannot fail.
	withToken := auth.RequireBearerToken(func(ctx context.Context, _ string, _ *http.Request) (*auth.TokenInfo, error) {
		k, ok := ctx.Value(keyCtx{}).(keyauth.Key)
		if !ok {
			return nil, fmt.Errorf("mcp: no key in context: %w", auth.ErrInvalidToken)
		}
		return &auth.TokenInfo{UserID: fmt.Sprint(k.ID), Extra: map[string]any{extraKey: k}}, nil
	}, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})
	return s.guard(withToken(h))
}

// slotSecret returns the key slot ids are signed with (mcp_settings.slot_key). It never
// changes, so it is read once.
func (s *Server) slotSecret(ctx context.Context) ([]byte, error) {
	s.slotKeyMu.Lock()
	defer s.slotKeyMu.Unlock()
	if s.slotKey == nil {
		st, err := s.db.R.MCPSettings(ctx)
		if err != nil {
			return nil, fmt.Errorf("mcp settings: %w", err)
		}
		s.slotKey = st.SlotKey
	}
	return s.slotKey, nil
}
