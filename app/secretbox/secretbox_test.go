package secretbox

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A sealed value opens with the same data directory's key and purpose only; the key file is
// made once with mode 0600 and reused; the ciphertext does not contain the secret.
func TestSealAndOpen(t *testing.T) {
	dir := t.TempDir()
	b, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	const secret = "sk_test_51Hxyz-very-secret"
	sealed := b.Seal("stripe.secret_key", secret)
	if !strings.HasPrefix(sealed, "sealed1:") || strings.Contains(sealed, secret) || strings.Contains(sealed, "sk_test") {
		t.Fatalf("sealed value %q shows the secret or lacks the prefix", sealed)
	}
	if again := b.Seal("stripe.secret_key", secret); again == sealed {
		t.Error("two seals of one value are equal: the nonce is not fresh")
	}
	info, err := os.Stat(filepath.Join(dir, KeyFile))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("got key file mode %v, want 0600", info.Mode().Perm())
	}

	reopened, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := reopened.Unseal("stripe.secret_key", sealed); err != nil || got != secret {
		t.Fatalf("reopened box: got %q, %v; want the secret", got, err)
	}
	if _, err := reopened.Unseal("stripe.webhook_secret", sealed); !errors.Is(err, ErrUnreadable) {
		t.Errorf("opening with another purpose: got %v, want ErrUnreadable", err)
	}
	other, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Unseal("stripe.secret_key", sealed); !errors.Is(err, ErrUnreadable) {
		t.Errorf("opening with another directory's key: got %v, want ErrUnreadable", err)
	}
	for _, bad := range []string{"sk_test_plain", "sealed1:", "sealed1:!!!", sealed[:len(sealed)-4]} {
		if _, err := b.Unseal("stripe.secret_key", bad); !errors.Is(err, ErrUnreadable) {
			t.Errorf("Unseal(%q): got %v, want ErrUnreadable", bad, err)
		}
	}
	if b.Seal("x", "") != "" {
		t.Error("an empty value must stay empty")
	}
	if v, err := b.Unseal("x", ""); v != "" || err != nil {
		t.Errorf("Unseal(\"\"): got %q, %v", v, err)
	}
}

func TestOpenRefusesAShortKey(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, KeyFile), []byte("short"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); err == nil {
		t.Fatal("a 5-byte key file was accepted")
	}
}
