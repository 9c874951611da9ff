package payoutcontract

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
)

// The EIP-712 typed data of a payout, for a signer outside the service
// (Clef's account_signTypedData): the signer computes the same digest as
// Digest from it, and its rules can read the domain and the batch.

var (
	domainFields = []apitypes.Type{{Name: "name", Type: "string"}, {Name: "version", Type: "string"},
		{Name: "chainId", Type: "uint256"}, {Name: "verifyingContract", Type: "address"}}
	transferFields = []apitypes.Type{{Name: "to", Type: "address"}, {Name: "amount", Type: "uint256"}}
	batchTail      = []apitypes.Type{{Name: "transfers", Type: "Transfer[]"},
		{Name: "totalFee", Type: "uint256"}, {Name: "nonce", Type: "uint256"}, {Name: "timestamp", Type: "uint256"}}
)

func typedDomain(d Domain) apitypes.TypedDataDomain {
	return apitypes.TypedDataDomain{Name: DomainName, Version: DomainVersion,
		ChainId: (*math.HexOrDecimal256)(new(big.Int).Set(d.ChainID)), VerifyingContract: d.Contract.Hex()}
}

// message is the batch's fields as JSON-friendly values: addresses in hex,
// integers as decimal strings (exact, never floats).
func (b Batch) message() apitypes.TypedDataMessage {
	ts := make([]any, len(b.Recipients))
	for i, r := range b.Recipients {
		amount := "0" // a batch Validate refuses; kept from panicking here
		if i < len(b.Amounts) && b.Amounts[i] != nil {
			amount = b.Amounts[i].String()
		}
		ts[i] = map[string]any{"to": r.Hex(), "amount": amount}
	}
	return apitypes.TypedDataMessage{"token": b.Token.Hex(), "transfers": ts,
		"totalFee": b.TotalFee.String(), "nonce": b.Nonce.String(),
		"timestamp": new(big.Int).SetUint64(b.Timestamp).String()}
}

// TypedData is p as EIP-712 typed data on the contract d; its hash is
// p.Digest(d).
func (p BalancePayout) TypedData(d Domain) apitypes.TypedData {
	return apitypes.TypedData{
		Types: apitypes.Types{"EIP712Domain": domainFields, "Transfer": transferFields,
			"PayoutWithBalance": append([]apitypes.Type{{Name: "token", Type: "address"}}, batchTail...)},
		PrimaryType: "PayoutWithBalance", Domain: typedDomain(d), Message: p.message(),
	}
}

// TypedData is p as EIP-712 typed data on the contract d; its hash is
// p.Digest(d).
func (p AllowancePayout) TypedData(d Domain) apitypes.TypedData {
	m := p.message()
	m["from"] = p.From.Hex()
	return apitypes.TypedData{
		Types: apitypes.Types{"EIP712Domain": domainFields, "Transfer": transferFields,
			"PayoutWithAllowance": append([]apitypes.Type{{Name: "token", Type: "address"}, {Name: "from", Type: "address"}}, batchTail...)},
		PrimaryType: "PayoutWithAllowance", Domain: typedDomain(d), Message: m,
	}
}

// TypedDigest is the digest a signer computes from td, as Digest does.
func TypedDigest(td apitypes.TypedData) (common.Hash, error) {
	h, _, err := apitypes.TypedDataAndHash(td)
	if err != nil {
		return common.Hash{}, err
	}
	return common.BytesToHash(h), nil
}
