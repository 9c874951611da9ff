package tron

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
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
