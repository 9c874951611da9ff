package tron

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/nodes"
)

// Defaults of Config.
const (
	DefaultFeeLimit = 100_000_000 // 100 TRX in sun
	// MaxFeeLimit is the network's upper bound on fee_limit (15 000 TRX).
	MaxFeeLimit    = 15_000_000_000
	defaultTimeout = 10 * time.Second
	defaultBackoff = 250 * time.Millisecond
	// Signed transaction size in bytes beyond raw_data: protobuf framing,
	// one 65-byte signature, and the 64 bytes per contract result the node
	// adds when it charges bandwidth.
	txOverheadBytes = 3 + 67 + 64
	// rawHeaderBytes is what reference block, times and fee limit add to
	// raw_data.
	rawHeaderBytes = 40
	// maxExpiry is how far ahead a node may set expiration (the network
	// rejects more than 24 h); the slack absorbs clock skew.
	maxExpiry = 24*time.Hour + 5*time.Minute
)

// Sentinel errors of SendCall; match them with errors.Is.
var (
	// ErrTxIDMismatch: the node's txID is not sha256 of its raw_data_hex.
	ErrTxIDMismatch = errors.New("tron: node returned a txID that is not sha256(raw_data)")
	// ErrTxMismatch: the transaction the node built is not the requested call.
	ErrTxMismatch = errors.New("tron: node built a transaction that differs from the request")
	// ErrFeeLimit: the estimated energy cost exceeds the fee limit.
	ErrFeeLimit = errors.New("tron: estimated fee exceeds the fee limit")
	// ErrInsufficientTRX: the sender cannot pay the estimated fee.
	ErrInsufficientTRX = errors.New("tron: sender's TRX balance cannot pay the fee")
	// ErrReverted: a call reverted (in the pre-flight estimate or a view call).
	ErrReverted = errors.New("tron: contract call reverted")
	// ErrNoKey: SendCall on a client built without a key.
	ErrNoKey = errors.New("tron: client has no sending key")
)

// transferTopic is keccak256("Transfer(address,address,uint256)").
var transferTopic = [32]byte(crypto.Keccak256([]byte("Transfer(address,address,uint256)")))

// Config configures a Client.
type Config struct {
	// URLs are full-node HTTP API base URLs (without /wallet), tried in
	// order; a failing node passes the request to the next one.
	URLs []string
	// APIKey is sent as TRON-PRO-API-KEY, as TronGrid and similar hosts want.
	APIKey string
	// Key signs SendCall transactions; nil makes a read-only client.
	Key *ecdsa.PrivateKey
	// FeeLimit is fee_limit in sun for calls without their own limit.
	// Zero means DefaultFeeLimit.
	FeeLimit int64
	// Timeout bounds one HTTP request; zero means 10 s.
	Timeout time.Duration
	// Attempts is the number of tries of a request across the nodes; zero
	// means 3 per node.
	Attempts int
	// Backoff is the first pause between tries, doubled after each.
	Backoff time.Duration
	// GenesisBlockID is the id of the network's block 0; every node is
	// checked against it before its first use and refused when it
	// differs. Empty: not checked.
	GenesisBlockID string
	// HTTPClient overrides the default client.
	HTTPClient *http.Client
	// Clock checks the expiration a node puts on a transaction.
	Clock cashier.Clock
}

// Client is a cashier.ChainClient for TRON.
type Client struct {
	t        *transport
	key      *ecdsa.PrivateKey
	from     Address
	feeLimit int64
	clock    cashier.Clock

	mu          sync.Mutex
	prices      chainPrices
	pricesUntil time.Time
}

var _ cashier.ChainClient = (*Client)(nil)

