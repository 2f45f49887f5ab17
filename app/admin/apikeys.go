package admin

import (
	"cmp"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"frontdesk/app/apikey"
	"frontdesk/app/errpage"
	"frontdesk/app/mcp/channel"
	"frontdesk/db"
	"frontdesk/ui"
)

// Settings → Integrations → API keys. A new key is shown exactly once: the create handler
// stashes it in the session and redirects; the list pops it, so a reload shows it no more.

const apiKeysPath = "/settings/integrations/api-keys"

func (a *Admin) listAPIKeys(w http.ResponseWriter, r *http.Request) {
	a.showAPIKeys(w, r, http.StatusOK, ui.NewForm(nil))
}

func (a *Admin) showAPIKeys(w http.ResponseWriter, r *http.Request, status int, f *ui.Form) {
	rows, err := a.db.R.ListAPIKeys(r.Context())
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v := ui.APIKeysView{Form: f}
	// Active keys first, newest first within each group.
	slices.SortStableFunc(rows, func(x, y db.APIKey) int {
		if x.RevokedAt.Valid != y.RevokedAt.Valid {
			if x.RevokedAt.Valid {
				return 1
			}
			return -1
		}
		return cmp.Compare(y.ID, x.ID)
	})
	for _, k := range rows {
		v.Keys = append(v.Keys, apiKeyRow(k))
	}
	for _, s := range apikey.Scopes {
		v.Scopes = append(v.Scopes, ui.Option{Value: s, Label: s})
	}
	if k, ok := a.sessions.Pop(r.Context(), keyNewAPIKey).(ui.NewAPIKey); ok {
		v.New = &k
	}
	a.render(w, r, status, ui.APIKeysPage(a.page(r, translate(r, "apikeys.title")), v))
}

func apiKeyRow(k db.APIKey) ui.APIKeyRow {
	row := ui.APIKeyRow{ID: k.ID, Name: k.Name, Prefix: k.Prefix, Created: db.Time(k.CreatedAt), MCP: k.MCPAllowed,
		Scopes: apikey.ScopeList(k.Scopes), ZMeansLocal: k.ZMeansLocal}
	row.LastUsed = optionalTime(k.LastUsedAt.Int64, k.LastUsedAt.Valid)
	row.Revoked = optionalTime(k.RevokedAt.Int64, k.RevokedAt.Valid)
	return row
}

func optionalTime(ms int64, valid bool) time.Time {
	if !valid {
		return time.Time{}
	}
	return db.Time(ms)
}

// The access choice of the create form: full access is a named option, never "nothing ticked".
const (
	accessFull   = "full"
	accessScopes = "scopes"
)

func (a *Admin) createAPIKey(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	name := f.Get("name")
	if name == "" || len(name) > 100 {
		f.SetError("name", translate(r, "apikeys.name.error"))
	} else {
		checkName(r, f, "name", name)
	}
	nk := apikey.NewKey{Name: name, ZMeansLocal: f.Get("z_means_local") == "1"}
	scopes := f.Values["scopes"]
	for _, s := range scopes {
		if !slices.Contains(apikey.Scopes, s) {
			f.SetError("scopes", translate(r, "apikeys.scopes.error"))
		}
	}
	switch f.Get("access") {
	case accessFull:
		if len(scopes) > 0 {
			f.SetError("access", translate(r, "apikeys.access.full_with_scopes"))
		}
		nk.Scopes = apikey.FullAccess
	case accessScopes:
		if len(scopes) == 0 {
			f.SetError("scopes", translate(r, "apikeys.scopes.none"))
		}
		nk.Scopes = strings.Join(scopes, ",")
	default:
		f.SetError("access", translate(r, "apikeys.access.error"))
	}
	if !f.OK() {
		a.showAPIKeys(w, r, http.StatusUnprocessableEntity, f)
		return
	}
	k, key, err := apikey.Create(r.Context(), a.db, nk, a.now())
	if errors.Is(err, apikey.ErrNameRequired) {
		f.SetError("name", translate(r, "apikeys.name.error"))
		a.showAPIKeys(w, r, http.StatusUnprocessableEntity, f)
		return
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if f.Get("mcp") == "1" { // allowed on the MCP endpoint too (docs/mcp.md)
		// The key exists and must still be shown once: a failure here only leaves it without MCP.
		if err := channel.AllowKey(r.Context(), a.db, k.ID, true); err != nil {
			a.log.ErrorContext(r.Context(), "allow new key over MCP", "err", err)
			a.flash(r.Context(), ui.FlashError, translate(r, "mcp.keys.create_failed"))
		}
	}
	a.sessions.Put(r.Context(), keyNewAPIKey, ui.NewAPIKey{Name: k.Name, Key: key})
	seeOther(w, r, apiKeysPath)
}

// findAPIKey loads the key named by the {id} URL parameter, or errpage.NotFound.
func (a *Admin) findAPIKey(r *http.Request) (db.APIKey, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return db.APIKey{}, err
	}
	k, err := a.db.R.GetAPIKeyByID(r.Context(), id)
	if db.IsNotFound(err) {
		return db.APIKey{}, errpage.NotFound
	}
	return k, err
}

func (a *Admin) confirmRevokeAPIKey(w http.ResponseWriter, r *http.Request) {
	k, err := a.findAPIKey(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if k.RevokedAt.Valid {
		a.flash(r.Context(), ui.FlashInfo, translate(r, "apikeys.already_revoked", "name", k.Name))
		seeOther(w, r, apiKeysPath)
		return
	}
	a.render(w, r, http.StatusOK, ui.RevokeAPIKeyPage(a.page(r, translate(r, "apikeys.revoke.title")), apiKeyRow(k)))
}

func (a *Admin) revokeAPIKey(w http.ResponseWriter, r *http.Request) {
	k, err := a.findAPIKey(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if _, err := apikey.Revoke(r.Context(), a.db, k.ID, a.now()); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "apikeys.revoked", "name", k.Name))
	seeOther(w, r, apiKeysPath)
}
