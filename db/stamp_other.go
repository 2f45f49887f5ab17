//go:build !unix

package db

func openShm(string) (int, bool) { return 0, false }

func mapShm(int) *walHeaders { return nil }

func copyHeaders(p, h *walHeaders) bool { return false }