// New returns a client for the nodes in cfg.
func New(cfg Config) (*Client, error) {
	if len(cfg.URLs) == 0 {
		return nil, errors.New("tron: no node URL")
	}
	urls := make([]string, len(cfg.URLs))
	for i, u := range cfg.URLs {
		if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
			return nil, fmt.Errorf("tron: node URL %q is not http(s)", u)
		}
		urls[i] = strings.TrimRight(u, "/")
	}
	ns := make([]*nodes.Node, len(urls))
	for i, u := range urls {
		ns[i] = nodes.For(cashier.ChainTRON, u)
	}
	c := &Client{
		t: &transport{
			genesis:  strings.ToLower(strings.TrimPrefix(cfg.GenesisBlockID, "0x")),
			urls:     urls,
			nodes:    ns,
			apiKey:   cfg.APIKey,
			client:   cfg.HTTPClient,
			timeout:  cfg.Timeout,
			attempts: cfg.Attempts,
			backoff:  cfg.Backoff,
		},
		key:      cfg.Key,
		feeLimit: cfg.FeeLimit,
		clock:    cfg.Clock,
	}
	if c.t.client == nil {
		c.t.client = &http.Client{}
	}
	if c.t.timeout <= 0 {
		c.t.timeout = defaultTimeout
	}
	if c.t.attempts <= 0 {
		c.t.attempts = 3 * len(urls)
	}
	if c.t.backoff <= 0 {
		c.t.backoff = defaultBackoff
	}
	if c.feeLimit == 0 {
		c.feeLimit = DefaultFeeLimit
	}
	if c.feeLimit < 0 || c.feeLimit > MaxFeeLimit {
		return nil, fmt.Errorf("tron: fee limit %d sun outside 0..%d", c.feeLimit, MaxFeeLimit)
	}
	if c.clock == nil {
		c.clock = cashier.SystemClock{}
	}
	if c.key != nil {
		c.from = KeyAddress(c.key)
	}
	return c, nil
}

func (c *Client) Chain() cashier.Chain { return cashier.ChainTRON }

// From is the sending account's address (zero for a read-only client).
func (c *Client) From() Address { return c.from }

func (c *Client) ValidateAddress(addr string) (string, error) { return ValidateAddress(addr) }

func (c *Client) Head(ctx context.Context) (cashier.BlockRef, error) {
	var b apiBlock
	if err := c.t.post(ctx, "/wallet/getnowblock", struct{}{}, &b); err != nil {
		return cashier.BlockRef{}, err
	}
	if b.BlockID == "" {
		return cashier.BlockRef{}, errors.New("tron: getnowblock returned no block")
	}
	return blockRef(&b), nil
}

func (c *Client) BlockByNumber(ctx context.Context, n uint64) (cashier.BlockRef, error) {
	var b *apiBlock
	err := c.untilCaughtUp(ctx, func() (err error) {
		b, err = c.block(ctx, n)
		return err
	})
	if err != nil {
		return cashier.BlockRef{}, err
	}
	return blockRef(b), nil
}

func (c *Client) block(ctx context.Context, n uint64) (*apiBlock, error) {
	var b apiBlock
	if err := c.t.post(ctx, "/wallet/getblockbynum", map[string]any{"num": n}, &b); err != nil {
		return nil, err
	}
	if b.BlockID == "" {
		return nil, fmt.Errorf("%w: block %d not found", ErrBehind, n)
	}
	if b.BlockHeader.RawData.Number != n {
		return nil, fmt.Errorf("tron: asked for block %d, node returned %d", n, b.BlockHeader.RawData.Number)
	}
	return &b, nil
}

func blockRef(b *apiBlock) cashier.BlockRef {
	return cashier.BlockRef{
		Number: b.BlockHeader.RawData.Number,
		Hash:   strings.ToLower(b.BlockID),
		Time:   time.UnixMilli(b.BlockHeader.RawData.Timestamp).UTC(),
	}
}

