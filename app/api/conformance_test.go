package api

import (
	"strings"
	"testing"
)

// TestResponsesMatchOpenAPI sends every operation this package serves — successes and the
// errors it documents — to the fixture server and validates each real response against the
// Connect v3 reference and against our own /v3/openapi.json. Rows run in order on one fixture.
func TestResponsesMatchOpenAPI(t *testing.T) {
	f := newFixture(t)
	big := `{"first_name":"` + strings.Repeat("x", 2<<20) + `"}`
	cases := []struct {
		name        string
		operationID string
		method      string
		path        string
		body        any
		key         string // "" = the fixture's full-access key; "none" = no Authorization
		status      int
	}{
		{"locations", "listLocations", "GET", "/v3/locations", nil, "", 200},
		{"locations inactive", "listLocations", "GET", "/v3/locations?active=false", nil, "", 200},
		{"locations bad page", "listLocations", "GET", "/v3/locations?page=0", nil, "", 400},
		{"location", "getLocation", "GET", "/v3/locations/1", nil, "", 200},
		{"location without phone", "getLocation", "GET", "/v3/locations/2", nil, "", 200},
		{"location missing", "getLocation", "GET", "/v3/locations/999", nil, "", 404},
		{"categories", "listCategories", "GET", "/v3/categories?per_page=2", nil, "", 200},
		{"services", "listServices", "GET", "/v3/services", nil, "", 200},
		{"services of provider", "listServices", "GET", "/v3/services?provider_id=3&active=true", nil, "", 200},
		{"services bad provider", "listServices", "GET", "/v3/services?provider_id=x", nil, "", 400},
		{"service with images", "getService", "GET", "/v3/services/1", nil, "", 200},
		{"service class", "getService", "GET", "/v3/services/4", nil, "", 200},
		{"service inactive", "getService", "GET", "/v3/services/5", nil, "", 200},
		{"service missing", "getService", "GET", "/v3/services/999", nil, "", 404},
		{"providers", "listProviders", "GET", "/v3/providers", nil, "", 200},
		{"providers filtered", "listProviders", "GET", "/v3/providers?location_ids=1,2&service_ids=1&public_name=an&active=true&sort_by=public_name&order_by=desc", nil, "", 200},
		{"providers bad sort", "listProviders", "GET", "/v3/providers?sort_by=email", nil, "", 400},
		{"provider", "getProvider", "GET", "/v3/providers/1", nil, "", 200},
		{"provider inactive", "getProvider", "GET", "/v3/providers/4", nil, "", 200},
		{"provider missing", "getProvider", "GET", "/v3/providers/999", nil, "", 404},
		{"custom attribute templates", "listCustomAttributeTemplates", "GET", "/v3/custom_attributes", nil, "", 200},
		{"clients", "listClients", "GET", "/v3/clients", nil, "", 200},
		{"clients page 2", "listClients", "GET", "/v3/clients?per_page=2&page=2", nil, "", 200},
		{"clients unauthenticated", "listClients", "GET", "/v3/clients", nil, "none", 401},
		{"clients scope denied", "listClients", "GET", "/v3/clients", nil, "services:read", 403},
		{"client", "getClient", "GET", "/v3/clients/1", nil, "", 200},
		{"client sparse", "getClient", "GET", "/v3/clients/3", nil, "", 200},
		{"client missing", "getClient", "GET", "/v3/clients/999", nil, "", 404},
		{"client attributes", "listClientCustomAttributes", "GET", "/v3/clients/1/custom_attributes", nil, "", 200},
		{"client attributes missing", "listClientCustomAttributes", "GET", "/v3/clients/999/custom_attributes", nil, "", 404},
		{"quick search", "quickSearchClients", "GET", "/v3/clients/quick-search?q=maria", nil, "", 200},
		{"quick search short", "quickSearchClients", "GET", "/v3/clients/quick-search?q=jo&limit=25", nil, "", 200},
		{"quick search missing q", "quickSearchClients", "GET", "/v3/clients/quick-search", nil, "", 400},
		{"create client", "createClient", "POST", "/v3/clients", map[string]any{
			"first_name": "Rosa", "last_name": "Diaz", "email": "Rosa@Example.com", "phone": "+56911112222",
			"gender": 1, "birth_day": 29, "birth_month": 2, "birth_year": 2000, "age": 26,
			"custom_attributes": []map[string]any{{"id": 1, "value": "Ben"}, {"id": 2, "value": "curly"}, {"id": 3, "value": true}},
		}, "", 201},
		{"create client minimal", "createClient", "POST", "/v3/clients", `{"first_name":"Solo","phone":"+12125550199"}`, "", 201},
		{"create client invalid", "createClient", "POST", "/v3/clients", `{"first_name":"X","email":"nope"}`, "", 422},
		{"create client malformed", "createClient", "POST", "/v3/clients", `{"first_name":`, "", 400},
		{"create client too large", "createClient", "POST", "/v3/clients", big, "", 413},
		{"update client", "updateClient", "PATCH", "/v3/clients/3", `{"last_name":"Perez","email":null,"city":"Santiago"}`, "", 200},
		{"update client invalid", "updateClient", "PATCH", "/v3/clients/3", `{"phone":"12345"}`, "", 422},
		{"update client missing", "updateClient", "PATCH", "/v3/clients/999", `{"city":"X"}`, "", 404},
		{"deactivate client", "deactivateClient", "PATCH", "/v3/clients/2/deactivate", nil, "", 204},
		{"deactivate client again", "deactivateClient", "PATCH", "/v3/clients/2/deactivate", nil, "", 422},
		{"deactivate client missing", "deactivateClient", "PATCH", "/v3/clients/999/deactivate", nil, "", 404},
		{"inactive client", "getClient", "GET", "/v3/clients/2", nil, "", 200},
		{"openapi without key", "getOpenAPI", "GET", "/v3/openapi.json", nil, "none", 200},
	}
	scoped := map[string]string{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			key := f.key
			switch c.key {
			case "":
			case "none":
				key = ""
			default:
				if scoped[c.key] == "" {
					scoped[c.key] = f.newKey(c.key)
				}
				key = scoped[c.key]
			}
			resp, raw := f.callWithKey(key, c.method, c.path, c.body)
			wantStatus(t, resp, raw, c.status)
			validateResponse(t, c.operationID, resp, raw)
		})
	}
}
