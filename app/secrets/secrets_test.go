package secrets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSealOpen(t *testing.T) {
	dir := t.TempDir()
	b, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := b.Seal("smtp_password", "hunter2 s3cret")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(sealed, "hunter2") || !strings.HasPrefix(sealed, "v1:") {
		t.Fatalf("sealed %q reveals the secret or lacks the version", sealed)
	}
	again, _ := b.Seal("smtp_password", "hunter2 s3cret")
	if again == sealed {
		t.Errorf("two seals of one value are equal; want a fresh nonce each time")
	}
	// Another process of the same installation reads the same key.
	b2, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := b2.Open("smtp_password", sealed); err != nil || got != "hunter2 s3cret" {
		t.Errorf("Open = %q, %v; want the secret", got, err)
	}
	if _, err := b2.Open("stripe_secret_key", sealed); !errors.Is(err, ErrKeyMismatch) {
		t.Errorf("Open for another purpose: %v, want ErrKeyMismatch", err)
	}
	info, err := os.Stat(filepath.Join(dir, KeyFile))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v (%v), want 0600", info.Mode().Perm(), err)
	}
	// A database restored without its key cannot be read with a new one.
	other, _ := Load(t.TempDir())
	if _, err := other.Open("smtp_password", sealed); !errors.Is(err, ErrKeyMismatch) {
		t.Errorf("Open with another key: %v, want ErrKeyMismatch", err)
	}
	if s, _ := b.Seal("x", ""); s != "" {
		t.Errorf("Seal of empty = %q, want empty", s)
	}
	for _, bad := range []string{"hunter2", "v1:!!", "v1:AAAA"} {
		if _, err := b.Open("smtp_password", bad); err == nil {
			t.Errorf("Open(%q) succeeded, want an error", bad)
		}
	}
}