// constantCall runs a read-only call and returns its output.
func (c *Client) constantCall(ctx context.Context, owner, contract Address, data []byte, value int64) (*apiTxExtension, error) {
	req := map[string]any{
		"owner_address":    owner.Hex(),
		"contract_address": contract.Hex(),
		"data":             hex.EncodeToString(data),
		"visible":          false,
	}
	if value != 0 {
		req["call_value"] = value
	}
	var ext apiTxExtension
	if err := c.t.post(ctx, "/wallet/triggerconstantcontract", req, &ext); err != nil {
		return nil, err
	}
	if !ext.Result.Result {
		return nil, fmt.Errorf("tron: triggerconstantcontract: %s %s", ext.Result.Code, nodeMessage(ext.Result.Message))
	}
	// An execution failure keeps result.result=true and marks the
	// transaction instead.
	if tx := ext.Transaction; tx != nil && len(tx.Ret) > 0 && tx.Ret[0].Ret == "FAILED" {
		reason := nodeMessage(ext.Result.Message)
		if len(ext.ConstantResult) > 0 {
			reason += " " + revertReason(ext.ConstantResult[0])
		}
		return nil, fmt.Errorf("%w: %s", ErrReverted, strings.TrimSpace(reason))
	}
	return &ext, nil
}

// revertReason decodes Error(string) revert data, or returns the raw hex.
func revertReason(h string) string {
	b, err := hex.DecodeString(h)
	if err != nil || len(b) < 4+64 || hex.EncodeToString(b[:4]) != "08c379a0" {
		if h == "" {
			return ""
		}
		return "data 0x" + h
	}
	// The length comes from the contract: compare it with what is there
	// rather than add to it, which a huge value would overflow.
	n := new(big.Int).SetBytes(b[4+32 : 4+64])
	if !n.IsInt64() || n.Int64() > int64(len(b)-(4+64)) {
		return "data 0x" + h
	}
	return fmt.Sprintf("%q", b[4+64:4+64+n.Int64()])
}

func (c *Client) viewUint(ctx context.Context, token string, owner Address, data []byte) (*big.Int, error) {
	t, err := ParseAddress(token)
	if err != nil {
		return nil, err
	}
	ext, err := c.constantCall(ctx, owner, t, data, 0)
	if err != nil {
		return nil, err
	}
	if len(ext.ConstantResult) == 0 {
		return nil, errors.New("tron: view call returned no result")
	}
	out, err := hex.DecodeString(ext.ConstantResult[0])
	if err != nil || len(out) != 32 {
		return nil, fmt.Errorf("tron: view call returned %q, want one uint256", ext.ConstantResult[0])
	}
	return new(big.Int).SetBytes(out), nil
}

func (c *Client) TokenBalance(ctx context.Context, token, owner string) (*big.Int, error) {
	o, err := ParseAddress(owner)
	if err != nil {
		return nil, err
	}
	return c.viewUint(ctx, token, o, abiCall("balanceOf(address)", o))
}

func (c *Client) Allowance(ctx context.Context, token, owner, spender string) (*big.Int, error) {
	o, err := ParseAddress(owner)
	if err != nil {
		return nil, err
	}
	s, err := ParseAddress(spender)
	if err != nil {
		return nil, err
	}
	return c.viewUint(ctx, token, o, abiCall("allowance(address,address)", o, s))
}

// abiCall encodes a call whose arguments are all addresses.
func abiCall(sig string, args ...Address) []byte {
	b := crypto.Keccak256([]byte(sig))[:4]
	for _, a := range args {
		b = append(b, make([]byte, 12)...)
		b = append(b, a[:]...)
	}
	return b
}

// TransferLogs scans the transaction infos of each block in [from, toBlock]
// for successful Transfer events of token to a watched address. Log
// indexes count within the transaction, as TRON has no block-wide index.
func (c *Client) TransferLogs(ctx context.Context, token string, to []string, from, toBlock uint64) ([]cashier.Transfer, error) {
	tk, err := ParseAddress(token)
	if err != nil {
		return nil, err
	}
	watched, err := addressSet(to)
	if err != nil {
		return nil, err
	}
	var out []cashier.Transfer
	if from > toBlock || len(watched) == 0 {
		return nil, nil
	}
	tokens := map[Address]bool{tk: true}
	for n := from; ; n++ {
		hits, err := c.blockTransfers(ctx, n, tokens, watched)
		if err != nil {
			return nil, err
		}
		out = append(out, hits...)
		if n == toBlock { // not n <= toBlock: n++ would wrap at the top of uint64
			break
		}
	}
	return out, nil
}

