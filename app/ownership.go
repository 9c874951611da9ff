package app

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/address"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/payoutcontract"
)

// A contract is registered to a merchant only when the chain proves it is
// ours and theirs (docs/contracts.md, "Whose contract it is"): its runtime
// code is the committed CashierPayout, and its signer() is the merchant's
// own signer key, which the service holds and no one else. Every contract
// on a network trusts the same executor, so without the second check
// whoever registered a contract first could spend it.

// ContractReader reads what a registration proves on chain; evm.Client
// and tron.Client implement it.
type ContractReader interface {
	// Code returns the runtime code at addr, empty when none.
	Code(ctx context.Context, addr string) ([]byte, error)
	// CallView runs a read-only call and returns its raw output.
	CallView(ctx context.Context, contract string, data []byte) ([]byte, error)
}

var factoryABI = bindings.NewDepositFactory()

// ContractReaderFor returns the client of c that can prove a contract, or
// a clear error when the network has no node configured.
func ContractReaderFor(chains map[cashier.Chain]cashier.ChainClient, c cashier.Chain) (ContractReader, error) {
	if r, ok := chains[c].(ContractReader); ok {
		return r, nil
	}
	env := config.NodeSetting(c)
	return nil, cashier.Errorf(cashier.EInvalid, "a contract on %s is registered only after it is checked on chain: set %s to a node of the network", c, env)
}

// MerchantSigner returns the merchant's signer on c, generating and
// storing it (sealed) on first use. It is never replaced: the merchant's
// contracts name it.
func MerchantSigner(ctx context.Context, st cashier.Store, merchantID string, c cashier.Chain, clock cashier.Clock) (*cashier.MerchantSigner, error) {
	k, err := st.MerchantSigner(ctx, merchantID, c)
	if cashier.ErrorCode(err) != cashier.ENotFound {
		return k, err
	}
	if _, err := st.Merchant(ctx, merchantID); err != nil {
		return nil, fmt.Errorf("merchant %s: %w", merchantID, err)
	}
	key, err := crypto.GenerateKey()
	if err != nil {
		return nil, err
	}
	k = &cashier.MerchantSigner{MerchantID: merchantID, Chain: c, Address: KeyAddress(c, key), PrivateKey: crypto.FromECDSA(key), CreatedAt: clock.Now()}
	err = st.Update(ctx, func(tx cashier.Tx) error { return tx.CreateMerchantSigner(ctx, k) })
	if cashier.ErrorCode(err) == cashier.EDuplicate {
		return st.MerchantSigner(ctx, merchantID, c) // another process made it first
	}
	return k, err
}

// ImportMerchantSigner stores key as the merchant's signer on c (an
// operator who deployed the merchant's contracts with a key of their own).
// A key that is one of the service's own keys on any network or another
// merchant's signer is refused: contracts deployed before per-merchant
// signers name the service signer, so it proves nothing about whose a
// contract is.
func ImportMerchantSigner(ctx context.Context, st cashier.Store, keys ServiceKeys, merchantID string, c cashier.Chain, key *ecdsa.PrivateKey, clock cashier.Clock) (*cashier.MerchantSigner, error) {
	if _, err := st.Merchant(ctx, merchantID); err != nil {
		return nil, fmt.Errorf("merchant %s: %w", merchantID, err)
	}
	raw := crypto.FromECDSA(key)
	for _, n := range cashier.Chains {
		for _, r := range cashier.KeyRoles {
			sk, err := keys.Key(ctx, n, r)
			if err == nil && string(crypto.FromECDSA(sk)) == string(raw) {
				return nil, cashier.Errorf(cashier.EInvalid, "the key is the service's %s key on %s; a merchant signer must be the merchant's alone", r, n)
			}
		}
	}
	for _, n := range cashier.Chains {
		if owner, err := st.SignerOwner(ctx, n, KeyAddress(n, key)); err == nil && owner != merchantID {
			return nil, cashier.Errorf(cashier.EInvalid, "the key is merchant %s's signer on %s", owner, n)
		}
	}
	addr := KeyAddress(c, key)
	k := &cashier.MerchantSigner{MerchantID: merchantID, Chain: c, Address: addr, PrivateKey: raw, CreatedAt: clock.Now()}
	if err := st.Update(ctx, func(tx cashier.Tx) error { return tx.CreateMerchantSigner(ctx, k) }); err != nil {
		return nil, err
	}
	return k, nil
}

