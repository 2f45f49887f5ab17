package admin

import (
	"errors"
	"frontdesk/app/apikey"
	"frontdesk/app/errpage"
	"net/http"
	"strings"

	"frontdesk/app/mcp/channel"
	"frontdesk/ui"
)

// Settings → Integrations → MCP: the owner's switches for the MCP endpoint (docs/mcp.md). Both
// are read by /mcp on every request, so a change here takes effect on the next call.

func (a *Admin) showMCP(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	on, err := channel.Enabled(ctx, a.db)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	keys, err := a.db.R.ListAPIKeys(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v := ui.MCPView{Enabled: on, Endpoint: a.links.URL("/mcp", nil)}
	for _, k := range keys {
		if k.RevokedAt.Valid {
			continue
		}
		row := ui.MCPKeyRow{ID: k.ID, Name: k.Name, Prefix: k.Prefix, Allowed: k.MCPAllowed}
		if k.Scopes != apikey.FullAccess {
			row.Scopes = strings.Split(k.Scopes, ",")
		}
		v.Keys = append(v.Keys, row)
	}
	a.render(w, r, http.StatusOK, ui.MCPPage(a.page(r, translate(r, "mcp.title")), v))
}

// switchMCP turns the channel on ("1") or off ("0").
func (a *Admin) switchMCP(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	on, ok := onOff(f.Get("enabled"))
	if !ok {
		a.renderError(w, r, errpage.FormUnreadable)
		return
	}
	if err := channel.SetEnabled(r.Context(), a.db, a.now(), on); err != nil {
		a.renderError(w, r, err)
		return
	}
	msg := translate(r, "mcp.switched_off")
	if on {
		msg = translate(r, "mcp.switched_on")
	}
	a.flash(r.Context(), ui.FlashSuccess, msg)
	seeOther(w, r, ui.MCPPath)
}

// switchKeyMCP allows ("1") or stops ("0") one active API key over MCP.
func (a *Admin) switchKeyMCP(w http.ResponseWriter, r *http.Request) {
	k, err := a.findAPIKey(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	allowed, ok := onOff(f.Get("allowed"))
	if !ok {
		a.renderError(w, r, errpage.FormUnreadable)
		return
	}
	err = channel.AllowKey(r.Context(), a.db, k.ID, allowed)
	if errors.Is(err, channel.ErrKeyNotFound) { // revoked meanwhile
		a.flash(r.Context(), ui.FlashInfo, translate(r, "mcp.keys.revoked", "name", k.Name))
		seeOther(w, r, ui.MCPPath)
		return
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	msg := translate(r, "mcp.keys.disallowed", "name", k.Name)
	if allowed {
		msg = translate(r, "mcp.keys.allowed_now", "name", k.Name)
	}
	a.flash(r.Context(), ui.FlashSuccess, msg)
	seeOther(w, r, ui.MCPPath)
}

func onOff(v string) (on, ok bool) {
	switch v {
	case "1":
		return true, true
	case "0":
		return false, true
	}
	return false, false
}