// blockTransfers returns the watched transfers of block n.
func (c *Client) blockTransfers(ctx context.Context, n uint64, tokens, watched map[Address]bool) ([]cashier.Transfer, error) {
	var hits []cashier.Transfer
	err := c.tokenLogs(ctx, transferTopic, tokens, n, n, func(e tokenLog) {
		if watched[e.b] {
			hits = append(hits, e.transfer())
		}
	})
	if err != nil {
		return nil, err
	}
	return hits, nil
}

// ErrBehind reports a node that answered as if a block it was asked about
// did not exist yet: a lagging node (often one of several behind a
// provider's load balancer) answers a block past its head with {} and its
// transaction infos with []. Such an answer is never read as an empty
// block; the request is retried, and failing that the caller's round is.
var ErrBehind = errors.New("tron: node is behind the block asked for")

// blockWithInfos reads block n and its transaction infos and checks that
// they agree: one info per transaction, the same ids. An info list that
// lacks transactions the block has came from a node behind the block, so
// the pair is read again (after a pause, on the next node) rather than
// taken as a block without payments.
func (c *Client) blockWithInfos(ctx context.Context, n uint64) (b *apiBlock, infos []apiTxInfo, err error) {
	err = c.untilCaughtUp(ctx, func() error {
		if b, err = c.block(ctx, n); err != nil {
			return err
		}
		if infos, err = c.blockInfos(ctx, n); err != nil {
			return err
		}
		return sameTransactions(n, b, infos)
	})
	return b, infos, err
}

// untilCaughtUp runs f again, after a growing pause, while it fails with
// ErrBehind: the next request may reach a node that has the block.
func (c *Client) untilCaughtUp(ctx context.Context, f func() error) error {
	delay := c.t.backoff
	var err error
	for attempt := 0; attempt < c.t.attempts; attempt++ {
		if attempt > 0 {
			if werr := sleepCtx(ctx, delay); werr != nil {
				return errors.Join(werr, err)
			}
			delay = min(2*delay, maxBackoff)
		}
		if err = f(); !errors.Is(err, ErrBehind) {
			return err
		}
	}
	return err
}

// sameTransactions checks that infos are those of b's transactions.
func sameTransactions(n uint64, b *apiBlock, infos []apiTxInfo) error {
	if n == 0 {
		return nil // the genesis block's transactions have no infos
	}
	if len(infos) != len(b.Transactions) {
		return fmt.Errorf("%w: block %d has %d transactions, the node gave %d transaction infos", ErrBehind, n, len(b.Transactions), len(infos))
	}
	ids := make(map[string]bool, len(b.Transactions))
	for _, t := range b.Transactions {
		ids[strings.ToLower(t.TxID)] = true
	}
	for _, i := range infos {
		if !ids[strings.ToLower(i.ID)] {
			return fmt.Errorf("%w: transaction info %s is not of block %d %s", ErrBehind, i.ID, n, b.BlockID)
		}
	}
	return nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (c *Client) blockInfos(ctx context.Context, n uint64) ([]apiTxInfo, error) {
	var raw json.RawMessage
	if err := c.t.post(ctx, "/wallet/gettransactioninfobyblocknum", map[string]any{"num": n}, &raw); err != nil {
		return nil, err
	}
	// An empty block is [], block 0 is {} (and so is a block past a
	// lagging node's head: blockWithInfos tells them apart).
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] == '{' || string(t) == "null" {
		return nil, nil
	}
	var infos []apiTxInfo
	if err := json.Unmarshal(raw, &infos); err != nil {
		return nil, fmt.Errorf("tron: transaction infos of block %d: %w", n, err)
	}
	for _, i := range infos {
		if i.BlockNumber != n {
			return nil, fmt.Errorf("tron: asked for infos of block %d, got one of block %d", n, i.BlockNumber)
		}
	}
	return infos, nil
}

// chainPrices are the network's resource prices in sun.
type chainPrices struct {
	energy    int64 // per energy unit (getEnergyFee)
	bandwidth int64 // per byte (getTransactionFee)
}

