package dashboard_test

import (
	"context"
	"io"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/stablecashier/cashier"
)

// The overview lists the payout batches that were not sent and wait, with
// the reason their last attempt stored (a signer's refusal here): an
// operator sees every merchant's, a merchant's user only its own; a batch
// sent, or waiting without a reason, is not listed.
func TestOverviewListsBatchesNotSent(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	now := time.Now()
	k1, k2 := e.contractPair()
	const refused = "payout signer did not sign: clef: Request denied"
	exec := func(id string, k *cashier.Contract, nonce int64, state cashier.ExecState, lastError string) *cashier.PayoutExec {
		return &cashier.PayoutExec{ID: id, Chain: k.Chain, ContractID: k.ID, Contract: k.Address, Symbol: "USDT",
			Mode: cashier.PayoutBalance, Nonce: big.NewInt(nonce), State: state, LastError: lastError, CreatedAt: now, UpdatedAt: now}
	}
	err := e.svc.Store.Update(ctx, func(tx cashier.Tx) error {
		for _, k := range []*cashier.Contract{k1, k2} {
			if err := tx.CreateContract(ctx, k); err != nil {
				return err
			}
		}
		for _, x := range []*cashier.PayoutExec{
			exec("px_held1", k1, 1, cashier.ExecCreated, refused),
			exec("px_held2", k2, 1, cashier.ExecCreated, "not sent: gas estimate 900000 above the cap 800000"),
			exec("px_fresh", k1, 2, cashier.ExecCreated, ""),
			exec("px_sent", k1, 3, cashier.ExecSent, "an earlier attempt's error"),
		} {
			if err := tx.CreateExec(ctx, x); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	held := func(email string) map[string]string {
		t.Helper()
		var res struct {
			Data struct {
				HeldBatches []struct {
					ExecID, MerchantID, Reason, Contract string
				} `json:"heldBatches"`
			} `json:"data"`
		}
		if code := e.signIn(email).getJSON("/dashboard/api/overview", &res); code != 200 {
			t.Fatalf("overview as %s: %d", email, code)
		}
		got := map[string]string{}
		for _, h := range res.Data.HeldBatches {
			got[h.ExecID] = h.MerchantID + " " + h.Contract + " " + h.Reason
		}
		return got
	}
	all := held("ops@service.example")
	if len(all) != 2 || all["px_held1"] != e.m1.ID+" "+k1.Address+" "+refused || !strings.Contains(all["px_held2"], "above the cap") {
		t.Fatalf("operator sees %v", all)
	}
	if own := held("owner@one.example"); len(own) != 1 || own["px_held1"] == "" {
		t.Fatalf("merchant one's owner sees %v", own)
	}
	page, err := e.signIn("owner@one.example").c.Get(e.srv.URL + "/dashboard/")
	if err != nil {
		t.Fatal(err)
	}
	defer page.Body.Close()
	b, _ := io.ReadAll(page.Body)
	for _, want := range []string{"Payout batches not sent", "px_held1", "clef: Request denied"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("overview page lacks %q", want)
		}
	}
	if strings.Contains(string(b), "px_held2") {
		t.Error("merchant one's overview shows another merchant's batch")
	}
}
