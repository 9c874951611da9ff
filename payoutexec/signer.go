package payoutexec

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/address"
	"github.com/stablecashier/cashier/payoutcontract"
)

// ExternalSigner signs payout batches for merchant signers held outside
// the service (clef.Signer: Clef's account_signTypedData, under its rules).
type ExternalSigner interface {
	SignTypedDataAs(ctx context.Context, account common.Address, td apitypes.TypedData) ([]byte, error)
}

// batchSigner is who signs an execution's batches: a sealed key, or an
// account of the network's external signer.
type batchSigner struct {
	key      *ecdsa.PrivateKey
	external common.Address
}

// SignerRefused is a batch its signer did not sign (an external signer's
// rules refused it, or it could not be reached): nothing was sent, the
// orders wait.
type SignerRefused struct{ Err error }

func (e SignerRefused) Error() string { return "payout signer did not sign: " + e.Err.Error() }

func (e SignerRefused) Unwrap() error { return e.Err }

// signerFor returns who signs e's batches: the merchant signer its
// contract was proven to name (a sealed key, or an account of the external
// signer), or, for a registration from before ownership proofs that the
// operator confirmed (its recorded signer is the network's service
// signer), that service signer. An unconfirmed registration from before
// the proofs (no recorded signer) signs nothing: its orders wait.
func (x *Executor) signerFor(ctx context.Context, net *Network, e *cashier.PayoutExec) (batchSigner, error) {
	k, err := x.Store.Contract(ctx, e.ContractID)
	if err != nil {
		return batchSigner{}, err
	}
	if k.Signer == "" {
		// The shared service signer proves nothing about whose the
		// contract is: whoever registered it first could spend it.
		return batchSigner{}, SignerRefused{fmt.Errorf("contract %s (%s) was registered before ownership proofs and is not proven: its payouts wait until "+
			"its owner calls setSigner with the merchant's signer and `cashier contract check --id %s` records it, "+
			"or the operator confirms it with `cashier contract confirm --id %s`", k.ID, k.Address, k.ID, k.ID)}
	}
	if net.Signer != nil && strings.EqualFold(k.Signer, address.Format(e.Chain, crypto.PubkeyToAddress(net.Signer.PublicKey))) {
		return batchSigner{key: net.Signer}, nil // confirmed by the operator
	}
	s, err := x.Store.MerchantSigner(ctx, k.MerchantID, e.Chain)
	if err != nil {
		return batchSigner{}, fmt.Errorf("signer of contract %s: %w", k.Address, err)
	}
	if !strings.EqualFold(s.Address, k.Signer) {
		return batchSigner{}, fmt.Errorf("contract %s was registered with signer %s, but merchant %s's signer is %s", k.Address, k.Signer, k.MerchantID, s.Address)
	}
	if s.External() {
		if !common.IsHexAddress(s.Address) {
			return batchSigner{}, fmt.Errorf("merchant %s's signer on %s is held outside the service, which only EVM networks support", k.MerchantID, e.Chain)
		}
		return batchSigner{external: common.HexToAddress(s.Address)}, nil
	}
	key, err := crypto.ToECDSA(s.PrivateKey)
	return batchSigner{key: key}, err
}

// sign signs a batch's digest, or has the external signer sign its typed
// data (which hashes to the same digest: clef.Signer checks it).
func (x *Executor) sign(ctx context.Context, net *Network, bs batchSigner, digest common.Hash, td apitypes.TypedData) ([]byte, error) {
	if bs.key != nil {
		return payoutcontract.Sign(digest, bs.key)
	}
	if net.Clef == nil {
		return nil, SignerRefused{fmt.Errorf("the merchant signer %s is held by Clef, and no Clef is configured (CASHIER_SIGNER_CLEF)", bs.external.Hex())}
	}
	sig, err := net.Clef.SignTypedDataAs(ctx, bs.external, td)
	if err != nil {
		return nil, SignerRefused{err}
	}
	return sig, nil
}
