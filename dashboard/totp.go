package dashboard

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"crypto/subtle"
	"encoding/base32"
	"encoding/binary"
	"fmt"
	"hash"
	"net/url"
	"strings"
	"time"
)

// TOTP (RFC 6238) with the parameters every authenticator app supports:
// HMAC-SHA1, 30-second steps, 6 digits. One step either side is accepted
// for clock drift between the phone and the server.
const (
	totpStep   = 30 * time.Second
	totpDigits = 6
	totpSkew   = 1
)

// hotp is RFC 4226's HOTP value of counter under key with hash h.
func hotp(h func() hash.Hash, key []byte, counter uint64, digits int) string {
	mac := hmac.New(h, key)
	var msg [8]byte
	binary.BigEndian.PutUint64(msg[:], counter)
	mac.Write(msg[:])
	sum := mac.Sum(nil)
	off := sum[len(sum)-1] & 0x0f
	code := binary.BigEndian.Uint32(sum[off:off+4]) & 0x7fffffff
	mod := uint32(1)
	for range digits {
		mod *= 10
	}
	return fmt.Sprintf("%0*d", digits, code%mod)
}

// totpAt is the RFC 6238 code for time t.
func totpAt(h func() hash.Hash, key []byte, t time.Time, digits int) string {
	return hotp(h, key, uint64(t.Unix())/uint64(totpStep/time.Second), digits)
}

// TOTPCode is the 6-digit code of secret at t, as an authenticator app
// shows it.
func TOTPCode(secret []byte, t time.Time) string { return totpAt(sha1.New, secret, t, totpDigits) }

// CheckTOTP reports whether code is valid for secret at now.
func CheckTOTP(secret []byte, code string, now time.Time) bool {
	_, ok := MatchTOTP(secret, code, now, 0)
	return ok
}

// TOTPStepAt is the RFC 6238 time step of t.
func TOTPStepAt(t time.Time) int64 { return t.Unix() / int64(totpStep/time.Second) }

// MatchTOTP returns the time step code belongs to among the steps of the
// drift window around now that are later than after, the last step
// accepted from the user: RFC 6238 §5.2 asks that a code be accepted only
// once. The latest matching step wins, so a code that (by chance) matches
// two steps is spent for both. Every step of the window is computed, used
// or not, so the time taken does not depend on which one matched.
func MatchTOTP(secret []byte, code string, now time.Time, after int64) (step int64, ok bool) {
	code = strings.TrimSpace(code)
	if len(code) != totpDigits {
		return 0, false
	}
	cur := TOTPStepAt(now)
	for d := -totpSkew; d <= totpSkew; d++ {
		s := cur + int64(d)
		want := hotp(sha1.New, secret, uint64(s), totpDigits)
		if subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 && s > after && s > 0 {
			step, ok = s, true
		}
	}
	return step, ok
}

// NewTOTPSecret returns 20 random bytes (RFC 4226's recommended length).
func NewTOTPSecret() ([]byte, error) {
	b := make([]byte, 20)
	_, err := rand.Read(b)
	return b, err
}

// TOTPURI is the otpauth:// URI authenticator apps import.
func TOTPURI(secret []byte, account string) string {
	s := base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(secret)
	return "otpauth://totp/" + url.PathEscape("Cashier:"+account) + "?secret=" + s + "&issuer=Cashier&digits=6&period=30"
}

// TOTPSecretText is the secret as people type it into an app.
func TOTPSecretText(secret []byte) string {
	return base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(secret)
}
