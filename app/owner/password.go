package owner

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"

	"golang.org/x/crypto/argon2"
)

// Argon2id parameters for new hashes: OWASP's "m=19 MiB, t=2, p=1" row. On this project's
// 2-core machine one hash takes a few tens of milliseconds — slow for an attacker with a stolen
// database, unnoticeable at a login form — and 19 MiB keeps a burst of logins from eating the
// box's memory (hashSlots bounds how many run at once). Parameters are stored in every hash
// (PHC string format), so raising them later leaves old hashes verifiable.
const (
	argonTime    = 2
	argonMemory  = 19 * 1024 // KiB
	argonThreads = 1
	argonKeyLen  = 32
	argonSaltLen = 16
)

// hashSlots bounds concurrent hashing: each one holds argonMemory of RAM for its duration.
var hashSlots = make(chan struct{}, 4)

// hashPassword returns the PHC-format argon2id hash of password with a fresh random salt.
func hashPassword(password string) (string, error) {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := derive([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key)), nil
}

func derive(password, salt []byte, t, m uint32, p uint8, keyLen uint32) []byte {
	hashSlots <- struct{}{}
	defer func() { <-hashSlots }()
	return argon2.IDKey(password, salt, t, m, p, keyLen)
}

var errMalformedHash = errors.New("malformed password hash")

// checkPassword reports whether password matches a hash made by hashPassword, in constant time.
func checkPassword(encoded, password string) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errMalformedHash
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, errMalformedHash
	}
	var m, t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || m == 0 || t == 0 || p == 0 || m > 1<<20 {
		return false, errMalformedHash
	}
	salt, err := base64.RawStdEncoding.DecodeString(parts[4])
	if err != nil {
		return false, errMalformedHash
	}
	want, err := base64.RawStdEncoding.DecodeString(parts[5])
	if err != nil || len(want) == 0 {
		return false, errMalformedHash
	}
	got := derive([]byte(password), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// dummyHash is checked against when an email is unknown, so a failed login takes as long
// whether or not the account exists (no account enumeration by timing).
var dummyHash = sync.OnceValue(func() string {
	h, err := hashPassword("frontdesk-dummy-password")
	if err != nil {
		panic(err) // only crypto/rand failing, which Go treats as fatal anyway
	}
	return h
})

// HashPassword checks a new password's length and returns its hash, for app/staff, which
// creates accounts from invitations and resets passwords from emailed links.
func HashPassword(password string) (string, error) {
	if err := ValidatePassword(password); err != nil {
		return "", err
	}
	h, err := hashPassword(password)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	return h, nil
}
