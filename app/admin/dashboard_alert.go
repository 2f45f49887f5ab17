package admin

import (
	"net/http"

	"frontdesk/app/webhook"
	"frontdesk/ui"
)

// webhookAlert counts the webhooks the dashboard warns about, from the same health the
// Integrations pages show (a paused webhook is not counted as failing: nothing is attempted).
func (a *Admin) webhookAlert(r *http.Request) (ui.WebhookAlert, error) {
	var alert ui.WebhookAlert
	hooks, err := a.hooks.manager.List(r.Context())
	if err != nil {
		return alert, err
	}
	for _, h := range hooks {
		switch {
		case h.State != webhook.WebhookActive:
			alert.Deactivated++
		case !h.PausedAt.IsZero():
			alert.Paused++
		case h.Health.Failing():
			alert.Failing++
		default:
			continue
		}
		alert.Only = h.ID
	}
	return alert, nil
}
