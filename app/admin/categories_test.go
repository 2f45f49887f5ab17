package admin_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestCategoryPages(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	d := openDB(t, ts)
	wantBody(t, c.get(t, "/catalog/categories"), "No categories yet.")

	tests := []struct {
		name  string
		form  url.Values
		field string
	}{
		{"no name", url.Values{"name": {""}, "order": {"1"}}, "name"},
		{"long name", url.Values{"name": {strings.Repeat("n", 201)}, "order": {"1"}}, "name"},
		{"order not a number", url.Values{"name": {"Kept <b>"}, "order": {"first"}}, "order"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := c.post(t, "/catalog/categories", tc.form)
			wantStatus(t, res, http.StatusUnprocessableEntity)
			wantBody(t, res, `data-testid="error-`+tc.field+`"`, `value="`+tc.form.Get("order")+`"`)
		})
	}

	nails := addCategory(t, c, "Nails")
	evil := addCategory(t, c, "<b>Hair</b>")
	wantRedirect(t, c.post(t, "/catalog/categories", url.Values{"name": {"First"}, "order": {"-5"}}), "/catalog/categories")
	list := c.get(t, "/catalog/categories")
	wantBody(t, list, "&lt;b&gt;Hair&lt;/b&gt;")
	if strings.Contains(list.Body, "<b>Hair") {
		t.Error("the list contains a category name as raw HTML")
	}
	if i, j := strings.Index(list.Body, ">First<"), strings.Index(list.Body, ">Nails<"); i < 0 || j < 0 || i > j {
		t.Error("categories are not listed by order")
	}

	form := serviceForm("Manicure")
	form.Set("category_id", nails)
	wantRedirect(t, c.post(t, "/catalog/services", form), "/catalog/services")

	edit := c.get(t, "/catalog/categories/"+nails)
	wantBody(t, edit, `value="Nails"`, `value="1"`)
	res := c.post(t, "/catalog/categories/"+nails, url.Values{"name": {" "}, "order": {"3"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-name"`, `value="3"`)

	wantRedirect(t, c.post(t, "/catalog/categories/"+nails, url.Values{"name": {"Nails & more"}, "order": {"3"}}), "/catalog/categories")
	if page := c.get(t, "/catalog/categories"); strings.Contains(page.Body, "webhooks") || !strings.Contains(page.Body, "Category “Nails &amp; more” saved.") {
		t.Errorf("without a subscribed webhook the flash should say only saved:\n%.3000s", page.Body)
	}
	subscribeWebhook(t, d, "*")
	wantRedirect(t, c.post(t, "/catalog/categories/"+nails, url.Values{"name": {"Nails & hands"}, "order": {"3"}}), "/catalog/categories")
	wantBody(t, c.get(t, "/catalog/categories"), "Webhooks subscribed to service.updated are told about its service.")
	events := serviceEvents(t, d)
	if len(events) != 2 || !jsonEqual(events[1]["category"], map[string]any{"id": jsonNumber(nails), "name": "Nails & hands"}) {
		t.Fatalf("after the rename got events %v, want one with the new category name", events)
	}

	confirm := c.get(t, "/catalog/categories/"+nails+"/delete")
	wantBody(t, confirm, `data-testid="delete-name">Nails &amp; hands<`, "Its service stays, without a category.")
	wantRedirect(t, c.post(t, "/catalog/categories/"+nails+"/delete", nil), "/catalog/categories")
	wantBody(t, c.get(t, "/catalog/categories"), "Category “Nails &amp; hands” deleted.")
	if events := serviceEvents(t, d); len(events) != 3 || events[2]["category"] != nil {
		t.Fatalf("after the delete got events %v, want a third with category null", events)
	}
	wantBody(t, c.get(t, "/catalog/services"), "Manicure")

	for _, path := range []string{"/catalog/categories/" + nails, "/catalog/categories/" + nails + "/delete", "/catalog/categories/x"} {
		wantStatus(t, c.get(t, path), http.StatusNotFound)
		wantStatus(t, c.post(t, path, url.Values{"name": {"x"}}), http.StatusNotFound)
	}
	wantStatus(t, c.get(t, "/catalog/categories/"+evil), http.StatusOK)
}

// jsonNumber is how an id decoded from JSON into any compares.
func jsonNumber(id string) any {
	var n float64
	for _, r := range id {
		n = n*10 + float64(r-'0')
	}
	return n
}
