package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"reflect"
	"runtime/debug"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"frontdesk/app/keyauth"
)

// addTools is the whole tool table: what a model can do, in the order it usually does it.
// Every tool names the Connect v3 scope it needs (the same scope the /v3 operation it mirrors
// needs) and is refused, in words, to a key without it.
func (s *Server) addTools() {
	addTool(s, listLocationsTool, s.listLocations)
	addTool(s, listServicesTool, s.listServices)
	addTool(s, resolveDateTool, s.resolveDate)
	addTool(s, findFreeTimesTool, s.findFreeTimes)
	addTool(s, findClientTool, s.findOrCreateClient)
	addTool(s, bookTool, s.book)
	addTool(s, findVisitTimesTool, s.findVisitTimes)
	addTool(s, bookVisitTool, s.bookVisit)
	addTool(s, seriesTool, s.bookSeries)
	addTool(s, upcomingTool, s.upcomingBookings)
	addTool(s, rescheduleTool, s.reschedule)
	addTool(s, cancelTool, s.cancel)
	addTool(s, giftCardTool, s.giftCardBalance)
	addTool(s, membershipsTool, s.listMemberships)
	addTool(s, clientMembershipsTool, s.clientMemberships)
}

// toolSpec describes a tool to clients.
type toolSpec struct {
	name, title, description string
	scope                    string // needed by the key; "" = any key allowed over MCP
	readOnly, destructive    bool
	idempotent               bool
	input                    *jsonschema.Schema
}

// registered is a tool as added, kept so tests can hold each input schema against the type
// its arguments decode into (and docs/mcp.md against both).
type registered struct {
	spec toolSpec
	args reflect.Type
}

// answer is a tool's successful result: data as structured content, text as a short summary.
type answer struct {
	data any
	text string
}

// call is what a tool handler knows about its call.
type call struct {
	key keyauth.Key
}

// addTool registers a tool whose arguments decode into In. The wrapper checks the scope,
// decodes and bounds the arguments, runs the handler and turns any error (or panic) into a tool
// error through errorResult; nothing reaches the client as a protocol failure.
func addTool[In any](s *Server, spec toolSpec, run func(context.Context, call, *In) (answer, error)) {
	scopeNote := ""
	if spec.scope != "" {
		scopeNote = fmt.Sprintf(" Needs an API key with the %s scope.", spec.scope)
	}
	tool := &sdk.Tool{
		Name: spec.name, Title: spec.title, Description: spec.description + scopeNote, InputSchema: spec.input,
		Annotations: &sdk.ToolAnnotations{
			Title: spec.title, ReadOnlyHint: spec.readOnly, DestructiveHint: ptr(spec.destructive),
			IdempotentHint: spec.idempotent, OpenWorldHint: ptr(false),
		},
	}
	s.tools = append(s.tools, registered{spec: spec, args: reflect.TypeFor[In]()})
	s.sdk.AddTool(tool, func(ctx context.Context, req *sdk.CallToolRequest) (res *sdk.CallToolResult, err error) {
		key, ok := keyOf(req)
		defer func() {
			if p := recover(); p != nil {
				res, err = s.errorResult(ctx, spec.name, fmt.Errorf("panic: %v\n%s", p, debug.Stack())), nil
			}
			// One line per call, so an owner can follow what an assistant did (and why it failed).
			outcome := "ok"
			if res.IsError && len(res.Content) > 0 {
				if tc, isText := res.Content[0].(*sdk.TextContent); isText {
					outcome, _, _ = strings.Cut(tc.Text, ":")
				}
			}
			s.log.InfoContext(ctx, "mcp tool call", slog.String("tool", spec.name), slog.Int64("key_id", key.ID), slog.String("outcome", outcome))
		}()
		if !ok { // guard always sets it; without it nothing may run
			return s.errorResult(ctx, spec.name, fmt.Errorf("mcp: tool %s called without a key", spec.name)), nil
		}
		if spec.scope != "" && !key.Allows(spec.scope) {
			return s.errorResult(ctx, spec.name, &toolError{Kind: kindScope, Message: fmt.Sprintf(
				"this API key may not use %s (it lacks the %s scope); tell the customer you cannot do that here and that they can contact the business", spec.name, spec.scope)}), nil
		}
		var raw json.RawMessage
		if req.Params != nil {
			raw = req.Params.Arguments
		}
		var in In
		if err := decodeArgs(raw, &in); err != nil {
			return s.errorResult(ctx, spec.name, err), nil
		}
		a, err := run(ctx, call{key: key}, &in)
		if err != nil {
			return s.errorResult(ctx, spec.name, err), nil
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: a.text}}, StructuredContent: a.data}, nil
	})
}

// keyOf is the key the request carrying req authenticated with (access.go put it there).
func keyOf(req interface{ GetExtra() *sdk.RequestExtra }) (keyauth.Key, bool) {
	extra := req.GetExtra()
	if extra == nil || extra.TokenInfo == nil {
		return keyauth.Key{}, false
	}
	k, ok := extra.TokenInfo.Extra[extraKey].(keyauth.Key)
	return k, ok
}
