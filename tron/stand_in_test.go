package tron_test

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/tron"
	"github.com/stablecashier/cashier/tronnode"
)

const trx = 1_000_000 // sun

var (
	usdt = bindings.NewTestTronUSDT()
	ctx  = context.Background()
)

// chain is a stand-in node behind a real HTTP server, with a TRON-USDT
// style token whose owner minted to the sender.
type chain struct {
	t      *testing.T
	clock  *cashier.ManualClock
	node   *tronnode.Node
	srv    *httptest.Server
	owner  tron.Address // token deployer
	sender *ecdsa.PrivateKey
	token  tron.Address
}

func mustKey(t *testing.T, hex string) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.HexToECDSA(hex)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

var (
	senderKeyHex = "0f1e2d3c4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff0"
	ownerKeyHex  = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
)

func newChain(t *testing.T, dir string, wrap func(http.Handler) http.Handler) *chain {
	t.Helper()
	c := &chain{
		t:      t,
		clock:  cashier.NewManualClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)),
		owner:  tron.KeyAddress(mustKey(t, ownerKeyHex)),
		sender: mustKey(t, senderKeyHex),
	}
	c.open(dir, wrap)
	return c
}

func (c *chain) open(dir string, wrap func(http.Handler) http.Handler) {
	node, err := tronnode.Open(tronnode.Options{Dir: dir, Clock: c.clock})
	if err != nil {
		c.t.Fatal(err)
	}
	c.node = node
	h := node.Handler()
	if wrap != nil {
		h = wrap(h)
	}
	c.srv = httptest.NewServer(h)
	c.t.Cleanup(c.close)
}

func (c *chain) close() {
	c.srv.Close()
	if err := c.node.Close(); err != nil {
		c.t.Error(err)
	}
}

// setup funds the sender, deploys the token and mints to the sender.
func (c *chain) setup(minted int64) {
	c.t.Helper()
	if err := c.node.Fund(tron.KeyAddress(c.sender), 1000*trx); err != nil {
		c.t.Fatal(err)
	}
	initCode := append(hexutil.MustDecode(bindings.TestTronUSDTMetaData.Bin), usdt.PackConstructor("Tether USD", "USDT")...)
	c.clock.Advance(3 * time.Second) // the block Deploy makes is due
	token, err := c.node.Deploy(c.owner, initCode, "TestTronUSDT")
	if err != nil {
		c.t.Fatal(err)
	}
	c.token = token
	c.exec(c.owner, usdt.PackMint(tron.KeyAddress(c.sender).EVM(), big.NewInt(minted)))
}

// exec runs a fee-less call from an account and mines it.
func (c *chain) exec(from tron.Address, data []byte) {
	c.t.Helper()
	if _, err := c.node.Exec(from, c.token, data); err != nil {
		c.t.Fatal(err)
	}
	c.produce()
}

func (c *chain) produce() uint64 {
	c.t.Helper()
	c.clock.Advance(3 * time.Second)
	n, err := c.node.ProduceBlock()
	if err != nil {
		c.t.Fatal(err)
	}
	return n
}

func (c *chain) client(mod func(*tron.Config)) *tron.Client {
	c.t.Helper()
	cfg := tron.Config{URLs: []string{c.srv.URL}, Key: c.sender, Clock: c.clock, Backoff: time.Millisecond}
	if mod != nil {
		mod(&cfg)
	}
	cl, err := tron.New(cfg)
	if err != nil {
		c.t.Fatal(err)
	}
	return cl
}

// recipient is an account that holds nothing until a test sends to it.
func (c *chain) recipient() tron.Address {
	return tron.KeyAddress(mustKey(c.t, "a11ce0000000000000000000000000000000000000000000000000000000b0b0"))
}
