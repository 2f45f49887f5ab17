package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"

	"frontdesk/app/keyauth"
	"frontdesk/db"
)

type keyCtx struct{}

// extraKey names the authenticated keyauth.Key in the SDK's TokenInfo.Extra.
const extraKey = "frontdesk.key"

// JSON-RPC error codes of refusals before any MCP message is read (the implementation-defined
// server error range). docs/mcp.md lists them.
const (
	codeUnauthorized = -32001
	codeForbidden    = -32003
	codeRateLimited  = -32029
	codeUnavailable  = -32050
)

// guard admits a request: a valid key (app/keyauth: looked up on every request, so a revoked
// key fails on its next call), counted against the key's rate limits (the same windows as
// /v3), with the MCP channel switched on by the owner and this key allowed over MCP (both read
// on every request, so switching either off takes effect at once).
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if len(r.Header.Values("Authorization")) > 1 {
			// As on /v3 (docs/api.md): which credential was meant cannot be guessed.
			refuse(w, r, http.StatusBadRequest, codeUnauthorized, "Send one Authorization header, not several.")
			return
		}
		key, err := s.keys.Authenticate(ctx, r.Header.Get("Authorization"))
		if errors.Is(err, keyauth.ErrInvalidKey) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="frontdesk"`)
			refuse(w, r, http.StatusUnauthorized, codeUnauthorized,
				"The API key is missing, unknown or revoked. Ask the business owner for a valid key (Settings → Integrations).")
			return
		}
		if err != nil {
			s.unavailable(w, r, err)
			return
		}
		usage := s.keys.Take(key.ID)
		usage.SetHeaders(w.Header())
		if detail, wait, over := usage.Exceeded(); over {
			w.Header().Set("Retry-After", strconv.Itoa(wait))
			refuse(w, r, http.StatusTooManyRequests, codeRateLimited,
				"Too many requests with this API key ("+detail+"); retry after "+strconv.Itoa(wait)+" seconds.")
			return
		}
		access, err := s.db.R.MCPAccess(ctx, key.ID)
		switch {
		case db.IsNotFound(err): // deleted between the two reads
			refuse(w, r, http.StatusUnauthorized, codeUnauthorized, "The API key is unknown or revoked.")
			return
		case err != nil:
			s.unavailable(w, r, err)
			return
		case !access.ChannelEnabled:
			refuse(w, r, http.StatusForbidden, codeForbidden,
				"The business has switched off booking through assistants (MCP). The owner can switch it on in Settings → Integrations.")
			return
		case !access.MCPAllowed:
			refuse(w, r, http.StatusForbidden, codeForbidden,
				"This API key may not be used over MCP. The business owner can allow it in Settings → Integrations.")
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(ctx, keyCtx{}, key)))
	})
}

func (s *Server) unavailable(w http.ResponseWriter, r *http.Request, err error) {
	s.log.ErrorContext(r.Context(), "mcp access check failed", "err", err)
	refuse(w, r, http.StatusServiceUnavailable, codeUnavailable, "The booking system is briefly unavailable; try again in a moment.")
}

// refuse answers an HTTP-level refusal with a JSON-RPC error for the request's message, so an
// MCP client shows the message as the failure of that call (the Go SDK's client does).
func refuse(w http.ResponseWriter, r *http.Request, status, code int, msg string) {
	var id json.RawMessage = []byte("null")
	if r.Body != nil {
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		raw, _ := io.ReadAll(io.LimitReader(r.Body, maxBody))
		if json.Unmarshal(raw, &m) == nil && len(m.ID) > 0 {
			id = m.ID
		}
	}
	body, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(body)
}
