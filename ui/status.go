package ui

import (
	"net/http"

	"frontdesk/ui/i18n"
)

// StatusTitle heads the error page of an HTTP status (ErrorPage), on every surface that shows
// one.
func StatusTitle(status int) i18n.Msg {
	switch status {
	case http.StatusBadRequest:
		return i18n.M("error.title.bad_request")
	case http.StatusForbidden:
		return i18n.M("error.title.forbidden")
	case http.StatusNotFound:
		return i18n.M("error.title.not_found")
	case http.StatusMethodNotAllowed:
		return i18n.M("error.title.method_not_allowed")
	case http.StatusInternalServerError:
		return i18n.M("error.title.internal")
	case http.StatusRequestEntityTooLarge:
		return i18n.M("guard.title.too_large")
	case http.StatusInsufficientStorage:
		return i18n.M("guard.title.storage_full")
	}
	return i18n.M("error.title.other")
}