func (c *Client) chainPrices(ctx context.Context) (chainPrices, error) {
	c.mu.Lock()
	if c.clock.Now().Before(c.pricesUntil) {
		p := c.prices
		c.mu.Unlock()
		return p, nil
	}
	c.mu.Unlock()
	var resp apiChainParameters
	if err := c.t.post(ctx, "/wallet/getchainparameters", struct{}{}, &resp); err != nil {
		return chainPrices{}, err
	}
	var p chainPrices
	for _, kv := range resp.ChainParameter {
		switch kv.Key {
		case "getEnergyFee":
			p.energy = kv.Value
		case "getTransactionFee":
			p.bandwidth = kv.Value
		}
	}
	if p.energy <= 0 || p.bandwidth <= 0 {
		return chainPrices{}, errors.New("tron: getchainparameters lacks getEnergyFee or getTransactionFee")
	}
	c.mu.Lock()
	c.prices, c.pricesUntil = p, c.clock.Now().Add(10*time.Minute)
	c.mu.Unlock()
	return p, nil
}

// SendCall estimates the call's energy, checks that the sender can pay for
// it within the fee limit, has the node build the transaction, verifies
// what was built, signs it and broadcasts it. A nonzero call.GasLimit is
// an energy limit: fee_limit becomes GasLimit times the energy price.
func (c *Client) SendCall(ctx context.Context, call cashier.Call) (string, error) {
	s, err := c.SignCall(ctx, call)
	if err != nil {
		return "", err
	}
	return c.Broadcast(ctx, s.Raw)
}

// SignCall does everything SendCall does short of broadcasting: the
// affordability pre-flight (a revert surfaces here), building, verifying
// and signing. A caller that must never sign a second transaction while
// the first could still land journals the result before Broadcast.
func (c *Client) SignCall(ctx context.Context, call cashier.Call) (*SignedTx, error) {
	if c.key == nil {
		return nil, ErrNoKey
	}
	to, err := ParseAddress(call.To)
	if err != nil {
		return nil, err
	}
	var value int64
	if call.Value != nil {
		if call.Value.Sign() < 0 || !call.Value.IsInt64() {
			return nil, fmt.Errorf("tron: call value %s sun out of range", call.Value)
		}
		value = call.Value.Int64()
	}
	prices, err := c.chainPrices(ctx)
	if err != nil {
		return nil, err
	}
	feeLimit := c.feeLimit
	if call.GasLimit > 0 {
		if call.GasLimit > uint64(MaxFeeLimit/prices.energy) {
			return nil, fmt.Errorf("tron: energy limit %d exceeds the network's fee limit cap", call.GasLimit)
		}
		feeLimit = int64(call.GasLimit) * prices.energy
	}
	want := TriggerCall{Owner: c.from, Contract: to, CallValue: value, Data: call.Data}
	if err := c.checkAffordable(ctx, &want, feeLimit, prices); err != nil {
		return nil, err
	}
	tx, err := c.build(ctx, &want, feeLimit)
	if err != nil {
		return nil, err
	}
	id, err := c.verify(tx, &want, feeLimit)
	if err != nil {
		return nil, err
	}
	sig, err := Sign(id, c.key)
	if err != nil {
		return nil, err
	}
	tx.Signature = []string{hex.EncodeToString(sig)}
	return signedTx(tx, id)
}

