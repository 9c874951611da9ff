package devchain

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
)

func start(t *testing.T, opts Options) *Chain {
	t.Helper()
	c, err := Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestStartFundAndRoundTrip(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	begin := time.Now()
	c := start(t, Options{ChainID: ChainIDARB})
	t.Logf("started in %v at %s", time.Since(begin), c.URL)

	id, err := c.Client.ChainID(ctx)
	if err != nil || id.Uint64() != ChainIDARB {
		t.Fatalf("chain id = %v, %v; want %d", id, err, ChainIDARB)
	}
	key, _ := crypto.GenerateKey()
	addr := crypto.PubkeyToAddress(key.PublicKey)
	const n = 20
	begin = time.Now()
	for i := 0; i < n; i++ {
		if err := c.Fund(ctx, addr, big.NewInt(params.Ether/1000)); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%v per funded transaction round trip", time.Since(begin)/n)
	bal, err := c.Client.BalanceAt(ctx, addr, nil)
	if err != nil || bal.Int64() != n*params.Ether/1000 {
		t.Fatalf("balance = %v, %v; want %d", bal, err, int64(n*params.Ether/1000))
	}
	// The funded key can spend at once.
	back := c.FaucetAddress()
	if _, err := c.Transact(ctx, key, &back, big.NewInt(1), nil, 0); err != nil {
		t.Fatal(err)
	}
}

func TestRulesAreOsaka(t *testing.T) {
	cfg := ChainConfig(ChainIDETH)
	if !cfg.IsOsaka(big.NewInt(1), 1) {
		t.Fatal("dev chain is not on Osaka")
	}
	if cfg.BogotaTime != nil || cfg.AmsterdamTime != nil {
		t.Fatal("dev chain enables a fork after Osaka")
	}
}

func TestPrefundedAlloc(t *testing.T) {
	ctx := context.Background()
	addr := common.HexToAddress("0x00000000000000000000000000000000000c0ffe")
	c := start(t, Options{Alloc: map[common.Address]*big.Int{addr: big.NewInt(12345)}})
	bal, err := c.Client.BalanceAt(ctx, addr, nil)
	if err != nil || bal.Int64() != 12345 {
		t.Fatalf("balance = %v, %v", bal, err)
	}
}

func TestDataDirSurvivesRestart(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir := t.TempDir()
	opts := Options{ChainID: ChainIDETH, DataDir: dir}
	c, err := Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	addr := common.HexToAddress("0x000000000000000000000000000000000000beef")
	if err := c.Fund(ctx, addr, big.NewInt(777)); err != nil {
		t.Fatal(err)
	}
	head, err := c.Client.BlockNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}

	c = start(t, opts)
	bal, err := c.Client.BalanceAt(ctx, addr, nil)
	if err != nil || bal.Int64() != 777 {
		t.Fatalf("balance after restart = %v, %v; want 777", bal, err)
	}
	again, err := c.Client.BlockNumber(ctx)
	if err != nil || again != head {
		t.Fatalf("head after restart = %d, %v; want %d", again, err, head)
	}
	// The faucet's nonce continues, so it can still send.
	if err := c.Fund(ctx, addr, big.NewInt(1)); err != nil {
		t.Fatal(err)
	}
}

func TestForkReorgsCanonicalChain(t *testing.T) {
	ctx := context.Background()
	c := start(t, Options{})
	parent := c.Commit()
	old := c.Commit()
	oldBlock, err := c.Client.HeaderByHash(ctx, old)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Fork(parent); err != nil {
		t.Fatal(err)
	}
	// An empty block at another timestamp differs from the old one; the
	// second makes the new branch the longer one.
	if err := c.AdjustTime(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	c.Commit()
	now, err := c.Client.HeaderByNumber(ctx, oldBlock.Number)
	if err != nil {
		t.Fatal(err)
	}
	if now.Hash() == old {
		t.Fatal("old block is still canonical after the fork")
	}
}

func TestPeriodProducesBlocks(t *testing.T) {
	ctx := context.Background()
	c := start(t, Options{Period: 50 * time.Millisecond})
	// No transactions are sent: only the period can make blocks. Poll
	// rather than sleep a fixed time, which a loaded machine can outlast.
	deadline := time.Now().Add(5 * time.Second)
	for {
		n, err := c.Client.BlockNumber(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("head = %d after 5 s; want blocks from the period", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestOnDemandWithPeriod mines a transaction at once although the period
// is far longer than the test may take.
func TestOnDemandWithPeriod(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := start(t, Options{Period: time.Hour, OnDemand: true})
	key, _ := crypto.GenerateKey()
	addr := crypto.PubkeyToAddress(key.PublicKey)
	if err := c.Fund(ctx, addr, big.NewInt(params.Ether)); err != nil {
		t.Fatalf("fund with an hour's period and on-demand blocks: %v", err)
	}
	if bal, err := c.Client.BalanceAt(ctx, addr, nil); err != nil || bal.Cmp(big.NewInt(params.Ether)) != 0 {
		t.Fatalf("balance = %v, %v; want 1 ether", bal, err)
	}
}

// The `finalized` block tag answers like a beacon chain's finality, in
// epochs of 32 blocks: the newest multiple of 32 at or below the head's
// epoch start (the head itself when it ends an epoch), the genesis before.
func TestFinalizedTagFollowsEpochs(t *testing.T) {
	ctx := context.Background()
	c := start(t, Options{})
	finalized := func() uint64 {
		h, err := c.Client.HeaderByNumber(ctx, big.NewInt(int64(rpc.FinalizedBlockNumber)))
		if err != nil {
			t.Fatal(err)
		}
		return h.Number.Uint64()
	}
	want := map[uint64]uint64{1: 0, 31: 0, 32: 32, 33: 32, 64: 64, 65: 64}
	for head := uint64(1); head <= 65; head++ {
		c.Commit()
		if w, ok := want[head]; ok {
			if f := finalized(); f != w {
				t.Fatalf("head %d: finalized %d, want %d", head, f, w)
			}
		}
	}
}

// With WallClock, blocks are stamped with the wall clock and never ahead
// of it, however fast they come: sends sealed at once and period ticks
// faster than a second. Each block's timestamp is at most the clock read
// just after it was sealed, and the timestamps still grow.
func TestWallClockBlocksNeverAhead(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := start(t, Options{Period: 100 * time.Millisecond, OnDemand: true, WallClock: true})
	key, _ := crypto.GenerateKey()
	addr := crypto.PubkeyToAddress(key.PublicKey)
	for i := 0; i < 3; i++ {
		if err := c.Fund(ctx, addr, big.NewInt(params.GWei)); err != nil {
			t.Fatal(err)
		}
		c.Commit()
		head, err := c.Client.HeaderByNumber(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if now := uint64(time.Now().Unix()); head.Time > now {
			t.Fatalf("block %d stamped %d, the clock says %d", head.Number, head.Time, now)
		}
	}
	head, err := c.Client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var prev uint64
	for n := uint64(1); n <= head.Number.Uint64(); n++ {
		h, err := c.Client.HeaderByNumber(ctx, new(big.Int).SetUint64(n))
		if err != nil {
			t.Fatal(err)
		}
		if h.Time <= prev {
			t.Fatalf("block %d stamped %d after %d", n, h.Time, prev)
		}
		prev = h.Time
	}
	if head.Number.Uint64() < 6 {
		t.Fatalf("only %d blocks: the sends and commits made too few to show anything", head.Number)
	}
}
