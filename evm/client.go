// Package evm implements cashier.ChainClient for Ethereum and Arbitrum over
// JSON-RPC: reads spread over several node URLs with retry and failover, and
// a sender that signs EIP-1559 transactions, journals them before broadcast
// so nonces survive restarts, and replaces transactions that get stuck.
package evm

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
	cashier "github.com/stablecashier/cashier"
)

// TxSigner signs transactions of one account held outside the service.
type TxSigner interface {
	Address() common.Address
	// SignTx returns tx signed by the account for chainID, or an error
	// when the signer refuses (nothing is sent then).
	SignTx(ctx context.Context, tx *types.Transaction, chainID *big.Int) (*types.Transaction, error)
}

// Config configures a Client. Zero values take the defaults named.
type Config struct {
	Chain   cashier.Chain // ETH or ARB
	ChainID uint64        // EVM chain id transactions are signed for; checked against the node
	URLs    []string      // JSON-RPC endpoints, tried in order on failure

	// Key is the sending account; nil (and no Signer) makes a read-only
	// client whose SendCall fails.
	Key *ecdsa.PrivateKey
	// Signer, instead of Key, signs the sending account's transactions
	// outside the service (Clef's account_signTransaction). Nonces, fees,
	// the journal and replacements stay this client's.
	Signer TxSigner
	// Journal records the sending account's transactions; required with Key.
	Journal Journal
	Clock   cashier.Clock // default cashier.SystemClock

	CallTimeout time.Duration // per RPC call; default 10s
	Attempts    int           // per call over all URLs; default max(3, 2×URLs)
	BackoffBase time.Duration // first retry pause window; default 200ms
	BackoffMax  time.Duration // largest pause window; default 5s

	GasHeadroomPercent int           // added to estimated gas; default 25
	BaseFeeMultiplier  int64         // fee cap = base fee × this + tip; default 2
	MinTipCap          *big.Int      // floor of the priority fee; default 0.01 gwei
	MaxFeeCap          *big.Int      // ceiling of the fee cap; nil = none
	ReplaceAfter       time.Duration // unmined this long after signing → replace; default 3m
	BumpPercent        int           // fee increase of a replacement; default 13 (nodes demand ≥ 10 or 12.5)
	Confirmations      uint64        // depth (mined block included) at which a send counts; default 1
	LogChunk           uint64        // blocks per eth_getLogs query; default 2000
	LogAddressChunk    int           // watched addresses per eth_getLogs query; default 500
}

func (c *Config) defaults() {
	if c.Clock == nil {
		c.Clock = cashier.SystemClock{}
	}
	if c.CallTimeout <= 0 {
		c.CallTimeout = 10 * time.Second
	}
	if c.Attempts <= 0 {
		c.Attempts = max(3, 2*len(c.URLs))
	}
	if c.BackoffBase <= 0 {
		c.BackoffBase = 200 * time.Millisecond
	}
	if c.BackoffMax <= 0 {
		c.BackoffMax = 5 * time.Second
	}
	if c.GasHeadroomPercent <= 0 {
		c.GasHeadroomPercent = 25
	}
	if c.BaseFeeMultiplier <= 0 {
		c.BaseFeeMultiplier = 2
	}
	if c.MinTipCap == nil {
		c.MinTipCap = big.NewInt(10_000_000) // 0.01 gwei
	}
	if c.ReplaceAfter <= 0 {
		c.ReplaceAfter = 3 * time.Minute
	}
	if c.BumpPercent < 13 {
		c.BumpPercent = 13
	}
	if c.Confirmations == 0 {
		c.Confirmations = 1
	}
	if c.LogChunk == 0 {
		c.LogChunk = 2000
	}
	if c.LogAddressChunk <= 0 {
		c.LogAddressChunk = 500
	}
}

// Client is a cashier.ChainClient for one EVM network.
type Client struct {
	cfg     Config
	rpc     *endpoints
	chainID *big.Int
	signer  types.Signer
	from    common.Address

	// sendMu serialises everything that allocates nonces or changes the
	// in-memory view of the journal.
	sendMu    sync.Mutex
	recovered bool
	nextNonce uint64
	sends     map[string][]JournalEntry // send → its transactions, oldest first
	byHash    map[string]string         // any transaction hash → its send
	settled   map[string]bool           // sends settled in the journal
	goneSince map[string]time.Time      // send → first Check that saw its nonce used without a receipt of ours

	noBatch atomic.Bool // the nodes refused a batched request that single requests answered (native.go)
}

var _ cashier.ChainClient = (*Client)(nil)