// checkAffordable refuses a call the sender cannot pay for: energy beyond
// the account's own is burned at the energy price and must fit in
// feeLimit, and that burn plus any bandwidth fee plus call value must fit
// in the TRX balance.
func (c *Client) checkAffordable(ctx context.Context, call *TriggerCall, feeLimit int64, prices chainPrices) error {
	var res apiAccountResource
	if err := c.t.post(ctx, "/wallet/getaccountresource", map[string]any{"address": call.Owner.Hex()}, &res); err != nil {
		return err
	}
	var acct apiAccount
	if err := c.t.post(ctx, "/wallet/getaccount", map[string]any{"address": call.Owner.Hex()}, &acct); err != nil {
		return err
	}
	if acct.Address == "" {
		return fmt.Errorf("%w: account %s does not exist on chain (never received TRX)", ErrInsufficientTRX, call.Owner)
	}
	ext, err := c.constantCall(ctx, call.Owner, call.Contract, call.Data, call.CallValue)
	if err != nil {
		return err
	}
	burnEnergy := max(0, ext.EnergyUsed-max(0, res.EnergyLimit-res.EnergyUsed))
	energyCost := burnEnergy * prices.energy
	if energyCost > feeLimit {
		return fmt.Errorf("%w: about %d energy to burn costs %d sun, fee limit is %d sun", ErrFeeLimit, burnEnergy, energyCost, feeLimit)
	}
	size := int64(len(NewTriggerRaw(call).Marshal())) + rawHeaderBytes + txOverheadBytes
	freeNet := max(0, res.FreeNetLimit-res.FreeNetUsed) + max(0, res.NetLimit-res.NetUsed)
	var netCost int64
	if freeNet < size {
		netCost = size * prices.bandwidth
	}
	if need := energyCost + netCost + call.CallValue; need > acct.Balance {
		return fmt.Errorf("%w: needs about %d sun (energy %d, bandwidth %d, value %d), balance is %d", ErrInsufficientTRX, need, energyCost, netCost, call.CallValue, acct.Balance)
	}
	return nil
}

func (c *Client) build(ctx context.Context, call *TriggerCall, feeLimit int64) (*apiTransaction, error) {
	req := map[string]any{
		"owner_address":    call.Owner.Hex(),
		"contract_address": call.Contract.Hex(),
		"data":             hex.EncodeToString(call.Data),
		"fee_limit":        feeLimit,
		"call_value":       call.CallValue,
		"visible":          false,
	}
	var ext apiTxExtension
	if err := c.t.post(ctx, "/wallet/triggersmartcontract", req, &ext); err != nil {
		return nil, err
	}
	if !ext.Result.Result || ext.Transaction == nil {
		return nil, fmt.Errorf("tron: triggersmartcontract: %s %s", ext.Result.Code, nodeMessage(ext.Result.Message))
	}
	return ext.Transaction, nil
}

// verify checks a node-built transaction before anything is signed: the id
// must be sha256 of raw_data_hex, raw_data_hex must encode exactly the
// requested call, and the raw_data JSON the node will re-encode on
// broadcast must say the same.
func (c *Client) verify(tx *apiTransaction, want *TriggerCall, feeLimit int64) ([32]byte, error) {
	raw, err := hex.DecodeString(tx.RawDataHex)
	if err != nil {
		return [32]byte{}, fmt.Errorf("%w: raw_data_hex is not hex", ErrTxMismatch)
	}
	id := sha256.Sum256(raw)
	if !strings.EqualFold(tx.TxID, hex.EncodeToString(id[:])) {
		return id, fmt.Errorf("%w: txID %s, sha256(raw_data_hex) %x", ErrTxIDMismatch, tx.TxID, id)
	}
	r, err := UnmarshalRawData(raw)
	if err != nil {
		return id, fmt.Errorf("%w: %v", ErrTxMismatch, err)
	}
	if r.Contract.Type != TriggerSmartContract || r.Contract.TypeURL != TriggerSmartContract.TypeURL() || r.Contract.PermissionID != 0 {
		return id, fmt.Errorf("%w: contract is %s (%s, permission %d)", ErrTxMismatch, r.Contract.Type, r.Contract.TypeURL, r.Contract.PermissionID)
	}
	got, err := UnmarshalTriggerCall(r.Contract.Value)
	if err != nil {
		return id, fmt.Errorf("%w: %v", ErrTxMismatch, err)
	}
	switch {
	case got.Owner != want.Owner:
		return id, fmt.Errorf("%w: owner %s", ErrTxMismatch, got.Owner)
	case got.Contract != want.Contract:
		return id, fmt.Errorf("%w: contract %s", ErrTxMismatch, got.Contract)
	case got.CallValue != want.CallValue:
		return id, fmt.Errorf("%w: call value %d", ErrTxMismatch, got.CallValue)
	case !bytes.Equal(got.Data, want.Data):
		return id, fmt.Errorf("%w: call data differs", ErrTxMismatch)
	case r.FeeLimit != feeLimit:
		return id, fmt.Errorf("%w: fee_limit %d, asked %d", ErrTxMismatch, r.FeeLimit, feeLimit)
	case len(r.Data) != 0:
		return id, fmt.Errorf("%w: unexpected memo", ErrTxMismatch)
	case len(r.RefBlockBytes) != 2 || len(r.RefBlockHash) != 8:
		return id, fmt.Errorf("%w: malformed reference block", ErrTxMismatch)
	}
	now := c.clock.Now().UnixMilli()
	if r.Expiration <= r.Timestamp || r.Expiration > now+maxExpiry.Milliseconds() {
		return id, fmt.Errorf("%w: expiration %d out of range (timestamp %d, now %d)", ErrTxMismatch, r.Expiration, r.Timestamp, now)
	}
	if err := sameAsJSON(tx.RawData, r, got); err != nil {
		return id, fmt.Errorf("%w: raw_data JSON: %v", ErrTxMismatch, err)
	}
	return id, nil
}

