package admin_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"frontdesk/app"
)

// The admin side of issue 10: API key access and the Z-means-local option, a webhook's
// signature key mode, and the products pages.

func TestAPIKeyAccessAndZMeansLocal(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	const path = "/settings/integrations/api-keys"
	for _, tc := range []struct {
		name  string
		form  url.Values
		field string
	}{
		{"no choice", url.Values{"name": {"k"}}, "access"},
		{"nothing ticked is not full access", url.Values{"name": {"k"}, "access": {"scopes"}}, "scopes"},
		{"full access with scopes ticked", url.Values{"name": {"k"}, "access": {"full"}, "scopes": {"clients:read"}}, "access"},
		{"unknown choice", url.Values{"name": {"k"}, "access": {"root"}}, "access"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := c.post(t, path, tc.form)
			wantStatus(t, res, http.StatusUnprocessableEntity)
			wantBody(t, res, `data-testid="error-`+tc.field+`"`)
		})
	}
	if list := c.get(t, path); strings.Contains(list.Body, `data-testid="api-key-row"`) {
		t.Fatal("a refused form created a key")
	}
	form := c.get(t, path)
	wantBody(t, form, `name="access" value="full"`, `name="access" value="scopes"`, `name="z_means_local"`)

	wantRedirect(t, c.post(t, path, url.Values{"name": {"Assistant"}, "access": {"scopes"}, "scopes": {"bookings:read", "bookings:write"}, "z_means_local": {"1"}}), path)
	wantRedirect(t, c.post(t, path, url.Values{"name": {"Everything"}, "access": {"full"}}), path)
	list := c.get(t, path)
	if n := strings.Count(list.Body, `data-testid="z-means-local-badge"`); n != 1 {
		t.Errorf("%d keys show the Z-means-local badge, want 1", n)
	}
	// What the form stored, as the CLI lists it.
	var out bytes.Buffer
	if code := app.Run(context.Background(), app.Env{Args: []string{"apikey", "list", "--json", "--data", ts.Data}, Stdout: &out, Stderr: &out}); code != 0 {
		t.Fatalf("apikey list: exit %d, %s", code, out.String())
	}
	var keys []struct {
		Name        string `json:"name"`
		Scopes      string `json:"scopes"`
		ZMeansLocal bool   `json:"z_means_local"`
	}
	if err := json.Unmarshal(out.Bytes(), &keys); err != nil || len(keys) != 2 {
		t.Fatalf("apikey list: %v %s", err, out.String())
	}
	if keys[0].Name != "Assistant" || keys[0].Scopes != "bookings:read,bookings:write" || !keys[0].ZMeansLocal {
		t.Errorf("first key %+v", keys[0])
	}
	if keys[1].Name != "Everything" || keys[1].Scopes != "*" || keys[1].ZMeansLocal {
		t.Errorf("second key %+v", keys[1])
	}
}

// literalVerify is a receiver that uses the whole secret text as the HMAC key.
func literalVerify(secret string, d delivery) bool {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(d.header.Get("webhook-id") + "." + d.header.Get("webhook-timestamp") + "."))
	mac.Write(d.body)
	want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	for _, sig := range strings.Fields(d.header.Get("webhook-signature")) {
		if hmac.Equal([]byte(sig), []byte(want)) {
			return true
		}
	}
	return false
}

func standardVerifies(secret string, d delivery) bool {
	wh, err := standardwebhooks.NewWebhook(secret)
	return err == nil && wh.Verify(d.body, d.header) == nil
}

func TestWebhookKeyModeForm(t *testing.T) {
	ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true")
	c := ts.setupOwner(t)
	rc := newReceiver(t)
	wantBody(t, c.get(t, webhooksPath+"/new"), `name="key_mode" value="standard" checked`)

	bad := webhookForm(rc.URL, "*")
	bad.Set("key_mode", "hex")
	res := c.post(t, webhooksPath, bad)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-key_mode"`)

	form := webhookForm(rc.URL, "*")
	form.Set("key_mode", "secret-text")
	id, secret := createWebhook(t, c, form)
	path := webhooksPath + "/" + id
	page := c.get(t, path)
	wantBody(t, page, `data-testid="webhook-key-mode">`, "The whole secret text")
	d := rc.waitForID(t, lastTestEventID(t, followTest(t, c, id)))
	if !literalVerify(secret, d) || standardVerifies(secret, d) {
		t.Errorf("secret-text webhook: literal verify %v, Standard Webhooks verify %v; want true, false",
			literalVerify(secret, d), standardVerifies(secret, d))
	}

	// Switching to standard in the edit form: the next event verifies the Standard way.
	wantBody(t, c.get(t, path+"/edit"), `name="key_mode" value="secret-text" checked`)
	form.Set("key_mode", "standard")
	form.Del("allow_private")
	wantRedirect(t, c.post(t, path, form), path)
	d = rc.waitForID(t, lastTestEventID(t, followTest(t, c, id)))
	if !standardVerifies(secret, d) || literalVerify(secret, d) {
		t.Errorf("after switching to standard: Standard verify %v, literal verify %v; want true, false",
			standardVerifies(secret, d), literalVerify(secret, d))
	}
}