// New returns a client. It does not contact the nodes: see Recover.
func New(cfg Config) (*Client, error) {
	if !cfg.Chain.IsEVM() {
		return nil, fmt.Errorf("evm: %q is not an EVM chain", cfg.Chain)
	}
	if cfg.ChainID == 0 {
		return nil, errors.New("evm: chain id is required")
	}
	if cfg.Key != nil && cfg.Signer != nil {
		return nil, errors.New("evm: a sending client has a key or a signer, not both")
	}
	if (cfg.Key != nil || cfg.Signer != nil) && cfg.Journal == nil {
		return nil, errors.New("evm: a sending client needs a journal")
	}
	cfg.defaults()
	ep, err := dialEndpoints(cfg.Chain, new(big.Int).SetUint64(cfg.ChainID), cfg.URLs, cfg.CallTimeout, cfg.Attempts, cfg.BackoffBase, cfg.BackoffMax)
	if err != nil {
		return nil, err
	}
	id := new(big.Int).SetUint64(cfg.ChainID)
	c := &Client{
		cfg:     cfg,
		rpc:     ep,
		chainID: id,
		signer:  types.LatestSignerForChainID(id),
		sends:   map[string][]JournalEntry{},
		byHash:  map[string]string{},
		settled: map[string]bool{},
	}
	if cfg.Key != nil {
		c.from = crypto.PubkeyToAddress(cfg.Key.PublicKey)
	}
	if cfg.Signer != nil {
		c.from = cfg.Signer.Address()
	}
	return c, nil
}

// sending reports whether the client can sign (a key or a signer).
func (c *Client) sending() bool { return c.cfg.Key != nil || c.cfg.Signer != nil }

// signTx signs a transaction of the sending account.
func (c *Client) signTx(ctx context.Context, tx *types.DynamicFeeTx) (*types.Transaction, error) {
	if c.cfg.Signer != nil {
		return c.cfg.Signer.SignTx(ctx, types.NewTx(tx), c.chainID)
	}
	return types.SignNewTx(c.cfg.Key, c.signer, tx)
}

// Close releases the connections.
func (c *Client) Close() { c.rpc.close() }

// Chain implements cashier.ChainClient.
func (c *Client) Chain() cashier.Chain { return c.cfg.Chain }

// From is the sending account ("" for a read-only client).
func (c *Client) From() string {
	if !c.sending() {
		return ""
	}
	return c.from.Hex()
}

// ValidateAddress implements cashier.ChainClient.
func (c *Client) ValidateAddress(addr string) (string, error) { return ValidateAddress(addr) }

// Head implements cashier.ChainClient.
func (c *Client) Head(ctx context.Context) (cashier.BlockRef, error) {
	return c.header(ctx, nil)
}

// BlockByNumber implements cashier.ChainClient.
func (c *Client) BlockByNumber(ctx context.Context, n uint64) (cashier.BlockRef, error) {
	return c.header(ctx, new(big.Int).SetUint64(n))
}

// Finalized returns the chain's newest finalized block: the `finalized`
// block tag (Ethereum since the merge; Arbitrum's follows Ethereum's
// finality of its batches). A node that has none answers an error.
func (c *Client) Finalized(ctx context.Context) (cashier.BlockRef, error) {
	return c.header(ctx, big.NewInt(int64(rpc.FinalizedBlockNumber)))
}

func (c *Client) header(ctx context.Context, n *big.Int) (cashier.BlockRef, error) {
	var h *types.Header
	err := c.rpc.do(ctx, func(ctx context.Context, ec *ethclient.Client) (err error) {
		h, err = ec.HeaderByNumber(ctx, n)
		if n != nil && errors.Is(err, ethereum.NotFound) {
			// A node behind n answers null; the next one may have it.
			err = fmt.Errorf("%w: block %v", ErrBehind, n)
		}
		return err
	})
	if err != nil {
		return cashier.BlockRef{}, fmt.Errorf("evm: header %v: %w", n, err)
	}
	return blockRef(h), nil
}

func blockRef(h *types.Header) cashier.BlockRef {
	return cashier.BlockRef{Number: h.Number.Uint64(), Hash: h.Hash().Hex(), Time: time.Unix(int64(h.Time), 0).UTC()}
}

// ERC20 function selectors and the Transfer event topic.
var (
	selBalanceOf  = crypto.Keccak256([]byte("balanceOf(address)"))[:4]
	selAllowance  = crypto.Keccak256([]byte("allowance(address,address)"))[:4]
	TransferTopic = crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))
)

// TokenBalance implements cashier.ChainClient.
func (c *Client) TokenBalance(ctx context.Context, token, owner string) (*big.Int, error) {
	o, err := parseAddress(owner)
	if err != nil {
		return nil, err
	}
	return c.callUint(ctx, token, slices.Concat(selBalanceOf, common.LeftPadBytes(o[:], 32)))
}

