package evm

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
	cashier "github.com/stablecashier/cashier"
)

// ErrUnknownSend is returned by Check for a hash that is no transaction this
// client sent since it started or found unsettled in its journal.
var ErrUnknownSend = errors.New("evm: not a send of this client")

// ErrNotSigned wraps a signer's refusal (or failure) to sign a send:
// nothing was journaled or broadcast, the nonce stays free.
var ErrNotSigned = errors.New("evm: not signed")

// ErrReadOnly is returned by SendCall on a client without a key.
var ErrReadOnly = errors.New("evm: client has no sending key")

func (c *Client) remember(e JournalEntry) {
	c.sends[e.Send] = append(c.sends[e.Send], e)
	c.byHash[normHash(e.Hash)] = e.Send
}

func (c *Client) pendingNonce(ctx context.Context) (uint64, error) {
	var n uint64
	err := c.rpc.do(ctx, func(ctx context.Context, ec *ethclient.Client) (err error) {
		n, err = ec.PendingNonceAt(ctx, c.from)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("evm: pending nonce: %w", err)
	}
	return n, nil
}

// SendCall implements cashier.ChainClient: it estimates gas (with headroom)
// unless the call gives a limit, prices an EIP-1559 transaction, signs it
// with the next nonce, journals it and broadcasts it. The returned hash
// names the logical send; Receipt and Check follow it through replacements.
//
// Once the transaction is journaled SendCall reports success even when no
// node could be reached to take it: Check and Recover keep broadcasting it,
// so it will be sent, and an error would invite a second payment. An error
// means nothing was sent (estimation reverted, a node refused the
// transaction outright, the journal failed).
func (c *Client) SendCall(ctx context.Context, call cashier.Call) (string, error) {
	return c.send(ctx, call, nil)
}

// send is SendCall with optional fixed fees (used to test replacement).
func (c *Client) send(ctx context.Context, call cashier.Call, fixed *fees) (string, error) {
	if !c.sending() {
		return "", ErrReadOnly
	}
	// An empty To creates a contract (cashier contract deploy): the same
	// nonce journal and replacement rules cover it as any payout.
	var to *common.Address
	if call.To != "" {
		a, err := parseAddress(call.To)
		if err != nil {
			return "", err
		}
		to = &a
	}
	value := call.Value
	if value == nil {
		value = new(big.Int)
	}
	gas := call.GasLimit
	if gas == 0 {
		msg := ethereum.CallMsg{From: c.from, To: to, Value: value, Data: call.Data}
		var est uint64
		err := c.rpc.do(ctx, func(ctx context.Context, ec *ethclient.Client) (err error) {
			est, err = ec.EstimateGas(ctx, msg)
			return err
		})
		if err != nil {
			// A revert during estimation means the call would fail on chain:
			// better to report it now than to pay for a failed transaction.
			return "", fmt.Errorf("evm: estimate gas: %w", err)
		}
		if call.MaxGas > 0 && est > call.MaxGas {
			return "", &cashier.GasCapError{Estimate: est, Cap: call.MaxGas}
		}
		gas = est + est*uint64(c.cfg.GasHeadroomPercent)/100
		if call.MaxGas > 0 {
			gas = min(gas, call.MaxGas)
		}
	}
	f := fixed
	var err error
	if f == nil {
		if f, err = c.suggestFees(ctx); err != nil {
			return "", err
		}
	}

	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	if !c.recovered {
		if err := c.recoverLocked(ctx); err != nil {
			return "", err
		}
	}
	nonce := c.nextNonce
	tx, err := c.signTx(ctx, &types.DynamicFeeTx{
		ChainID:   c.chainID,
		Nonce:     nonce,
		GasTipCap: f.tip,
		GasFeeCap: f.cap,
		Gas:       gas,
		To:        to,
		Value:     value,
		Data:      call.Data,
	})
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrNotSigned, err)
	}
	raw, err := tx.MarshalBinary()
	if err != nil {
		return "", fmt.Errorf("evm: encode: %w", err)
	}
	hash := tx.Hash().Hex()
	e := JournalEntry{Send: hash, Nonce: nonce, Hash: hash, Raw: raw, TipCap: f.tip, FeeCap: f.cap, Time: c.cfg.Clock.Now()}
	// Journal first: once the transaction may exist on some node, its nonce
	// must never be handed out again, whatever happens to this process.
	if err := c.cfg.Journal.Append(e); err != nil {
		return "", err
	}
	c.remember(e)
	c.nextNonce++
	tries, err := c.broadcastCounted(ctx, raw)
	var rpcErr rpc.Error
	refused := errors.Is(err, ErrNonceUsed) || errors.As(err, &rpcErr) && !retryable(err)
	switch {
	case err == nil:
		return hash, nil
	case refused && tries == 1:
		// A node looked at the transaction and refused it (no funds for
		// gas, fee too low, nonce taken by a transaction this journal does
		// not know): it exists nowhere, so the send is released and the
		// next nonce is read afresh, or every later send would stall.
		if serr := c.cfg.Journal.Settle(hash, ""); serr != nil {
			return "", errors.Join(err, serr)
		}
		delete(c.sends, hash)
		delete(c.byHash, normHash(hash))
		c.nextNonce = nonce
		if errors.Is(err, ErrNonceUsed) {
			if p, perr := c.pendingNonce(ctx); perr == nil {
				c.nextNonce = max(nonce+1, p)
			}
		}
		return "", fmt.Errorf("evm: broadcast refused: %w", err)
	default:
		// Unknown outcome: the nodes could not be reached, or one refused
		// after an earlier attempt that may have delivered it elsewhere. The
		// transaction is journaled and Check or Recover broadcasts it again,
		// so the send exists: reporting a failure here could make the caller
		// send the same payment a second time.
		return hash, nil
	}
}

