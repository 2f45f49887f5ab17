package admin

import (
	"net/http"

	"frontdesk/ui"
)

// Pausing a webhook by hand (docs/webhooks.md "Pause and resume"): the owner stops deliveries
// while their receiver is being worked on, without the failures, countdown and deactivation a
// broken receiver would bring; nothing is lost.

func (a *Admin) pauseWebhook(w http.ResponseWriter, r *http.Request) {
	h, err := a.findWebhook(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	paused, err := a.hooks.manager.Pause(r.Context(), h.ID)
	msg := translate(r, "webhooks.pause.done")
	if !paused {
		msg = translate(r, "webhooks.pause.already")
	}
	a.afterAction(w, r, err, ui.WebhookURL(h.ID), msg)
}

func (a *Admin) resumeWebhook(w http.ResponseWriter, r *http.Request) {
	h, err := a.findWebhook(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	resumed, err := a.hooks.manager.Resume(r.Context(), h.ID)
	msg := translate(r, "webhooks.pause.resumed")
	if !resumed {
		msg = translate(r, "webhooks.pause.not_paused")
	}
	a.afterAction(w, r, err, ui.WebhookURL(h.ID), msg)
}