// Allowance implements cashier.ChainClient.
func (c *Client) Allowance(ctx context.Context, token, owner, spender string) (*big.Int, error) {
	o, err := parseAddress(owner)
	if err != nil {
		return nil, err
	}
	s, err := parseAddress(spender)
	if err != nil {
		return nil, err
	}
	return c.callUint(ctx, token, slices.Concat(selAllowance, common.LeftPadBytes(o[:], 32), common.LeftPadBytes(s[:], 32)))
}

// callUint calls a view function returning one uint256 at the latest block.
func (c *Client) callUint(ctx context.Context, token string, data []byte) (*big.Int, error) {
	out, err := c.CallView(ctx, token, data)
	if err != nil {
		return nil, err
	}
	if len(out) != 32 {
		// An address without code answers with nothing at all.
		t, _ := parseAddress(token) // CallView has parsed it
		return nil, fmt.Errorf("evm: call %s returned %d bytes, want 32 (is it a token contract?)", t.Hex(), len(out))
	}
	return new(big.Int).SetBytes(out), nil
}

// TransferLogs implements cashier.ChainClient. The range is queried in
// chunks of LogChunk blocks and the watched addresses in groups of
// LogAddressChunk, because hosted nodes cap both; a chunk a node refuses as
// too large is split in halves.
func (c *Client) TransferLogs(ctx context.Context, token string, to []string, from, toBlock uint64) ([]cashier.Transfer, error) {
	t, err := parseAddress(token)
	if err != nil {
		return nil, err
	}
	if len(to) == 0 || from > toBlock {
		return nil, nil
	}
	topics, err := addressTopics(to)
	if err != nil {
		return nil, err
	}
	q := ethereum.FilterQuery{Addresses: []common.Address{t}}
	logs, err := c.chunkedLogs(from, toBlock, func(start, end uint64) ([]types.Log, error) {
		var chunk []types.Log
		for group := range slices.Chunk(topics, c.cfg.LogAddressChunk) {
			q.Topics = [][]common.Hash{{TransferTopic}, nil, group}
			got, err := c.verifiedLogs(ctx, "logs", q, start, end, map[uint64]time.Time{})
			if err != nil {
				return nil, err
			}
			chunk = append(chunk, got...)
		}
		return chunk, nil
	})
	if err != nil {
		return nil, err
	}
	return c.transfersOf(ctx, logs)
}

func cmpU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Receipt implements cashier.ChainClient. For a hash SendCall returned it
// finds whichever of the send's transactions (the first or a replacement)
// was mined; the receipt's TxHash names that one.
func (c *Client) Receipt(ctx context.Context, txHash string) (*cashier.Receipt, error) {
	r, err := c.minedOf(ctx, txHash)
	if errors.Is(err, errIndexing) {
		return nil, nil // not found yet; the caller asks again
	}
	if err != nil || r == nil {
		return nil, err
	}
	return toReceipt(r), nil
}

// minedOf returns the receipt of whichever transaction of txHash's send was
// mined, or of txHash itself when it is not one of ours.
func (c *Client) minedOf(ctx context.Context, txHash string) (*types.Receipt, error) {
	hashes := []string{txHash}
	c.sendMu.Lock()
	if send, ok := c.byHash[normHash(txHash)]; ok {
		hashes = hashes[:0]
		for _, e := range slices.Backward(c.sends[send]) {
			hashes = append(hashes, e.Hash)
		}
	}
	c.sendMu.Unlock()
	for _, h := range hashes {
		r, err := c.receipt(ctx, common.HexToHash(h))
		if err != nil || r != nil {
			return r, err
		}
	}
	return nil, nil
}

