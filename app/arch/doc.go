// Package arch holds no code: its test (layers_test.go) keeps the package map of
// docs/ARCHITECTURE.md ("Layers") true, by checking every import of the module against it.
package arch
