package app

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/devchain"
	"github.com/stablecashier/cashier/evm"
	"github.com/stablecashier/cashier/postgres/pgtest"
)

// contract deploy from the executor key on PostgreSQL uses the executor's
// own nonce journal (the store's, not a file) and its lease: while a
// serving instance holds the network's payout lease the deploy is refused
// and sends nothing; once the lease is free the deploy takes it, its
// transactions are in the store's journal (where the executor that takes
// the lease next reads its nonces from), and the lease is given back.
func TestDeployUsesTheExecutorsJournalAndLease(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	chain, err := devchain.Start(devchain.Options{ChainID: devchain.ChainIDETH})
	if err != nil {
		t.Fatal(err)
	}
	defer chain.Close()
	cfg := testConfig(t)
	cfg.DatabaseURL = pgtest.URL(t)
	cfg.SetNodeURLs(cashier.ChainETH, chain.URL)
	st, err := OpenStore(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	clock := cashier.SystemClock{}
	m, _ := NewMerchant("Shop", clock)
	exec, sweeper := newKey(t), newKey(t)
	if err := st.Update(ctx, func(tx cashier.Tx) error {
		if err := tx.CreateMerchant(ctx, m); err != nil {
			return err
		}
		for role, key := range map[cashier.KeyRole]*ecdsa.PrivateKey{cashier.KeyExecutor: exec, cashier.KeySweeper: sweeper} {
			k, err := NewServiceKey(cashier.ChainETH, role, key, clock)
			if err != nil {
				return err
			}
			if err := tx.PutServiceKey(ctx, k); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	execAddr := crypto.PubkeyToAddress(exec.PublicKey)
	if err := chain.Fund(ctx, execAddr, new(big.Int).Mul(big.NewInt(10), big.NewInt(params.Ether))); err != nil {
		t.Fatal(err)
	}
	reg := config.DefaultRegistry()
	for i := range reg.Networks {
		if reg.Networks[i].Chain == cashier.ChainETH {
			reg.Networks[i].EVMChainID, reg.Networks[i].Confirmations = int64(devchain.ChainIDETH), 1
		}
	}
	read, err := evm.New(evm.Config{Chain: cashier.ChainETH, ChainID: devchain.ChainIDETH, URLs: []string{chain.URL}})
	if err != nil {
		t.Fatal(err)
	}
	defer read.Close()
	chains := map[cashier.Chain]cashier.ChainClient{cashier.ChainETH: read}
	spec := DeploySpec{MerchantID: m.ID, Chain: "ETH", Owner: crypto.PubkeyToAddress(newKey(t).PublicKey).Hex(), Sandbox: true}
	nonce := func() uint64 {
		n, err := chain.Client.NonceAt(ctx, execAddr, nil)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}

	held, ok, err := st.AcquireLease(ctx, "payouts/ETH", "serving-instance", time.Now(), time.Minute)
	if err != nil || !ok {
		t.Fatalf("lease: %v %v", ok, err)
	}
	_, err = DeployContracts(ctx, st, ServiceKeys{Store: st}, cfg, reg, chains, spec, clock)
	if err == nil || !strings.Contains(err.Error(), "payouts/ETH") || !strings.Contains(err.Error(), "serving-instance") {
		t.Fatalf("deploy beside the serving executor: %v", err)
	}
	if n := nonce(); n != 0 {
		t.Fatalf("the refused deploy sent %d transactions", n)
	}
	if err := st.ReleaseLease(ctx, held); err != nil {
		t.Fatal(err)
	}

	res, err := DeployContracts(ctx, st, ServiceKeys{Store: st}, cfg, reg, chains, spec, clock)
	if err != nil || len(res.Transactions) != 2 || res.ContractID == "" {
		t.Fatalf("deploy: %+v %v", res, err)
	}
	next, err := st.NextJournalNonce(ctx, devchain.ChainIDETH, execAddr.Hex())
	if err != nil || next != 2 {
		t.Fatalf("the store's journal of the executor: next nonce %d, %v; want the deploy's two", next, err)
	}
	file := evm.FileJournalPath(filepath.Join(cfg.Data, "journal", "eth"), devchain.ChainIDETH, execAddr.Hex())
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Fatalf("the deploy kept a file journal of its own: %v", err)
	}
	if _, ok, err := st.AcquireLease(ctx, "payouts/ETH", "serving-instance", time.Now(), time.Minute); err != nil || !ok {
		t.Fatalf("the deploy kept the payout lease: %v %v", ok, err)
	}
}
