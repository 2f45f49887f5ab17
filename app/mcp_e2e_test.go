package app

import (
	"context"
	"net/http"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

type bearerTransport struct{ key string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return http.DefaultTransport.RoundTrip(r)
}

// `serve` mounts /mcp (app/server.go) and `apikey create --mcp` makes a key it accepts; a key
// created without --mcp is refused there. The tools themselves are tested in app/mcp.
func TestServeMountsMCP(t *testing.T) {
	dir := newDataDir(t)
	code, withMCP, stderr := run(t, "", "apikey", "create", "--data", dir, "--name", "assistant", "--full-access", "--mcp")
	if code != 0 {
		t.Fatalf("apikey create --mcp: exit %d, %s", code, stderr)
	}
	_, plain, _ := run(t, "", "apikey", "create", "--data", dir, "--name", "integration", "--full-access")
	if _, list, _ := run(t, "", "apikey", "list", "--json", "--data", dir); !strings.Contains(list, `"mcp": true`) || !strings.Contains(list, `"mcp": false`) {
		t.Fatalf("apikey list --json does not show which keys may use MCP: %s", list)
	}

	base := serveInProcess(t, dir, []string{"--addr", "127.0.0.1:0", "--demo"}).URL
	ctx := context.Background()
	connect := func(key string) (*sdk.ClientSession, error) {
		client := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "1"}, nil)
		return client.Connect(ctx, &sdk.StreamableClientTransport{
			Endpoint: base + "/mcp", HTTPClient: &http.Client{Transport: bearerTransport{strings.TrimSpace(key)}}, MaxRetries: -1,
		}, nil)
	}
	cs, err := connect(withMCP)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "list_locations", Arguments: map[string]any{}})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*sdk.TextContent).Text, "Lumen Providencia") {
		t.Fatalf("list_locations on the demo business: %v %+v", err, res)
	}
	if _, err := connect(plain); err == nil || !strings.Contains(err.Error(), "may not be used over MCP") {
		t.Fatalf("key without --mcp: %v, want refused", err)
	}
}