func (c *Client) receipt(ctx context.Context, h common.Hash) (*types.Receipt, error) {
	var r *types.Receipt
	err := c.rpc.do(ctx, func(ctx context.Context, ec *ethclient.Client) (err error) {
		r, err = ec.TransactionReceipt(ctx, h)
		switch {
		case errors.Is(err, ethereum.NotFound):
			r, err = nil, nil
		case isIndexing(err):
			// Not "not found": while a node builds its transaction index,
			// a mined transaction cannot be looked up.
			err = errIndexing
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("evm: receipt %s: %w", h.Hex(), err)
	}
	return r, nil
}

// errIndexing is a node's answer to a receipt query while it is still
// indexing transactions after a start.
var errIndexing = errors.New("node is still indexing transactions")

func toReceipt(r *types.Receipt) *cashier.Receipt {
	fee := new(big.Int).SetUint64(r.GasUsed)
	if r.EffectiveGasPrice != nil {
		fee.Mul(fee, r.EffectiveGasPrice)
	}
	out := &cashier.Receipt{
		TxHash:      r.TxHash.Hex(),
		Success:     r.Status == types.ReceiptStatusSuccessful,
		BlockNumber: r.BlockNumber.Uint64(),
		BlockHash:   r.BlockHash.Hex(),
		GasUsed:     r.GasUsed,
		Fee:         fee,
	}
	for _, l := range r.Logs {
		cl := cashier.Log{Address: l.Address.Hex(), Data: l.Data, Index: l.Index}
		for _, t := range l.Topics {
			cl.Topics = append(cl.Topics, [32]byte(t))
		}
		out.Logs = append(out.Logs, cl)
	}
	return out
}

// tooLarge reports whether a node refused a log query for its size; hosted
// nodes word it in many ways ("block range is too wide", "query returned
// more than 10000 results", "log response size exceeded", ...).
func tooLarge(err error) bool {
	msg := strings.ToLower(err.Error())
	for _, k := range []string{"range", "limit", "exceed", "too many", "too large", "more than", "max"} {
		if strings.Contains(msg, k) {
			return true
		}
	}
	return false
}

// ViewUint calls a view function of contract returning one uint256 (or a
// bool) at the latest block.
func (c *Client) ViewUint(ctx context.Context, contract string, data []byte) (*big.Int, error) {
	return c.callUint(ctx, contract, data)
}

// Code returns the runtime code at addr at the latest block, empty when no
// contract is there.
func (c *Client) Code(ctx context.Context, addr string) ([]byte, error) {
	a, err := parseAddress(addr)
	if err != nil {
		return nil, err
	}
	var code []byte
	err = c.rpc.do(ctx, func(ctx context.Context, ec *ethclient.Client) (err error) {
		code, err = ec.CodeAt(ctx, a, nil)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("evm: code of %s: %w", a.Hex(), err)
	}
	return code, nil
}

// CallView runs a read-only call of contract at the latest block and
// returns its raw output.
func (c *Client) CallView(ctx context.Context, contract string, data []byte) ([]byte, error) {
	t, err := parseAddress(contract)
	if err != nil {
		return nil, err
	}
	var out []byte
	err = c.rpc.do(ctx, func(ctx context.Context, ec *ethclient.Client) (err error) {
		out, err = ec.CallContract(ctx, ethereum.CallMsg{To: &t, Data: data}, nil)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("evm: call %s: %w", t.Hex(), err)
	}
	return out, nil
}

// AccountTransfers implements cashier.TransferHistory: two log queries,
// one on the sender topic and one on the receiver topic, merged in chain
// order (a transfer to itself is listed once).
func (c *Client) AccountTransfers(ctx context.Context, token, account string, from, toBlock uint64) ([]cashier.Transfer, error) {
	t, err := parseAddress(token)
	if err != nil {
		return nil, err
	}
	topics, err := addressTopics([]string{account})
	if err != nil {
		return nil, err
	}
	if from > toBlock {
		return nil, nil
	}
	q := ethereum.FilterQuery{Addresses: []common.Address{t}}
	logs, err := c.chunkedLogs(from, toBlock, func(start, end uint64) ([]types.Log, error) {
		var chunk []types.Log
		for _, tp := range [][][]common.Hash{{{TransferTopic}, topics, nil}, {{TransferTopic}, nil, topics}} {
			q.Topics = tp
			got, err := c.verifiedLogs(ctx, "logs", q, start, end, map[uint64]time.Time{})
			if err != nil {
				return nil, err
			}
			chunk = append(chunk, got...)
		}
		return chunk, nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(logs, func(a, b types.Log) int {
		if a.BlockNumber != b.BlockNumber {
			return cmpU64(a.BlockNumber, b.BlockNumber)
		}
		return cmpU64(uint64(a.Index), uint64(b.Index))
	})
	return c.transfersOf(ctx, logs)
}

// transfersOf turns logs into the transfers they record, each with its
// block's time; a log listed twice (a transfer to itself matches both the
// from and the to query) counts once.
func (c *Client) transfersOf(ctx context.Context, logs []types.Log) ([]cashier.Transfer, error) {
	times := map[uint64]time.Time{}
	out := make([]cashier.Transfer, 0, len(logs))
	seen := map[[2]uint64]bool{}
	for _, l := range logs {
		key := [2]uint64{l.BlockNumber, uint64(l.Index)}
		if seen[key] {
			continue
		}
		seen[key] = true
		tr, ok := c.transferOf(l)
		if !ok {
			continue
		}
		bt, ok := times[l.BlockNumber]
		if !ok {
			ref, err := c.BlockByNumber(ctx, l.BlockNumber)
			if err != nil {
				return nil, err
			}
			bt = ref.Time
			times[l.BlockNumber] = bt
		}
		tr.BlockTime = bt
		out = append(out, tr)
	}
	return out, nil
}