func sameAsJSON(j json.RawMessage, r *RawData, call *TriggerCall) error {
	var d apiRawData
	if err := json.Unmarshal(j, &d); err != nil {
		return err
	}
	if len(d.Contract) != 1 {
		return fmt.Errorf("%d contracts", len(d.Contract))
	}
	v := d.Contract[0].Parameter.Value
	switch {
	case d.Contract[0].Type != r.Contract.Type.String() || d.Contract[0].Parameter.TypeURL != r.Contract.TypeURL:
		return errors.New("contract type differs")
	case !strings.EqualFold(v.OwnerAddress, call.Owner.Hex()) || !strings.EqualFold(v.ContractAddress, call.Contract.Hex()):
		return errors.New("addresses differ")
	case !strings.EqualFold(v.Data, hex.EncodeToString(call.Data)) || v.CallValue != call.CallValue:
		return errors.New("call differs")
	case d.FeeLimit != r.FeeLimit || d.Expiration != r.Expiration || d.Timestamp != r.Timestamp || d.Data != "":
		return errors.New("limits or times differ")
	case !strings.EqualFold(d.RefBlockBytes, hex.EncodeToString(r.RefBlockBytes)) || !strings.EqualFold(d.RefBlockHash, hex.EncodeToString(r.RefBlockHash)):
		return errors.New("reference block differs")
	}
	return nil
}

func (c *Client) broadcast(ctx context.Context, tx *apiTransaction) error {
	var res apiBroadcastResult
	if err := c.t.post(ctx, "/wallet/broadcasttransaction", tx, &res); err != nil {
		return err
	}
	// A retry after a lost answer meets its own first attempt.
	if res.Result || res.Code == "DUP_TRANSACTION_ERROR" {
		return nil
	}
	return fmt.Errorf("tron: broadcast %s refused: %s %s", tx.TxID, res.Code, nodeMessage(res.Message))
}

func (c *Client) Receipt(ctx context.Context, txHash string) (*cashier.Receipt, error) {
	h := strings.ToLower(strings.TrimPrefix(txHash, "0x"))
	if b, err := hex.DecodeString(h); err != nil || len(b) != 32 {
		return nil, fmt.Errorf("tron: %q is not a transaction id", txHash)
	}
	var info apiTxInfo
	if err := c.t.post(ctx, "/wallet/gettransactioninfobyid", map[string]any{"value": h}, &info); err != nil {
		return nil, err
	}
	if info.ID == "" {
		return nil, nil // not in a block yet
	}
	if !strings.EqualFold(info.ID, h) {
		return nil, fmt.Errorf("tron: asked for %s, node returned info of %s", h, info.ID)
	}
	b, err := c.block(ctx, info.BlockNumber)
	if err != nil {
		return nil, err
	}
	r := &cashier.Receipt{
		TxHash:      h,
		Success:     info.succeeded(),
		BlockNumber: info.BlockNumber,
		BlockHash:   strings.ToLower(b.BlockID),
		GasUsed:     uint64(max(0, info.Receipt.EnergyUsageTotal)),
		Fee:         big.NewInt(info.Fee),
	}
	for i, l := range info.Log {
		a, err := AddressFromLog(l.Address)
		if err != nil {
			return nil, fmt.Errorf("tron: receipt of %s: %w", h, err)
		}
		lg := cashier.Log{Address: a.String(), Index: uint(i)}
		for _, t := range l.Topics {
			tb, err := hex.DecodeString(t)
			if err != nil || len(tb) != 32 {
				return nil, fmt.Errorf("tron: receipt of %s: bad topic %q", h, t)
			}
			lg.Topics = append(lg.Topics, [32]byte(tb))
		}
		if lg.Data, err = hex.DecodeString(l.Data); err != nil {
			return nil, fmt.Errorf("tron: receipt of %s: bad log data", h)
		}
		r.Logs = append(r.Logs, lg)
	}
	return r, nil
}

