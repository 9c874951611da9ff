package evm

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	cashier "github.com/stablecashier/cashier"
)

// SendState is where a logical send stands.
type SendState int

const (
	SendPending   SendState = iota // broadcast, not yet mined
	SendMined                      // mined, fewer than Confirmations blocks deep
	SendConfirmed                  // mined and Confirmations blocks deep; settled in the journal
	// SendDropped: the account's nonce moved past the send and, for at
	// least ReplaceAfter, none of its transactions has had a receipt, so
	// another transaction took the nonce. A node that has pruned old
	// receipts looks the same, so callers must verify on chain (transfer
	// logs, balances) before paying again.
	SendDropped
)

func (s SendState) String() string {
	return [...]string{"pending", "mined", "confirmed", "dropped"}[s]
}

// SendStatus reports one logical send.
type SendStatus struct {
	Send          string // the hash SendCall returned
	State         SendState
	Nonce         uint64
	Transactions  []string         // hashes of the first transaction and every replacement
	Receipt       *cashier.Receipt // of the mined transaction, when mined
	Confirmations uint64           // blocks from the mined one to the head, inclusive
	Replaced      bool             // Check signed a replacement this time
	StuckAtCap    bool             // a replacement is due but MaxFeeCap forbids higher fees
}

// Check advances one logical send and reports it: a mined transaction with
// enough confirmations settles the send in the journal; an unmined one
// older than ReplaceAfter (by the injected clock) is replaced with the same
// nonce and fees raised by at least BumpPercent; otherwise the newest
// transaction is broadcast again, which is harmless, so that a node that lost
// it gets it back.
func (c *Client) Check(ctx context.Context, send string) (SendStatus, error) {
	send = c.sendOf(send)
	c.sendMu.Lock()
	txs := append([]JournalEntry(nil), c.sends[send]...)
	c.sendMu.Unlock()
	if len(txs) == 0 {
		return SendStatus{}, fmt.Errorf("%w: %s", ErrUnknownSend, send)
	}
	st := SendStatus{Send: send, Nonce: txs[0].Nonce}
	for _, e := range txs {
		st.Transactions = append(st.Transactions, e.Hash)
	}
	latest, r, err := c.probe(ctx, txs)
	if err != nil {
		return st, err
	}
	if r != nil {
		head, err := c.Head(ctx)
		if err != nil {
			return st, err
		}
		st.Receipt = toReceipt(r)
		st.State = SendMined
		if n := r.BlockNumber.Uint64(); head.Number >= n {
			st.Confirmations = head.Number - n + 1
		}
		if st.Confirmations >= c.cfg.Confirmations {
			st.State = SendConfirmed
			if err := c.settle(send, r.TxHash.Hex()); err != nil {
				return st, err
			}
		}
		return st, nil
	}
	c.sendMu.Lock()
	settled := c.settled[send]
	if latest <= st.Nonce {
		delete(c.goneSince, send)
	}
	since, seen := c.goneSince[send]
	if latest > st.Nonce && !seen {
		c.goneSince[send] = c.cfg.Clock.Now()
	}
	c.sendMu.Unlock()
	if latest > st.Nonce {
		// The nonce is used and none of our transactions has a receipt.
		// Only when that still holds ReplaceAfter later is the send given
		// up: a node behind a load balancer, or one still indexing, can
		// briefly show a mined nonce without its receipt.
		if !seen || c.cfg.Clock.Now().Sub(since) < c.cfg.ReplaceAfter {
			return st, nil
		}
		st.State = SendDropped
		if !settled {
			if err := c.settle(send, ""); err != nil {
				return st, err
			}
		}
		return st, nil
	}
	newest := txs[len(txs)-1]
	if settled || c.cfg.Clock.Now().Sub(newest.Time) < c.cfg.ReplaceAfter {
		// A settled send without a receipt was reorged out: its transaction
		// is back in the pool and is only re-broadcast, never replaced.
		err := c.broadcast(ctx, newest.Raw)
		if errors.Is(err, ErrNonceUsed) {
			err = nil // mined meanwhile; the next Check sees the receipt
		}
		return st, err
	}
	replaced, err := c.replace(ctx, newest)
	if err != nil {
		return st, err
	}
	if replaced == "" {
		st.StuckAtCap = true
		return st, nil
	}
	st.Replaced = true
	st.Transactions = append(st.Transactions, replaced)
	return st, nil
}

// probe reads the account's mined nonce and then the receipts of txs,
// newest first, in one round on one node so the two agree: when the nonce
// says used and no receipt follows, the nonce went to another transaction.
func (c *Client) probe(ctx context.Context, txs []JournalEntry) (latest uint64, mined *types.Receipt, err error) {
	err = c.rpc.do(ctx, func(ctx context.Context, ec *ethclient.Client) error {
		n, err := ec.NonceAt(ctx, c.from, nil)
		if err != nil {
			return err
		}
		for _, e := range slices.Backward(txs) {
			r, err := ec.TransactionReceipt(ctx, common.HexToHash(e.Hash))
			switch {
			case err == nil:
				latest, mined = n, r
				return nil
			case isIndexing(err):
				return errIndexing
			case !errors.Is(err, ethereum.NotFound):
				return err
			}
		}
		latest, mined = n, nil
		return nil
	})
	if err != nil {
		return 0, nil, fmt.Errorf("evm: probe send: %w", err)
	}
	return latest, mined, nil
}

