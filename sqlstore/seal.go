package sqlstore

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Sealer encrypts merchant secrets before they reach the database and
// decrypts them on the way out. The key lives outside the database, so a
// copy of the database file alone yields no usable secret. The context
// names where a value belongs (merchant and field) and must be the same to
// open it: someone able to write the database cannot move a sealed secret
// they know (their own merchant's) into another merchant's row.
type Sealer interface {
	Seal(plaintext, context []byte) ([]byte, error)
	Open(sealed, context []byte) ([]byte, error)
}

// MasterKeySize is the length of the AES-256 master key in bytes.
const MasterKeySize = 32

// sealV1 is the first byte of every sealed value, naming the format
// (AES-256-GCM, 12-byte random nonce) so a later key or algorithm rotation
// can tell old values from new.
const sealV1 byte = 1

// AESSealer seals with AES-256-GCM under one master key.
type AESSealer struct {
	aead cipher.AEAD
}

// NewAESSealer returns a Sealer using the 32-byte key.
func NewAESSealer(key []byte) (*AESSealer, error) {
	if len(key) != MasterKeySize {
		return nil, fmt.Errorf("store: master key is %d bytes, want %d", len(key), MasterKeySize)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &AESSealer{aead: aead}, nil
}

// Seal returns version || nonce || ciphertext+tag, with context as the
// GCM additional data.
func (s *AESSealer) Seal(plaintext, context []byte) ([]byte, error) {
	ns := s.aead.NonceSize()
	out := make([]byte, 1+ns, 1+ns+len(plaintext)+s.aead.Overhead())
	out[0] = sealV1
	if _, err := rand.Read(out[1:]); err != nil {
		return nil, err
	}
	return s.aead.Seal(out, out[1:], plaintext, context), nil
}

// Open reverses Seal. It fails when the value was sealed under another key
// or another context, or altered.
func (s *AESSealer) Open(sealed, context []byte) ([]byte, error) {
	ns := s.aead.NonceSize()
	if len(sealed) < 1+ns+s.aead.Overhead() || sealed[0] != sealV1 {
		return nil, errors.New("store: sealed value has an unknown format")
	}
	p, err := s.aead.Open(nil, sealed[1:1+ns], sealed[1+ns:], context)
	if err != nil {
		return nil, errors.New("store: cannot open sealed value (wrong master key, or moved from another row?)")
	}
	return p, nil
}

// sealContext binds a merchant's sealed field to the merchant and field.
func sealContext(merchantID, field string) []byte {
	return []byte("cashier/merchant/" + merchantID + "/" + field)
}

// LoadOrCreateMasterKey reads the master key from path, or creates the file
// with a new random key when it does not exist. The file holds the key as
// 64 hexadecimal characters, the same form DecodeMasterKey accepts from an
// environment variable, so an operator can back it up as text. A key file
// readable by group or others is refused.
func LoadOrCreateMasterKey(path string) ([]byte, error) {
	key, err := readMasterKey(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	key = make([]byte, MasterKeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	if err := writeNewFile(path, []byte(hex.EncodeToString(key)+"\n")); err != nil {
		if errors.Is(err, fs.ErrExist) {
			// Another process created it first; use theirs.
			return readMasterKey(path)
		}
		return nil, err
	}
	return key, nil
}

func readMasterKey(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("store: master key file %s has mode %v; restrict it with chmod 600", path, fi.Mode().Perm())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) == MasterKeySize {
		return b, nil // raw bytes
	}
	key, err := DecodeMasterKey(string(b))
	if err != nil {
		return nil, fmt.Errorf("store: master key file %s: %w", path, err)
	}
	return key, nil
}

// writeNewFile writes data to path only if path does not exist, atomically:
// the data is written and synced under a temporary name, then linked into
// place, so a concurrent reader never sees a partial key.
func writeNewFile(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, ".masterkey-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Link(tmp, path); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync() // best effort: make the new directory entry durable
		d.Close()
	}
	return nil
}

// DecodeMasterKey parses a 32-byte key given as 64 hexadecimal characters or
// as standard base64, surrounding whitespace ignored.
func DecodeMasterKey(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if b, err := hex.DecodeString(s); err == nil && len(b) == MasterKeySize {
		return b, nil
	}
	if b, err := base64.StdEncoding.DecodeString(s); err == nil && len(b) == MasterKeySize {
		return b, nil
	}
	return nil, fmt.Errorf("master key must be %d bytes as hexadecimal or base64", MasterKeySize)
}