// ViewUint calls a view function of contract returning one uint256 (or a
// bool); the contract itself is the caller, as a view needs one.
func (c *Client) ViewUint(ctx context.Context, contract string, data []byte) (*big.Int, error) {
	k, err := ParseAddress(contract)
	if err != nil {
		return nil, err
	}
	return c.viewUint(ctx, contract, k, data)
}

// Code returns the runtime code at addr (/wallet/getcontractinfo), empty
// when no contract is there.
func (c *Client) Code(ctx context.Context, addr string) ([]byte, error) {
	a, err := ParseAddress(addr)
	if err != nil {
		return nil, err
	}
	var info struct {
		RuntimeCode string `json:"runtimecode"`
	}
	if err := c.t.post(ctx, "/wallet/getcontractinfo", map[string]any{"value": a.Hex(), "visible": false}, &info); err != nil {
		return nil, err
	}
	code, err := hex.DecodeString(strings.TrimPrefix(info.RuntimeCode, "0x"))
	if err != nil {
		return nil, fmt.Errorf("tron: getcontractinfo of %s: runtime code is not hex", addr)
	}
	return code, nil
}

// CallView runs a read-only call of contract (the contract itself as the
// caller) and returns its raw output.
func (c *Client) CallView(ctx context.Context, contract string, data []byte) ([]byte, error) {
	k, err := ParseAddress(contract)
	if err != nil {
		return nil, err
	}
	ext, err := c.constantCall(ctx, k, k, data, 0)
	if err != nil {
		return nil, err
	}
	if len(ext.ConstantResult) == 0 {
		return nil, nil
	}
	return hex.DecodeString(ext.ConstantResult[0])
}

// CheckNodes compares every node's block 0 with the network's genesis at
// once and reports the nodes on another network (refused from then on)
// and the ones that could not be asked. The service runs it at start and
// for /readyz.
func (c *Client) CheckNodes(ctx context.Context) []nodes.Check {
	out := make([]nodes.Check, len(c.t.nodes))
	var wg sync.WaitGroup
	for i, n := range c.t.nodes {
		out[i].URL = n.Name()
		if c.t.genesis == "" {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := c.t.checkNode(ctx, i)
			if err != nil && !errors.Is(err, errWrongChain) {
				n.Failed(err)
			}
			out[i].Err = err
		}()
	}
	wg.Wait()
	return out
}

// AccountTransfers implements cashier.TransferHistory, block by block.
func (c *Client) AccountTransfers(ctx context.Context, token, account string, from, toBlock uint64) ([]cashier.Transfer, error) {
	tk, err := ParseAddress(token)
	if err != nil {
		return nil, err
	}
	acct, err := ParseAddress(account)
	if err != nil {
		return nil, err
	}
	var out []cashier.Transfer
	err = c.tokenLogs(ctx, transferTopic, map[Address]bool{tk: true}, from, toBlock, func(e tokenLog) {
		if e.a == acct || e.b == acct {
			out = append(out, e.transfer())
		}
	})
	return out, err
}

// Nodes reports the health of this client's node URLs (the service's
// network state and /readyz read it).
func (c *Client) Nodes() []nodes.State {
	now := time.Now()
	out := make([]nodes.State, len(c.t.nodes))
	for i, n := range c.t.nodes {
		out[i] = n.State(now)
	}
	return out
}
