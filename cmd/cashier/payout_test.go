package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/app"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/orders"
)

// The review commands on a data directory: list with filters, approve
// several, refuse with a reason (funds unlocked, webhook queued), and
// clear errors that change nothing.
func TestPayoutReviewCommands(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	env := map[string]string{"CASHIER_DATA": data, "CASHIER_MODE": "sandbox"}
	getenv := func(k string) string { return env[k] }
	runOut := func(args ...string) (string, error) {
		var out, errOut bytes.Buffer
		err := run(ctx, args, getenv, &out, &errOut)
		return out.String(), err
	}
	must := func(args ...string) map[string]any {
		t.Helper()
		out, err := runOut(args...)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("%q printed %q", args, out)
		}
		return m
	}
	m := must("merchant", "create", "--name", "Shop")["merchantId"].(string)
	must("cashier", "create", "--merchant", m, "--webhook-url", "http://127.0.0.1:9/hook")
	k := registerUnchecked(t, data, m, "ETH", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "", "")

	// Three held balance-mode orders, stored with their locks as creation does.
	cfg := config.Default()
	cfg.Data = data
	st, err := app.OpenStore(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	contract, _ := st.Contract(ctx, k)
	err = st.Update(ctx, func(tx cashier.Tx) error {
		for _, no := range []string{"A", "B", "C"} {
			o := &cashier.PayoutOrder{ID: orders.NewID("po_"), MerchantID: m, ContractID: k, OrderNo: no, Chain: cashier.ChainETH,
				Recipient: "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", Symbol: "USDT", Decimals: 6, Amount: big.NewInt(5_000_000),
				Fee: big.NewInt(1_000_000), PayoutType: cashier.PayoutBalance, Status: cashier.PayoutPending, NeedsReview: true, CreatedAt: time.Now()}
			if err := tx.CreatePayout(ctx, o); err != nil {
				return err
			}
			for _, p := range orders.PoolKeys(o, contract) {
				if err := tx.AddPoolLock(ctx, p, big.NewInt(6_000_000)); err != nil {
					return err
				}
			}
			ids = append(ids, o.ID)
		}
		return nil
	})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}

	if l := must("payout", "list", "--status", "pending", "--merchant", m, "--chain", "ETH"); l["total"].(float64) != 3 {
		t.Fatalf("list: %v", l)
	}
	if l := must("payout", "list", "--chain", "TRON"); l["total"].(float64) != 0 {
		t.Fatalf("list on TRON: %v", l)
	}
	for _, bad := range [][]string{
		{"payout", "list", "--status", "DONE"},
		{"payout", "list", "--chain", "SOL"},
		{"payout", "approve"},
		{"payout", "refuse", "--id", ids[2]},
		{"payout", "refuse", "--id", ids[2], "--id", ids[1], "--reason", "x"},
		{"payout", "refuse", "--id", "po_nobody", "--reason", "x"},
	} {
		if out, err := runOut(bad...); err == nil {
			t.Fatalf("%q succeeded: %s", bad, out)
		}
	}
	a := must("payout", "approve", "--id", ids[0], "--id", ids[1])
	if a["approved"].(float64) != 2 {
		t.Fatalf("approve: %v", a)
	}
	// Approving again fails for that id, and says so in JSON and exit status.
	out, err := runOut("payout", "approve", "--id", ids[0])
	if err == nil || !strings.Contains(out, "not waiting for review") {
		t.Fatalf("second approve: %v %s", err, out)
	}
	r := must("payout", "refuse", "--id", ids[2], "--reason", "recipient failed KYC")
	if r["status"] != "REFUSE" || r["failReason"] != "recipient failed KYC" {
		t.Fatalf("refuse: %v", r)
	}

	st, err = app.OpenStore(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	locked, _ := st.PoolLocked(ctx, "contract/ETH/0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed/USDT", 0)
	if locked.Cmp(big.NewInt(12_000_000)) != 0 {
		t.Fatalf("after refusing one of three 6-token orders %s is locked, want 12000000", locked)
	}
	evs, err := st.Events(ctx, cashier.EventFilter{OrderID: ids[2]})
	if err != nil || len(evs) != 1 || evs[0].Status != "REFUSE" || !bytes.Contains(evs[0].Body, []byte("REFUSE")) {
		t.Fatalf("refuse webhook: %+v %v", evs, err)
	}
}
