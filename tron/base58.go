package tron

import (
	"crypto/sha256"
	"errors"
	"math/big"
)

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

var base58Index = func() [256]int8 {
	var idx [256]int8
	for i := range idx {
		idx[i] = -1
	}
	for i := 0; i < len(base58Alphabet); i++ {
		idx[base58Alphabet[i]] = int8(i)
	}
	return idx
}()

var (
	errBase58Char     = errors.New("invalid base58 character")
	errBase58Checksum = errors.New("base58check checksum mismatch")
	errBase58Short    = errors.New("base58check payload too short")
)

// maxBase58Len bounds the decoder's input: no TRON value in base58 comes
// near it, and it keeps a hostile string from costing quadratic big.Int work.
const maxBase58Len = 128

func base58Encode(b []byte) string {
	zeros := 0
	for zeros < len(b) && b[zeros] == 0 {
		zeros++
	}
	n := new(big.Int).SetBytes(b)
	radix := big.NewInt(58)
	mod := new(big.Int)
	out := make([]byte, 0, len(b)*138/100+1)
	for n.Sign() > 0 {
		n.DivMod(n, radix, mod)
		out = append(out, base58Alphabet[mod.Int64()])
	}
	for range zeros {
		out = append(out, base58Alphabet[0])
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return string(out)
}

func base58Decode(s string) ([]byte, error) {
	if len(s) > maxBase58Len {
		return nil, errors.New("base58 string too long")
	}
	n := new(big.Int)
	radix := big.NewInt(58)
	zeros := 0
	for zeros < len(s) && s[zeros] == base58Alphabet[0] {
		zeros++
	}
	for i := 0; i < len(s); i++ {
		d := base58Index[s[i]]
		if d < 0 {
			return nil, errBase58Char
		}
		n.Mul(n, radix)
		n.Add(n, big.NewInt(int64(d)))
	}
	body := n.Bytes()
	out := make([]byte, zeros+len(body))
	copy(out[zeros:], body)
	return out, nil
}

func checksum(payload []byte) [4]byte {
	h1 := sha256.Sum256(payload)
	h2 := sha256.Sum256(h1[:])
	var c [4]byte
	copy(c[:], h2[:4])
	return c
}

// base58CheckEncode appends the double-sha256 checksum to payload and
// encodes the result.
func base58CheckEncode(payload []byte) string {
	c := checksum(payload)
	return base58Encode(append(append(make([]byte, 0, len(payload)+4), payload...), c[:]...))
}

// base58CheckDecode decodes s and verifies and strips its checksum.
func base58CheckDecode(s string) ([]byte, error) {
	b, err := base58Decode(s)
	if err != nil {
		return nil, err
	}
	if len(b) < 5 {
		return nil, errBase58Short
	}
	payload, sum := b[:len(b)-4], b[len(b)-4:]
	if c := checksum(payload); string(c[:]) != string(sum) {
		return nil, errBase58Checksum
	}
	return payload, nil
}
