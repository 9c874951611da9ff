// Package clef signs with go-ethereum's Clef over its external API, so a
// signing key can live outside the service: payout batches by
// account_signTypedData (EIP-712), transactions by account_signTransaction.
// Clef's rules (rules.js beside this file) decide what it signs; a request
// they reject comes back as an error and nothing is signed.
package clef

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/stablecashier/cashier/payoutcontract"
)

// Signer is one account of one Clef.
type Signer struct {
	conn    *conn
	Account common.Address
}

// conn is the connection to one Clef, opened on first use and again after
// it broke: a Clef started after the service, or restarted (a new rules
// file), is reached without restarting the service.
type conn struct {
	endpoint string
	mu       sync.Mutex
	rpc      *rpc.Client
}

func (c *conn) call(ctx context.Context, out any, method string, args ...any) error {
	c.mu.Lock()
	if c.rpc == nil {
		cl, err := rpc.DialContext(ctx, c.endpoint)
		if err != nil {
			c.mu.Unlock()
			return fmt.Errorf("clef %s: %w", c.endpoint, err)
		}
		c.rpc = cl
	}
	cl := c.rpc
	c.mu.Unlock()
	err := cl.CallContext(ctx, out, method, args...)
	var answered rpc.Error
	if err != nil && !errors.As(err, &answered) && ctx.Err() == nil {
		// Not Clef's answer (a refusal is one): the connection broke.
		c.mu.Lock()
		if c.rpc == cl {
			c.rpc = nil
		}
		c.mu.Unlock()
		cl.Close()
	}
	return err
}

// Dial returns a Signer of account on the Clef at endpoint
// (http://HOST:PORT or an IPC path). The connection opens on first use.
func Dial(ctx context.Context, endpoint string, account common.Address) (*Signer, error) {
	if endpoint == "" {
		return nil, fmt.Errorf("clef: no endpoint")
	}
	return &Signer{conn: &conn{endpoint: endpoint}, Account: account}, nil
}

// As is a Signer of another account of the same Clef, sharing the
// connection.
func (s *Signer) As(account common.Address) *Signer { return &Signer{conn: s.conn, Account: account} }

// Address is the account (evm.TxSigner).
func (s *Signer) Address() common.Address { return s.Account }

// Close ends the connection.
func (s *Signer) Close() {
	s.conn.mu.Lock()
	defer s.conn.mu.Unlock()
	if s.conn.rpc != nil {
		s.conn.rpc.Close()
		s.conn.rpc = nil
	}
}

// Accounts lists the accounts Clef offers (its rules must approve listing).
func (s *Signer) Accounts(ctx context.Context) ([]common.Address, error) {
	var out []common.Address
	if err := s.conn.call(ctx, &out, "account_list"); err != nil {
		return nil, fmt.Errorf("clef account_list: %w", err)
	}
	return out, nil
}

// SignTypedData has Clef sign td and returns the 65-byte r||s||v
// signature (v 27 or 28) the payout contract accepts, after checking that
// it recovers to the account over the digest the service computed itself:
// a signer that signed something else is caught before any gas is spent.
func (s *Signer) SignTypedData(ctx context.Context, td apitypes.TypedData) ([]byte, error) {
	digest, err := payoutcontract.TypedDigest(td)
	if err != nil {
		return nil, err
	}
	var sig hexutil.Bytes
	if err := s.conn.call(ctx, &sig, "account_signTypedData", common.NewMixedcaseAddress(s.Account), td); err != nil {
		return nil, fmt.Errorf("clef refused to sign the %s batch for %s: %w", td.PrimaryType, td.Domain.VerifyingContract, err)
	}
	got, err := payoutcontract.Signer(digest, sig)
	if err != nil {
		return nil, fmt.Errorf("clef signature: %w", err)
	}
	if got != s.Account {
		return nil, fmt.Errorf("clef signed as %s, not %s", got, s.Account)
	}
	return sig, nil
}

// SignTypedDataAs is SignTypedData by another account of the same Clef
// (payoutexec.ExternalSigner: each merchant signer is its own account).
func (s *Signer) SignTypedDataAs(ctx context.Context, account common.Address, td apitypes.TypedData) ([]byte, error) {
	return s.As(account).SignTypedData(ctx, td)
}

// sendTxArgs is Clef's account_signTransaction argument (EIP-1559 fees).
type sendTxArgs struct {
	From                 common.MixedcaseAddress  `json:"from"`
	To                   *common.MixedcaseAddress `json:"to"`
	Gas                  hexutil.Uint64           `json:"gas"`
	MaxFeePerGas         *hexutil.Big             `json:"maxFeePerGas"`
	MaxPriorityFeePerGas *hexutil.Big             `json:"maxPriorityFeePerGas"`
	Value                hexutil.Big              `json:"value"`
	Nonce                hexutil.Uint64           `json:"nonce"`
	Input                hexutil.Bytes            `json:"input"`
	ChainID              *hexutil.Big             `json:"chainId"`
}

// SignTx has Clef sign an EIP-1559 transaction of the account on chainID
// and returns it signed, checked to be from the account and unchanged.
func (s *Signer) SignTx(ctx context.Context, tx *types.Transaction, chainID *big.Int) (*types.Transaction, error) {
	if tx.To() == nil {
		return nil, fmt.Errorf("clef: contract creation is not signed here")
	}
	to := common.NewMixedcaseAddress(*tx.To())
	args := sendTxArgs{From: common.NewMixedcaseAddress(s.Account), To: &to, Gas: hexutil.Uint64(tx.Gas()),
		MaxFeePerGas: (*hexutil.Big)(tx.GasFeeCap()), MaxPriorityFeePerGas: (*hexutil.Big)(tx.GasTipCap()),
		Value: hexutil.Big(*tx.Value()), Nonce: hexutil.Uint64(tx.Nonce()), Input: tx.Data(), ChainID: (*hexutil.Big)(chainID)}
	var res struct {
		Raw hexutil.Bytes      `json:"raw"`
		Tx  *types.Transaction `json:"tx"`
	}
	if err := s.conn.call(ctx, &res, "account_signTransaction", args); err != nil {
		return nil, fmt.Errorf("clef refused the transaction to %s: %w", tx.To(), err)
	}
	signed := new(types.Transaction)
	if err := signed.UnmarshalBinary(res.Raw); err != nil {
		return nil, fmt.Errorf("clef transaction: %w", err)
	}
	from, err := types.Sender(types.LatestSignerForChainID(chainID), signed)
	if err != nil || from != s.Account {
		return nil, fmt.Errorf("clef signed the transaction as %s (%v), not %s", from, err, s.Account)
	}
	if signed.Nonce() != tx.Nonce() || *signed.To() != *tx.To() || !strings.EqualFold(hexutil.Encode(signed.Data()), hexutil.Encode(tx.Data())) ||
		signed.Value().Cmp(tx.Value()) != 0 || signed.Gas() != tx.Gas() || signed.GasFeeCap().Cmp(tx.GasFeeCap()) != 0 ||
		signed.GasTipCap().Cmp(tx.GasTipCap()) != 0 {
		return nil, fmt.Errorf("clef returned another transaction than the one asked")
	}
	return signed, nil
}
