package evm

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"

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

// Recover prepares the sender after a start: it checks that the nodes serve
// the configured chain, loads the journal, sets the next nonce to the larger
// of the journal's next nonce and the chain's pending nonce, and re-broadcasts
// the newest transaction of every unsettled send. Re-broadcasting is
// idempotent: a node that has the transaction already, or has mined it,
// changes nothing. SendCall calls Recover on first use.
func (c *Client) Recover(ctx context.Context) error {
	if !c.sending() {
		return ErrReadOnly
	}
	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	return c.recoverLocked(ctx)
}

func (c *Client) recoverLocked(ctx context.Context) error {
	var id *big.Int
	err := c.rpc.do(ctx, func(ctx context.Context, ec *ethclient.Client) (err error) {
		id, err = ec.ChainID(ctx)
		return err
	})
	if err != nil {
		return fmt.Errorf("evm: chain id: %w", err)
	}
	if id.Cmp(c.chainID) != 0 {
		return fmt.Errorf("evm: node serves chain %s, configured %s", id, c.chainID)
	}
	entries, err := c.cfg.Journal.Unsettled()
	if err != nil {
		return fmt.Errorf("evm: journal: %w", err)
	}
	jnext, err := c.cfg.Journal.NextNonce()
	if err != nil {
		return fmt.Errorf("evm: journal: %w", err)
	}
	pending, err := c.pendingNonce(ctx)
	if err != nil {
		return err
	}
	c.sends = map[string][]JournalEntry{}
	c.byHash = map[string]string{}
	c.settled = map[string]bool{}
	c.goneSince = map[string]time.Time{}
	for _, e := range entries {
		c.remember(e)
	}
	c.nextNonce = max(jnext, pending)
	for _, txs := range c.sends {
		// The newest transaction is the likeliest to be mined; any older one
		// the node still holds was replaced by it there already. A failure
		// here must not block new sends: Check broadcasts again, replaces
		// the transaction when it stays unmined, or finds it dropped.
		_ = c.broadcast(ctx, txs[len(txs)-1].Raw)
	}
	c.recovered = true
	return nil
}

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

// fees is a priority fee and fee cap pair, with the base fee they were
// priced on (nil for fixed fees).
type fees struct{ tip, cap, base *big.Int }

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

// suggestFees prices a transaction for the next block: the node's suggested
// priority fee (at least MinTipCap) and a fee cap of the latest base fee
// times BaseFeeMultiplier plus the tip, so it stays includable while the
// base fee rises for a few blocks; both capped by MaxFeeCap.
func (c *Client) suggestFees(ctx context.Context) (*fees, error) {
	var tip *big.Int
	var head *types.Header
	err := c.rpc.do(ctx, func(ctx context.Context, ec *ethclient.Client) (err error) {
		if tip, err = ec.SuggestGasTipCap(ctx); err != nil {
			return err
		}
		head, err = ec.HeaderByNumber(ctx, nil)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("evm: fees: %w", err)
	}
	if tip.Cmp(c.cfg.MinTipCap) < 0 {
		tip = new(big.Int).Set(c.cfg.MinTipCap)
	}
	base := head.BaseFee
	if base == nil {
		base = new(big.Int)
	}
	feeCap := new(big.Int).Mul(base, big.NewInt(c.cfg.BaseFeeMultiplier))
	feeCap.Add(feeCap, tip)
	return c.capFees(&fees{tip: tip, cap: feeCap, base: base}), nil
}

func (c *Client) capFees(f *fees) *fees {
	if m := c.cfg.MaxFeeCap; m != nil && f.cap.Cmp(m) > 0 {
		f.cap = new(big.Int).Set(m)
	}
	if f.tip.Cmp(f.cap) > 0 {
		f.tip = new(big.Int).Set(f.cap)
	}
	return f
}

// bump raises v by BumpPercent, rounding up.
func (c *Client) bump(v *big.Int) *big.Int {
	n := new(big.Int).Mul(v, big.NewInt(int64(100+c.cfg.BumpPercent)))
	n.Add(n, big.NewInt(99))
	return n.Div(n, big.NewInt(100))
}

func normHash(h string) string { return strings.ToLower(h) }

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

func maxBig(a, b *big.Int) *big.Int {
	if a.Cmp(b) >= 0 {
		return a
	}
	return new(big.Int).Set(b)
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
