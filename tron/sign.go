package tron

import (
	"crypto/ecdsa"
	"errors"

	"github.com/ethereum/go-ethereum/crypto"
)

// Sign signs a transaction id with key. The signature is 65 bytes r||s||v
// with v the recovery id 0 or 1, the form java-tron itself produces; nodes
// also accept v = 27/28 (see RecoverSigner).
func Sign(txID [32]byte, key *ecdsa.PrivateKey) ([]byte, error) {
	return crypto.Sign(txID[:], key)
}

// RecoverSigner returns the address whose key made sig over txID. Like
// java-tron it takes v as 0/1 or 27/28.
func RecoverSigner(txID [32]byte, sig []byte) (Address, error) {
	if len(sig) != 65 {
		return Address{}, errors.New("signature is not 65 bytes")
	}
	s := make([]byte, 65)
	copy(s, sig)
	if s[64] >= 27 {
		s[64] -= 27
	}
	if s[64] > 1 {
		return Address{}, errors.New("signature recovery id is not 0/1 or 27/28")
	}
	pub, err := crypto.Ecrecover(txID[:], s)
	if err != nil {
		return Address{}, err
	}
	return PubkeyToAddress(pub)
}

// KeyAddress is the address of a private key.
func KeyAddress(key *ecdsa.PrivateKey) Address {
	return Address(crypto.PubkeyToAddress(key.PublicKey))
}
