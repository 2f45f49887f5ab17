package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"

	"frontdesk/app/activity"
	"frontdesk/app/input"
	"frontdesk/app/keyauth"
	"frontdesk/app/middleware"
	"frontdesk/db"
)

type keyCtx struct{}

// extraKey names the authenticated keyauth.Key in the SDK's TokenInfo.Extra.
const extraKey = "frontdesk.key"

// JSON-RPC error codes of refusals before any MCP message is read (the implementation-defined
// server error range). docs/mcp.md lists them.
const (
	codeParseError   = -32700 // JSON-RPC's own: the message is not one unambiguous JSON document
	codeUnauthorized = -32001
	codeForbidden    = -32003
	codeRateLimited  = -32029
	codeUnavailable  = -32050
)

// guard admits a request: a valid key (app/keyauth: looked up on every request, so a revoked
// key fails on its next call), counted against the key's rate limits (the same windows as
// /v3), with the MCP channel switched on by the owner and this key allowed over MCP (both read
// on every request, so switching either off takes effect at once). An address that keeps
// failing authentication is refused before any lookup, on the count /v3 keeps (one Keys value
// serves both, so failures through either surface add up). A message with a key twice in one
// object is refused before the SDK reads it (oneMessage).
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if len(r.Header.Values("Authorization")) > 1 {
			// As on /v3 (docs/api.md): which credential was meant cannot be guessed.
			refuse(w, r, http.StatusBadRequest, codeUnauthorized, "Send one Authorization header, not several.")
			return
		}
		client := middleware.ClientIP(r) // the real client's, behind a trusted proxy too
		if wait := s.keys.FailuresBlock(client); wait > 0 {
			secs := max(int(wait.Seconds()+0.999), 1)
			w.Header().Set("Retry-After", strconv.Itoa(secs))
			refuse(w, r, http.StatusTooManyRequests, codeRateLimited,
				"Too many failed authentications from this address; retry after "+strconv.Itoa(secs)+" seconds with a valid API key.")
			return
		}
		key, err := s.keys.Authenticate(ctx, r.Header.Get("Authorization"))
		if errors.Is(err, keyauth.ErrInvalidKey) {
			s.keys.Failed(client)
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
		if !oneMessage(w, r) {
			return
		}
		ctx = activity.WithActor(ctx, activity.Actor{Kind: activity.KindMCP, ID: strconv.FormatInt(key.ID, 10), Label: key.Name})
		next.ServeHTTP(w, r.WithContext(context.WithValue(ctx, keyCtx{}, key)))
	})
}

// oneMessage refuses a POST body that is valid JSON but has a key twice in one object
// ({"name":"list_services","name":"cancel_booking"}): the SDK would take the last, another
// reader the first, so which call was meant cannot be known (/v3 refuses the same,
// docs/api.md). It leaves r.Body readable from the start for whoever reads next. A body that
// is not JSON, or is over the limit, goes on to the SDK, which answers it in its own words.
func oneMessage(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodPost || r.Body == nil {
		return true
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		raw = nil // the SDK meets the same failure reading on
	}
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(raw), r.Body), r.Body}
	if len(raw) > maxBody || !json.Valid(raw) {
		return true
	}
	path, dup := input.DuplicateKey(raw)
	if !dup {
		return true
	}
	msg := "The JSON-RPC message has the key \"" + path + "\" twice in one object; which value was meant cannot be known. Send each key once."
	if path == "id" {
		r.Body = nil // the id itself is the ambiguous key: answer with a null id
	}
	refuse(w, r, http.StatusBadRequest, codeParseError, msg)
	return false
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
