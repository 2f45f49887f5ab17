package api

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/go-chi/chi/v5"
)

// referencePath is a copy of the Connect v3 reference document, kept in the repository so CI
// on a clean clone has it.
const referencePath = "testdata/agendapro-connect-v3-openapi.yml"

var (
	referenceDoc = sync.OnceValues(func() (*openapi3.T, error) {
		doc, err := openapi3.NewLoader().LoadFromFile(referencePath)
		if err != nil {
			return nil, err
		}
		patchReference(doc)
		return doc, nil
	})
	ourDoc = sync.OnceValues(func() (*openapi3.T, error) {
		return openapi3.NewLoader().LoadFromData(openAPIDocument)
	})
)

// patchReference fixes what the reference means but OpenAPI 3.0 cannot say: `nullable` next
// to a `$ref` is ignored in 3.0, so CustomAttributeTemplate.attribute_group, which the
// reference marks nullable (and shows as null in its own example), would refuse null.
func patchReference(doc *openapi3.T) {
	tpl := doc.Components.Schemas["CustomAttributeTemplate"].Value
	group := *doc.Components.Schemas["AttributeGroup"].Value
	group.Nullable = true
	tpl.Properties["attribute_group"] = openapi3.NewSchemaRef("", &group)
}

// validateResponse checks a real response against the operation's response in the reference
// document (when the reference has the operation and documents the status) and in ours
// (always: every status we send must be documented). Bookings, carts and sales add rows to the
// tables that call it.
func validateResponse(t *testing.T, operationID string, resp *http.Response, body []byte) {
	t.Helper()
	ref, err := referenceDoc()
	if err != nil {
		t.Fatalf("load reference OpenAPI: %v", err)
	}
	ours, err := ourDoc()
	if err != nil {
		t.Fatalf("load our OpenAPI: %v", err)
	}
	if route := findRoute(ref, operationID); route != nil {
		if err := checkResponse(route, resp, body, false); err != nil {
			t.Errorf("%s %d: does not match the reference document: %v\nbody: %s", operationID, resp.StatusCode, err, body)
		}
	}
	route := findRoute(ours, operationID)
	if route == nil {
		t.Fatalf("operation %s is not in our OpenAPI document", operationID)
	}
	if err := checkResponse(route, resp, body, true); err != nil {
		t.Errorf("%s %d: does not match our OpenAPI document: %v\nbody: %s", operationID, resp.StatusCode, err, body)
	}
}

func checkResponse(route *routers.Route, resp *http.Response, body []byte, statusMustBeDocumented bool) error {
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: resp.Request, Route: route},
		Status:                 resp.StatusCode,
		Header:                 resp.Header,
		Body:                   io.NopCloser(bytes.NewReader(body)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: statusMustBeDocumented, MultiError: true},
	}
	return openapi3filter.ValidateResponse(context.Background(), in)
}

// findRoute finds an operation by id, including the CANCEL alias our document describes as
// an x-additionalOperations extension.
func findRoute(doc *openapi3.T, operationID string) *routers.Route {
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if op.OperationID == operationID {
				return &routers.Route{Spec: doc, Path: path, PathItem: item, Method: method, Operation: op}
			}
		}
	}
	return nil
}

func TestOpenAPIDocumentsLoad(t *testing.T) {
	ctx := context.Background()
	ours, err := ourDoc()
	if err != nil {
		t.Fatalf("load our document: %v", err)
	}
	if ours.OpenAPI != "3.1.0" || !ours.IsOpenAPI31OrLater() {
		t.Fatalf("our document is OpenAPI %q, want 3.1.0", ours.OpenAPI)
	}
	if err := ours.Validate(ctx); err != nil {
		t.Fatalf("our document is not valid: %v", err)
	}
	ref, err := referenceDoc()
	if err != nil {
		t.Fatalf("load reference: %v", err)
	}
	if err := ref.Validate(ctx, openapi3.DisableExamplesValidation()); err != nil {
		t.Fatalf("reference is not valid: %v", err)
	}
	if _, err := os.Stat(referencePath); err != nil {
		t.Fatal(err)
	}
}

