package app

import (
	"bytes"
	"context"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier"
)

func TestServiceKeysSettingAndStore(t *testing.T) {
	ctx := context.Background()
	cfg := testConfig(t)
	st, err := OpenStore(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := crypto.GenerateKey()
	given, _ := crypto.GenerateKey()
	k, err := NewServiceKey(cashier.ChainTRON, cashier.KeyExecutor, stored, cashier.SystemClock{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(k.Address, "T") {
		t.Fatalf("TRON key address %s", k.Address)
	}
	if err := st.Update(ctx, func(tx cashier.Tx) error { return tx.PutServiceKey(ctx, k) }); err != nil {
		t.Fatal(err)
	}
	st.Close()
	// Sealed at rest: the database file does not hold the key bytes.
	for _, name := range []string{"cashier.db", "cashier.db-wal"} {
		b, _ := os.ReadFile(filepath.Join(cfg.Data, name))
		if bytes.Contains(b, crypto.FromECDSA(stored)) {
			t.Fatalf("%s holds the private key in clear", name)
		}
	}
	if st, err = OpenStore(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	setting, err := ParseServiceKeys("ETH.signer=0x" + hex.EncodeToString(crypto.FromECDSA(given)) + ", TRON.executor=" + hex.EncodeToString(crypto.FromECDSA(given)))
	if err != nil {
		t.Fatal(err)
	}
	keys := ServiceKeys{Store: st, Setting: setting}
	got, err := keys.Key(ctx, cashier.ChainTRON, cashier.KeyExecutor)
	if err != nil || !got.Equal(given) {
		t.Fatalf("the setting must win over the store: %v", err)
	}
	keys.Setting = nil
	if got, err = keys.Key(ctx, cashier.ChainTRON, cashier.KeyExecutor); err != nil || !got.Equal(stored) {
		t.Fatalf("stored key: %v", err)
	}
	if _, err := keys.Key(ctx, cashier.ChainETH, cashier.KeySweeper); cashier.ErrorCode(err) != cashier.ENotFound {
		t.Fatalf("missing key: %v", err)
	}
	for _, bad := range []string{"ETH.signer", "SOL.signer=" + strings.Repeat("1", 64), "ETH.owner=" + strings.Repeat("1", 64),
		"ETH.signer=12", "ETH.signer=" + strings.Repeat("1", 64) + ",ETH.signer=" + strings.Repeat("2", 64)} {
		_, err := ParseServiceKeys(bad)
		if err == nil {
			t.Fatalf("%q accepted", bad)
		}
		if strings.Contains(err.Error(), strings.Repeat("1", 64)) {
			t.Fatalf("error shows the key: %v", err)
		}
	}
}