// Estimate prices call as from would send it now, without a key and
// without sending: the gas estimate, the limit SendCall would sign (with
// headroom), the account's pending nonce and the fees SendCall would offer.
// An empty To estimates a contract creation.
func (c *Client) Estimate(ctx context.Context, from string, call cashier.Call) (Estimate, error) {
	f, err := parseAddress(from)
	if err != nil {
		return Estimate{}, err
	}
	var to *common.Address
	if call.To != "" {
		a, err := parseAddress(call.To)
		if err != nil {
			return Estimate{}, err
		}
		to = &a
	}
	var e Estimate
	msg := ethereum.CallMsg{From: f, To: to, Value: call.Value, Data: call.Data}
	err = c.rpc.do(ctx, func(ctx context.Context, ec *ethclient.Client) (err error) {
		if e.Gas, err = ec.EstimateGas(ctx, msg); err != nil {
			return err
		}
		e.Nonce, err = ec.PendingNonceAt(ctx, f)
		return err
	})
	if err != nil {
		return Estimate{}, fmt.Errorf("evm: estimate gas: %w", err)
	}
	fs, err := c.suggestFees(ctx)
	if err != nil {
		return Estimate{}, err
	}
	e.GasLimit = e.Gas + e.Gas*uint64(c.cfg.GasHeadroomPercent)/100
	e.TipCap, e.FeeCap, e.BaseFee = fs.tip, fs.cap, fs.base
	return e, nil
}

// Estimate is what Estimate found.
type Estimate struct {
	Gas, GasLimit  uint64
	Nonce          uint64 // the account's pending nonce
	TipCap, FeeCap *big.Int
	BaseFee        *big.Int // of the latest block: base + tip is the price paid if mined next
}

// CreatedAddress is the address of the contract that a creation sent
// from from with nonce makes.
func CreatedAddress(from string, nonce uint64) string {
	return crypto.CreateAddress(common.HexToAddress(from), nonce).Hex()
}

// ErrNonceUsed reports that a node refused a transaction because its nonce
// is already used, which for a re-broadcast usually means it was mined. A
// SendCall failing with it sent nothing and has read the next nonce afresh:
// another process signing with the same key took the nonce, and the call
// may be sent again.
var ErrNonceUsed = errors.New("nonce already used")

// broadcast sends a signed transaction, treating "already known" as success
// since the node holds exactly this transaction.
func (c *Client) broadcast(ctx context.Context, raw []byte) error {
	_, err := c.broadcastCounted(ctx, raw)
	return err
}

// broadcastCounted is broadcast that also reports how many attempts it took.
func (c *Client) broadcastCounted(ctx context.Context, raw []byte) (int, error) {
	tx := new(types.Transaction)
	if err := tx.UnmarshalBinary(raw); err != nil {
		return 0, fmt.Errorf("evm: decode journaled transaction: %w", err)
	}
	tries := 0
	err := c.rpc.do(ctx, func(ctx context.Context, ec *ethclient.Client) error {
		tries++
		err := ec.SendTransaction(ctx, tx)
		if err == nil {
			return nil
		}
		msg := strings.ToLower(err.Error())
		switch {
		case strings.Contains(msg, "already known"), strings.Contains(msg, "known transaction"),
			strings.Contains(msg, "already imported"), strings.Contains(msg, "alreadyknown"):
			return nil
		case strings.Contains(msg, "nonce too low"), strings.Contains(msg, "replacement transaction underpriced"):
			// Either this transaction or another with its nonce is mined or
			// pooled; the caller decides by looking for receipts.
			return fmt.Errorf("%w: %v", ErrNonceUsed, err)
		}
		return err
	})
	return tries, err
}

func normHash(h string) string { return strings.ToLower(h) }