// TestValidationCatchesMismatches proves the validation above can fail: a client body without
// its required email, and one with a wrong type, are refused by both documents.
func TestValidationCatchesMismatches(t *testing.T) {
	f := newFixture(t)
	resp, raw := f.call("GET", "/v3/clients/1", nil)
	wantStatus(t, resp, raw, http.StatusOK)
	ref, _ := referenceDoc()
	ours, _ := ourDoc()
	broken := map[string]string{
		"missing email": strings.Replace(string(raw), `"email":"maria.lopez@example.com",`, "", 1),
		"string gender": strings.Replace(string(raw), `"gender":1`, `"gender":"1"`, 1),
		"null active":   strings.Replace(string(raw), `"active":true`, `"active":null`, 1),
	}
	for name, body := range broken {
		if body == string(raw) {
			t.Fatalf("%s: the replacement did not apply to %s", name, raw)
		}
		for docName, doc := range map[string]*openapi3.T{"reference": ref, "ours": ours} {
			if err := checkResponse(findRoute(doc, "getClient"), resp, []byte(body), true); err == nil {
				t.Errorf("%s: %s document accepted %s", name, docName, body)
			}
		}
	}
	if err := checkResponse(findRoute(ours, "getClient"), &http.Response{StatusCode: 418, Header: resp.Header, Request: resp.Request}, nil, true); err == nil {
		t.Error("our document accepted an undocumented status 418")
	}
	// Fields every answer carries are required in ours, so an answer without one is refused:
	// a slot without its instant, metadata without its end date, a search hit without its name.
	for _, c := range []struct{ operation, path, field string }{
		{"listAvailableSlots", "/v3/available_slots?location_id=1&service_id=1&start_date=2026-11-24", `"starts_at":"2026-11-24T09:00:00-03:00",`},
		{"listAvailableSlots", "/v3/available_slots?location_id=1&service_id=1&start_date=2026-11-24", `,"end_date":"2026-11-24"`},
		{"quickSearchClients", "/v3/clients/quick-search?q=maria", `"full_name":"Maria Lopez",`},
	} {
		resp, raw := f.call("GET", c.path, nil)
		wantStatus(t, resp, raw, http.StatusOK)
		body := strings.Replace(string(raw), c.field, "", 1)
		if body == string(raw) {
			t.Fatalf("%s: %s is not in %s", c.operation, c.field, raw)
		}
		if err := checkResponse(findRoute(ours, c.operation), resp, []byte(body), true); err == nil {
			t.Errorf("%s: our document accepted an answer without %s", c.operation, c.field)
		}
	}
}

