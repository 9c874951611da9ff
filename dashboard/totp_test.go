package dashboard

import (
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"hash"
	"testing"
	"time"
)

// RFC 6238 appendix B: 8-digit codes with the three hash functions and
// their seeds.
func TestTOTPRFC6238Vectors(t *testing.T) {
	seed20 := []byte("12345678901234567890")
	seed32 := []byte("12345678901234567890123456789012")
	seed64 := []byte("1234567890123456789012345678901234567890123456789012345678901234")
	vectors := []struct {
		unix             int64
		sha1, s256, s512 string
	}{
		{59, "94287082", "46119246", "90693936"},
		{1111111109, "07081804", "68084774", "25091201"},
		{1111111111, "14050471", "67062674", "99943326"},
		{1234567890, "89005924", "91819424", "93441116"},
		{2000000000, "69279037", "90698825", "38618901"},
		{20000000000, "65353130", "77737706", "47863826"},
	}
	for _, v := range vectors {
		at := time.Unix(v.unix, 0)
		for _, c := range []struct {
			h    func() hash.Hash
			key  []byte
			want string
		}{{sha1.New, seed20, v.sha1}, {sha256.New, seed32, v.s256}, {sha512.New, seed64, v.s512}} {
			if got := totpAt(c.h, c.key, at, 8); got != c.want {
				t.Errorf("T=%d: got %s, want %s", v.unix, got, c.want)
			}
		}
	}
}

func TestCheckTOTPWindow(t *testing.T) {
	key := []byte("12345678901234567890")
	now := time.Unix(1234567890, 0)
	code := totpAt(sha1.New, key, now, 6)
	if !CheckTOTP(key, code, now) || !CheckTOTP(key, code, now.Add(30*time.Second)) {
		t.Fatal("current code or one step of drift refused")
	}
	if CheckTOTP(key, code, now.Add(90*time.Second)) {
		t.Fatal("code three steps old accepted")
	}
	if CheckTOTP(key, "", now) || CheckTOTP(key, "12345", now) {
		t.Fatal("malformed code accepted")
	}
}

func TestPasswordHash(t *testing.T) {
	h, err := HashPassword("correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := CheckPassword(h, "correct horse battery"); !ok || err != nil {
		t.Fatalf("right password refused: %v", err)
	}
	if ok, _ := CheckPassword(h, "correct horse batterz"); ok {
		t.Fatal("wrong password accepted")
	}
	h2, _ := HashPassword("correct horse battery")
	if h == h2 {
		t.Fatal("two hashes of one password are equal: no salt")
	}
	if _, err := HashPassword("short"); err == nil {
		t.Fatal("short password accepted")
	}
}