// ProveContract checks on chain that k.Address holds the committed
// CashierPayout whose signer() is signer, and that k's deposit factory, if
// any, is the committed DepositFactory sweeping into k.Address with the
// implementation k names. Each failure says what to do.
func ProveContract(ctx context.Context, rd ContractReader, k *cashier.Contract, signer string) error {
	if err := checkCode(ctx, rd, k.Chain, k.Address, payoutcontract.ArtifactPayout, "payout contract"); err != nil {
		return err
	}
	got, err := viewAddress(ctx, rd, k.Chain, k.Address, payoutABI.PackSigner())
	if err != nil {
		return err
	}
	if !strings.EqualFold(got, signer) {
		return cashier.Errorf(cashier.EInvalid, "payout contract %s on %s names signer %s, not the merchant's signer %s: "+
			"deploy it with signer %s, or have its owner call setSigner(%s), then register it again", k.Address, k.Chain, got, signer, signer, signer)
	}
	if k.DepositFactory == "" {
		return nil
	}
	if err := checkCode(ctx, rd, k.Chain, k.DepositFactory, payoutcontract.ArtifactFactory, "deposit factory"); err != nil {
		return err
	}
	vault, err := viewAddress(ctx, rd, k.Chain, k.DepositFactory, factoryABI.PackVault())
	if err != nil {
		return err
	}
	if !strings.EqualFold(vault, k.Address) {
		return cashier.Errorf(cashier.EInvalid, "deposit factory %s on %s sweeps into %s, not into payout contract %s: its owner calls setVault(%s) first",
			k.DepositFactory, k.Chain, vault, k.Address, k.Address)
	}
	impl, err := viewAddress(ctx, rd, k.Chain, k.DepositFactory, factoryABI.PackImplementation())
	if err != nil {
		return err
	}
	if !strings.EqualFold(impl, k.DepositImplementation) {
		return cashier.Errorf(cashier.EInvalid, "deposit factory %s on %s has implementation %s, not %s", k.DepositFactory, k.Chain, impl, k.DepositImplementation)
	}
	return nil
}

func checkCode(ctx context.Context, rd ContractReader, c cashier.Chain, addr, artifact, what string) error {
	code, err := rd.Code(ctx, addr)
	if err != nil {
		return fmt.Errorf("read the code of %s on %s: %w", addr, c, err)
	}
	if len(code) == 0 {
		return cashier.Errorf(cashier.EInvalid, "%s %s on %s: no contract at this address", what, addr, c)
	}
	ok, err := payoutcontract.MatchesArtifact(artifact, code)
	if err != nil {
		return err
	}
	if !ok {
		return cashier.Errorf(cashier.EInvalid, "%s %s on %s: its code is not the %s the service supports (contracts/build/%s.json)", what, addr, c, artifact, artifact)
	}
	return nil
}

// viewAddress calls a view returning one address and formats it for c.
func viewAddress(ctx context.Context, rd ContractReader, c cashier.Chain, contract string, data []byte) (string, error) {
	out, err := rd.CallView(ctx, contract, data)
	if err != nil {
		return "", fmt.Errorf("read %s on %s: %w", contract, c, err)
	}
	if len(out) != 32 {
		return "", cashier.Errorf(cashier.EInvalid, "%s on %s answered %d bytes, want an address", contract, c, len(out))
	}
	return address.Format(c, common.BytesToAddress(out[12:])), nil
}

// CheckContract proves an existing registration again (after its owner
// called setSigner with the merchant's signer, for a contract registered
// before merchant signers) and records the signer it names. Nothing
// changes when the proof fails.
func CheckContract(ctx context.Context, st cashier.Store, chains map[cashier.Chain]cashier.ChainClient, id string, clock cashier.Clock) (*cashier.Contract, error) {
	k, err := st.Contract(ctx, id)
	if err != nil {
		return nil, err
	}
	rd, err := ContractReaderFor(chains, k.Chain)
	if err != nil {
		return nil, err
	}
	s, err := MerchantSigner(ctx, st, k.MerchantID, k.Chain, clock)
	if err != nil {
		return nil, err
	}
	if err := ProveContract(ctx, rd, k, s.Address); err != nil {
		return nil, err
	}
	err = st.Update(ctx, func(tx cashier.Tx) error {
		cur, err := tx.Contract(ctx, id)
		if err != nil {
			return err
		}
		cur.Signer = s.Address
		k = cur
		return tx.UpdateContract(ctx, cur)
	})
	return k, err
}

