//go:build !unix

package app

import "os"

// lockFile does nothing where flock is not available: serve runs unguarded there.
func lockFile(*os.File) error { return nil }
