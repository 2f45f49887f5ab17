package api

import "net/http"

func (a *API) listBookings(w http.ResponseWriter, r *http.Request) { a.notImplemented(w, r) }

func (a *API) createBooking(w http.ResponseWriter, r *http.Request) { a.notImplemented(w, r) }

func (a *API) getBooking(w http.ResponseWriter, r *http.Request) { a.notImplemented(w, r) }

func (a *API) updateBooking(w http.ResponseWriter, r *http.Request) { a.notImplemented(w, r) }

func (a *API) cancelBooking(w http.ResponseWriter, r *http.Request) { a.notImplemented(w, r) }
