package sqlstore

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func TestAESSealer(t *testing.T) {
	s, err := NewAESSealer(newKey(t))
	if err != nil {
		t.Fatal(err)
	}
	plain, ctx := []byte("sk_live_secret"), []byte("cashier/merchant/m1/secret_key")
	a, err := s.Seal(plain, ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := s.Seal(plain, ctx)
	if bytes.Equal(a, b) {
		t.Fatal("two seals of one plaintext are equal: the nonce is not random")
	}
	if bytes.Contains(a, plain) {
		t.Fatal("sealed value contains the plaintext")
	}
	for _, sealed := range [][]byte{a, b} {
		if got, err := s.Open(sealed, ctx); err != nil || !bytes.Equal(got, plain) {
			t.Fatalf("Open = %q, %v", got, err)
		}
	}
	if got, err := s.Open(mustSeal(t, s, nil), nil); err != nil || len(got) != 0 {
		t.Fatalf("empty plaintext: %q, %v", got, err)
	}

	tampered := bytes.Clone(a)
	tampered[len(tampered)-1] ^= 1
	if _, err := s.Open(tampered, ctx); err == nil {
		t.Error("tampered value opened")
	}
	if _, err := s.Open(a[:10], ctx); err == nil {
		t.Error("truncated value opened")
	}
	other, _ := NewAESSealer(newKey(t))
	if _, err := other.Open(a, ctx); err == nil {
		t.Error("value opened under another key")
	}
	if _, err := s.Open(a, []byte("cashier/merchant/m2/secret_key")); err == nil {
		t.Error("value opened in another context")
	}
	if _, err := NewAESSealer(make([]byte, 16)); err == nil {
		t.Error("a 16-byte key was accepted")
	}
}

func mustSeal(t *testing.T, s Sealer, p []byte) []byte {
	t.Helper()
	b, err := s.Seal(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestLoadOrCreateMasterKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "master.key")
	key, err := LoadOrCreateMasterKey(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(key) != MasterKeySize || bytes.Equal(key, make([]byte, MasterKeySize)) {
		t.Fatalf("key %x", key)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v, want 0600", fi.Mode().Perm())
	}
	again, err := LoadOrCreateMasterKey(path)
	if err != nil || !bytes.Equal(again, key) {
		t.Fatalf("second load: %x, %v; want the same key", again, err)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".masterkey-*")); len(leftovers) != 0 {
		t.Fatalf("temporary files left: %v", leftovers)
	}

	os.Chmod(path, 0o644)
	if _, err := LoadOrCreateMasterKey(path); err == nil {
		t.Error("a world-readable key file was accepted")
	}

	raw := filepath.Join(t.TempDir(), "raw.key")
	os.WriteFile(raw, key, 0o600)
	if got, err := LoadOrCreateMasterKey(raw); err != nil || !bytes.Equal(got, key) {
		t.Fatalf("raw key file: %x, %v", got, err)
	}
	bad := filepath.Join(t.TempDir(), "bad.key")
	os.WriteFile(bad, []byte("not a key\n"), 0o600)
	if _, err := LoadOrCreateMasterKey(bad); err == nil {
		t.Error("a malformed key file was accepted")
	}
}

// Instances starting together on an empty data directory agree on one key.
func TestLoadOrCreateMasterKeyConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "master.key")
	keys := make([][]byte, 8)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k, err := LoadOrCreateMasterKey(path)
			if err != nil {
				t.Error(err)
			}
			keys[i] = k
		}()
	}
	wg.Wait()
	for _, k := range keys[1:] {
		if !bytes.Equal(k, keys[0]) {
			t.Fatalf("instances got different keys: %x vs %x", k, keys[0])
		}
	}
}

func TestDecodeMasterKey(t *testing.T) {
	key := newKey(t)
	for _, s := range []string{hex.EncodeToString(key), " " + hex.EncodeToString(key) + "\n", base64.StdEncoding.EncodeToString(key)} {
		if got, err := DecodeMasterKey(s); err != nil || !bytes.Equal(got, key) {
			t.Errorf("DecodeMasterKey(%q) = %x, %v", s, got, err)
		}
	}
	for _, s := range []string{"", "abcd", hex.EncodeToString(key[:16])} {
		if _, err := DecodeMasterKey(s); err == nil {
			t.Errorf("DecodeMasterKey(%q) succeeded", s)
		}
	}
}

func newKey(t testing.TB) []byte {
	t.Helper()
	key := make([]byte, MasterKeySize)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	return key
}
