package api

import (
	"encoding/json"
	"net/http"
	"testing"
)

// TestEraseClientEndpoint: POST /v3/clients/{id}/erase needs clients:write (403 without it),
// answers the erased client as our document describes it, and answers the same again when the
// client is already erased.
func TestEraseClientEndpoint(t *testing.T) {
	f := newFixture(t)
	resp, raw := f.call("POST", "/v3/clients", map[string]any{"first_name": "Olwen", "last_name": "Brastock",
		"email": "olwen.brastock@example.com", "phone": "+56911112222"})
	wantStatus(t, resp, raw, http.StatusCreated)
	var c struct {
		ID int64 `json:"id"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	path := "/v3/clients/" + itoa(c.ID) + "/erase"

	readOnly := f.newKey("clients:read")
	resp, raw = f.callWithKey(readOnly, "POST", path, nil)
	wantStatus(t, resp, raw, http.StatusForbidden)
	validateResponse(t, "eraseClient", resp, raw)

	for range 2 {
		resp, raw = f.call("POST", path, nil)
		wantStatus(t, resp, raw, http.StatusOK)
		validateResponse(t, "eraseClient", resp, raw)
		var got map[string]any
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatal(err)
		}
		if got["first_name"] != "Erased client" || got["email"] != "" || got["phone"] != nil || got["last_name"] != nil {
			t.Errorf("erased client %s", raw)
		}
	}
	resp, raw = f.call("POST", "/v3/clients/99999/erase", nil)
	wantStatus(t, resp, raw, http.StatusNotFound)
	validateResponse(t, "eraseClient", resp, raw)
}
