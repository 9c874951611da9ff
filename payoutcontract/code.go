package payoutcontract

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/stablecashier/cashier/contracts"
)

// Artifact names of the contracts a registration checks.
const (
	ArtifactPayout  = "CashierPayout"
	ArtifactFactory = "DepositFactory"
)

var (
	codeOnce sync.Once
	codeRefs map[string]committedCode
	codeErr  error
)

type committedCode struct {
	code []byte
	mask []bool // true: an immutable's byte, set by the constructor
}

// immutableMask marks the operands of every PUSH32 whose operand is 32 zero
// bytes. solc leaves each immutable reference in the runtime code as such a
// placeholder and the constructor fills it in (chain id, domain separator,
// implementation address …); the optimizer never writes a zero constant as
// PUSH32, so these are exactly the immutables.
func immutableMask(code []byte) []bool {
	mask := make([]bool, len(code))
	zero := make([]byte, 32)
	for i := 0; i < len(code); i++ {
		op := code[i]
		if op < 0x60 || op > 0x7f { // not a PUSH1..PUSH32
			continue
		}
		n := int(op-0x60) + 1
		if op == 0x7f && i+1+32 <= len(code) && bytes.Equal(code[i+1:i+33], zero) {
			for j := i + 1; j < i+33; j++ {
				mask[j] = true
			}
		}
		i += n
	}
	return mask
}

func loadCode() {
	codeRefs = map[string]committedCode{}
	for _, name := range []string{ArtifactPayout, ArtifactFactory} {
		code, err := contracts.DeployedCode(name)
		if err != nil {
			codeErr = err
			return
		}
		codeRefs[name] = committedCode{code: code, mask: immutableMask(code)}
	}
}

// MatchesArtifact reports whether code (an address's runtime code) is the
// committed runtime code of the named artifact, the bytes of its
// immutables aside.
func MatchesArtifact(name string, code []byte) (bool, error) {
	codeOnce.Do(loadCode)
	if codeErr != nil {
		return false, codeErr
	}
	ref, ok := codeRefs[name]
	if !ok {
		return false, fmt.Errorf("payoutcontract: no committed artifact %s", name)
	}
	if len(code) != len(ref.code) {
		return false, nil
	}
	for i := range code {
		if !ref.mask[i] && code[i] != ref.code[i] {
			return false, nil
		}
	}
	return true, nil
}