// sendOf maps any transaction hash of a send to the send.
func (c *Client) sendOf(h string) string {
	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	if s, ok := c.byHash[normHash(h)]; ok {
		return s
	}
	return h
}

func (c *Client) settle(send, mined string) error {
	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	if c.settled[send] {
		return nil
	}
	if err := c.cfg.Journal.Settle(send, mined); err != nil {
		return err
	}
	// The send's transactions stay indexed so that Receipt by the original
	// hash keeps finding the mined replacement for the process's lifetime.
	c.settled[send] = true
	return nil
}

// replace signs, journals and broadcasts a replacement of prev and returns
// its hash, or "" when MaxFeeCap leaves no room for the required bump.
func (c *Client) replace(ctx context.Context, prev JournalEntry) (string, error) {
	old := new(types.Transaction)
	if err := old.UnmarshalBinary(prev.Raw); err != nil {
		return "", fmt.Errorf("evm: decode journaled transaction: %w", err)
	}
	now, err := c.suggestFees(ctx)
	if err != nil {
		return "", err
	}
	// Nodes accept a replacement only when both fees rise by 10% (12.5% on
	// some); the market may also have moved above that.
	f := &fees{tip: maxBig(c.bump(prev.TipCap), now.tip), cap: maxBig(c.bump(prev.FeeCap), now.cap)}
	if m := c.cfg.MaxFeeCap; m != nil && f.cap.Cmp(m) > 0 {
		return "", nil
	}
	tx, err := c.signTx(ctx, &types.DynamicFeeTx{
		ChainID:   c.chainID,
		Nonce:     old.Nonce(),
		GasTipCap: f.tip,
		GasFeeCap: f.cap,
		Gas:       old.Gas(),
		To:        old.To(),
		Value:     old.Value(),
		Data:      old.Data(),
	})
	if err != nil {
		return "", fmt.Errorf("evm: sign replacement: %w", err)
	}
	raw, err := tx.MarshalBinary()
	if err != nil {
		return "", err
	}
	e := JournalEntry{Send: prev.Send, Nonce: old.Nonce(), Hash: tx.Hash().Hex(), Raw: raw, TipCap: f.tip, FeeCap: f.cap, Time: c.cfg.Clock.Now()}
	c.sendMu.Lock()
	if txs := c.sends[prev.Send]; c.settled[prev.Send] || txs[len(txs)-1].Hash != prev.Hash {
		// Settled or replaced meanwhile by a concurrent Check.
		c.sendMu.Unlock()
		return "", nil
	}
	if err := c.cfg.Journal.Append(e); err != nil {
		c.sendMu.Unlock()
		return "", err
	}
	c.remember(e)
	c.sendMu.Unlock()
	if err := c.broadcast(ctx, raw); err != nil && !errors.Is(err, ErrNonceUsed) {
		// Journaled; the next Check broadcasts it again.
		return e.Hash, fmt.Errorf("evm: broadcast replacement %s: %w", e.Hash, err)
	}
	return e.Hash, nil
}

// Pending returns the sends not yet settled, oldest nonce first.
func (c *Client) Pending() []string {
	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	var out []string
	for s := range c.sends {
		if !c.settled[s] {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return cmpU64(c.sends[a][0].Nonce, c.sends[b][0].Nonce) })
	return out
}

// CheckAll checks every unsettled send once, oldest nonce first; a
// background loop of the service calls it so sends nobody waits for (after a
// restart, say) still get replaced when stuck and settled when confirmed.
func (c *Client) CheckAll(ctx context.Context) ([]SendStatus, error) {
	var out []SendStatus
	var errs []error
	for _, s := range c.Pending() {
		st, err := c.Check(ctx, s)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, st)
	}
	return out, errors.Join(errs...)
}

// Wait checks send every poll interval until it is confirmed or dropped (or
// ctx ends) and returns the final status.
func (c *Client) Wait(ctx context.Context, send string, poll time.Duration) (SendStatus, error) {
	for {
		st, err := c.Check(ctx, send)
		if err == nil && (st.State == SendConfirmed || st.State == SendDropped) {
			return st, nil
		}
		if errors.Is(err, ErrUnknownSend) {
			return st, err
		}
		if ctx.Err() != nil {
			return st, ctx.Err()
		}
		if werr := sleep(ctx, poll); werr != nil {
			if err == nil {
				err = werr
			}
			return st, err
		}
	}
}

// isIndexing reports go-ethereum's answer to a receipt query while its
// transaction index is still being built: the receipt may exist but cannot
// be looked up yet.
func isIndexing(err error) bool {
	return err != nil && strings.Contains(err.Error(), "transaction indexing is in progress")
}