// TestOpenAPIDescribesEveryRoute walks the real route table: every route has an operation in
// our document (CANCEL under x-additionalOperations), and every documented operation is routed.
func TestOpenAPIDescribesEveryRoute(t *testing.T) {
	ours, err := ourDoc()
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for path, item := range ours.Paths.Map() {
		for method := range item.Operations() {
			documented[method+" "+path] = true
		}
		if extra, ok := item.Extensions["x-additionalOperations"].(map[string]any); ok {
			for method := range extra {
				documented[method+" "+path] = true
			}
		}
	}
	routed := map[string]bool{}
	api := New(nil, Options{})
	err = chi.Walk(api.Routes().(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		routed[method+" /v3"+strings.TrimSuffix(route, "/")] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for r := range routed {
		if !documented[r] {
			t.Errorf("route %s is not in /v3/openapi.json", r)
		}
	}
	for d := range documented {
		if !routed[d] {
			t.Errorf("operation %s is documented but not routed", d)
		}
	}
	// The 28 reference operations, the CANCEL alias and openapi.json, plus additions:
	const products = 2 // the two products reads (products.go)
	const classes = 4  // packs and waitlists (classes.go)
	const erase = 1    // a client's erasure (clients.go)
	const visits = 4   // book, read, move and cancel a visit (visits.go)
	const series = 2   // a series checked and booked (series.go)
	const waits = 4    // the waitlist for appointments (apptwaitlist.go)
	const money = 3    // a gift card by code, the memberships, a client's memberships (money.go)
	if want := 30 + products + classes + erase + visits + series + waits + money; len(routed) != want {
		t.Errorf("got %d routes, want %d: the 28 reference operations, the CANCEL alias, openapi.json and the additions", len(routed), want)
	}
}

// sometimesAbsent lists the properties of response and webhook schemas that a server answer may
// leave out, each with when; every other property of every such object schema must be listed
// in its required, because it is always sent (as a value or null). Generated clients read
// "required" as "always there": openapi-typescript makes every other field "possibly
// undefined", which strict TypeScript refuses to use without a check.
var sometimesAbsent = map[string]string{
	"AvailableSlot.session_id":           "a class's sessions only (docs/classes.md)",
	"AvailableSlot.capacity":             "a class's sessions only",
	"AvailableSlot.seats_left":           "a class's sessions only",
	"AvailableSlotsMetadata.service_id":  "only when the query named a service",
	"AvailableSlotsMetadata.service_ids": "a visit's slots only (service_ids; docs/visits.md)",
	"AvailableSlot.price":                "a visit's slots only",
	"AvailableSlot.segments":             "a visit's slots only",
	"PaymentRequestEvent.sale_id":        "payment_request.paid only: the sale it created",
	"BookingEvent.series_id":             "an occurrence of a series only (docs/visits.md)",
	"Visit.payment_request":              "a visit booked with pay_online only, in that answer (docs/visits.md)",
}

// TestResponseSchemasRequireWhatIsAlwaysSent walks every schema a response or a webhook of our
// document can carry (following $ref, allOf/oneOf/anyOf, items and nested objects) and holds
// every object with properties to listing in required all but the properties of
// sometimesAbsent. The conformance tests (TestResponsesMatchOpenAPI and every test calling
// validateResponse) validate real answers against these required lists, so a property listed
// here as always sent that an answer leaves out fails there: together they keep required true.
func TestResponseSchemasRequireWhatIsAlwaysSent(t *testing.T) {
	ours, err := ourDoc()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[*openapi3.Schema]bool{}
	allowed := map[string]bool{}
	var walk func(path string, ref *openapi3.SchemaRef)
	walk = func(path string, ref *openapi3.SchemaRef) {
		if ref == nil || ref.Value == nil {
			return
		}
		if ref.Ref != "" {
			path = ref.Ref[strings.LastIndex(ref.Ref, "/")+1:]
		}
		s := ref.Value
		if seen[s] {
			return
		}
		seen[s] = true
		for _, parts := range [][]*openapi3.SchemaRef{s.AllOf, s.OneOf, s.AnyOf} {
			for _, p := range parts {
				if p.Ref != "" {
					walk(path, p)
				} else {
					walk(path, &openapi3.SchemaRef{Value: p.Value}) // the same object, in parts
				}
			}
		}
		required := map[string]bool{}
		for _, r := range s.Required {
			required[r] = true
		}
		for name, prop := range s.Properties {
			key := path + "." + name
			if _, ok := sometimesAbsent[key]; ok {
				allowed[key] = true
				if required[name] {
					t.Errorf("%s is required, but sometimesAbsent says it may be left out", key)
				}
			} else if !required[name] {
				t.Errorf("%s is always sent but not in %s's required", key, path)
			}
			walk(key, prop)
		}
		walk(path+"[]", s.Items)
		if s.AdditionalProperties.Schema != nil {
			walk(path+"{}", s.AdditionalProperties.Schema)
		}
	}
	for path, item := range ours.Paths.Map() {
		for method, op := range item.Operations() {
			for status, resp := range op.Responses.Map() {
				if resp.Value == nil {
					continue
				}
				for _, media := range resp.Value.Content {
					walk(method+" "+path+" "+status, media.Schema)
				}
			}
		}
	}
	for name, hook := range ours.Webhooks {
		for _, op := range hook.Operations() {
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				for _, media := range op.RequestBody.Value.Content {
					walk("webhook "+name, media.Schema)
				}
			}
		}
	}
	for key := range sometimesAbsent {
		if !allowed[key] {
			t.Errorf("sometimesAbsent names %s, which no response or webhook schema has", key)
		}
	}
}