// Proof is what a registration rests on, for the dashboard and the CLI:
// the merchant's own signer proven on chain, the shared service signer
// confirmed by the operator (a registration from before ownership
// proofs), or nothing yet (such a registration, unconfirmed: its payouts
// wait).
type Proof string

const (
	ProofMerchantSigner Proof = "proven"
	ProofConfirmed      Proof = "confirmed"
	ProofNone           Proof = "unproven"
)

// ContractProof tells what k's registration rests on: k.Signer empty is a
// registration from before ownership proofs; a signer that is not the
// merchant's own can only be the service signer an operator confirmed
// (ConfirmContract), since a merchant signer is never a service key.
func ContractProof(ctx context.Context, st cashier.Reader, k *cashier.Contract) Proof {
	if k.Signer == "" {
		return ProofNone
	}
	if s, err := st.MerchantSigner(ctx, k.MerchantID, k.Chain); err == nil && strings.EqualFold(s.Address, k.Signer) {
		return ProofMerchantSigner
	}
	return ProofConfirmed
}

// ConfirmContract is the operator's confirmation of a registration made
// before ownership proofs: having checked whose the contract is (its
// owner, returned here as read on chain), the operator lets the network's
// shared service signer sign its batches, which until then wait. The
// contract must still be the committed CashierPayout naming that service
// signer; nothing changes otherwise. A contract proven with its merchant's
// signer needs no confirmation.
func ConfirmContract(ctx context.Context, st cashier.Store, chains map[cashier.Chain]cashier.ChainClient, keys ServiceKeys, id string) (*cashier.Contract, string, error) {
	k, err := st.Contract(ctx, id)
	if err != nil {
		return nil, "", err
	}
	if p := ContractProof(ctx, st, k); p == ProofMerchantSigner {
		return nil, "", cashier.Errorf(cashier.EInvalid, "contract %s is proven with its merchant's own signer %s: there is nothing to confirm", k.ID, k.Signer)
	}
	key, err := keys.Key(ctx, k.Chain, cashier.KeySigner)
	if cashier.ErrorCode(err) == cashier.ENotFound {
		return nil, "", cashier.Errorf(cashier.EInvalid, "the service has no signer key on %s, which contract %s would be signed with: "+
			"have its owner call setSigner with the merchant's signer and run cashier contract check --id %s instead", k.Chain, k.ID, k.ID)
	}
	if err != nil {
		return nil, "", err
	}
	service := KeyAddress(k.Chain, key)
	rd, err := ContractReaderFor(chains, k.Chain)
	if err != nil {
		return nil, "", err
	}
	if err := checkCode(ctx, rd, k.Chain, k.Address, payoutcontract.ArtifactPayout, "payout contract"); err != nil {
		return nil, "", err
	}
	got, err := viewAddress(ctx, rd, k.Chain, k.Address, payoutABI.PackSigner())
	if err != nil {
		return nil, "", err
	}
	if !strings.EqualFold(got, service) {
		return nil, "", cashier.Errorf(cashier.EInvalid, "payout contract %s on %s names signer %s, not the service signer %s: nothing to confirm; "+
			"if it names the merchant's signer, run cashier contract check --id %s", k.Address, k.Chain, got, service, k.ID)
	}
	owner, err := viewAddress(ctx, rd, k.Chain, k.Address, payoutABI.PackOwner())
	if err != nil {
		return nil, "", err
	}
	err = st.Update(ctx, func(tx cashier.Tx) error {
		cur, err := tx.Contract(ctx, id)
		if err != nil {
			return err
		}
		if cur.Signer != k.Signer {
			return cashier.Errorf(cashier.EInvalidStatus, "contract %s changed meanwhile; run the command again", id)
		}
		cur.Signer = service
		k = cur
		return tx.UpdateContract(ctx, cur)
	})
	return k, owner, err
}