func TestProductPages(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	wantRedirect(t, c.post(t, "/settings/business", businessForm()), "/settings/business") // EUR, English
	const path = "/catalog/products"
	wantBody(t, c.get(t, path), "No products yet.")
	wantBody(t, c.get(t, path+"/new"), `data-testid="product-form"`, `name="active" value="1" checked`)

	// Every problem at once, the input kept.
	res := c.post(t, path, url.Values{"name": {" "}, "price": {"twelve"}, "stock": {"-1"}, "sku": {"kept-sku"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-name"`, `data-testid="error-price"`, `data-testid="error-stock"`, `value="kept-sku"`)

	evil := `Argan <b>oil</b>`
	wantRedirect(t, c.post(t, path, url.Values{"name": {evil}, "sku": {"ARG-50"}, "price": {"1,250.50"}, "stock": {"5"}, "description": {"Cold-pressed."}, "active": {"1"}}), path)
	list := c.get(t, path)
	wantBody(t, list, "Product “Argan &lt;b&gt;oil&lt;/b&gt;” created.", `data-testid="product-price">€1,250.50<`, `data-testid="product-stock">5<`, "ARG-50")
	if strings.Contains(list.Body, "<b>oil</b>") {
		t.Error("the product name is printed as markup")
	}
	res = c.post(t, path, url.Values{"name": {"Copy"}, "sku": {"arg-50"}, "price": {"1"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-sku">Another product has this SKU.`)

	id := between(list.Body, `"><a href="/catalog/products/`, `"`)
	edit := c.get(t, path+"/"+id)
	wantBody(t, edit, `name="price" type="text" value="1250.50"`, `name="stock" type="number" value="5"`)
	saved := url.Values{"name": {evil}, "sku": {"ARG-50"}, "price": {"1250.50"}, "stock": {"5"}, "description": {"Cold-pressed."}, "active": {"1"}}
	wantRedirect(t, c.post(t, path+"/"+id, saved), path)
	wantBody(t, c.get(t, path), "Nothing changed in")
	saved.Set("stock", "")
	saved.Del("active")
	wantRedirect(t, c.post(t, path+"/"+id, saved), path)
	list = c.get(t, path)
	wantBody(t, list, "saved.", `data-testid="product-stock"><span class="muted">not counted</span>`, "Inactive")

	wantRedirect(t, c.post(t, path, url.Values{"name": {"Comb"}, "price": {"3"}, "stock": {"0"}, "active": {"1"}}), path)
	wantBody(t, c.get(t, path), "Product “Comb” created.") // the flash, shown once
	for _, tc := range []struct{ query, want, notWant string }{
		{"?q=argan", "Argan", "Comb"},
		{"?status=active", "Comb", "Argan"},
		{"?status=inactive", "Argan", "Comb"},
		{"?q=co&status=all", "Comb", "Argan"},
	} {
		res := c.get(t, path+tc.query)
		wantStatus(t, res, http.StatusOK)
		if !strings.Contains(res.Body, tc.want) || strings.Contains(res.Body, tc.notWant) {
			t.Errorf("%s: want %q listed and %q not", tc.query, tc.want, tc.notWant)
		}
	}
	wantBody(t, c.get(t, path+"?q=comb"), `data-testid="product-stock"><span class="badge badge-err">sold out</span>`)
	for _, bad := range []string{"/abc", "/999", "/-1"} {
		wantStatus(t, c.get(t, path+bad), http.StatusNotFound)
		wantStatus(t, c.post(t, path+bad, saved), http.StatusNotFound)
	}

	// In Spanish the page, its messages and the price use the business's language.
	es := businessForm()
	es.Set("language", "es")
	wantRedirect(t, c.post(t, "/settings/business", es), "/settings/business")
	wantRedirect(t, c.post(t, path, url.Values{"name": {"Cepillo"}, "price": {"1.234,5"}, "active": {"1"}}), path)
	list = c.get(t, path+"?q=cepillo")
	wantBody(t, list, "<h1>Productos</h1>", "Producto «Cepillo» creado.", `data-testid="product-price">€1.234,50<`)
	cepillo := between(list.Body, `"><a href="/catalog/products/`, `"`)
	wantBody(t, c.get(t, path+"/"+cepillo), `name="price" type="text" value="1234,50"`, "Guardar producto")
	res = c.post(t, path, url.Values{"name": {""}, "price": {"1"}})
	wantBody(t, res, `data-testid="error-name">Ingresa el nombre del producto (hasta 200 caracteres).`)
}
