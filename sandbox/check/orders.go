package check

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/address"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/contracts/bindings"
)

// token is the ABI every sandbox test token shares.
var token = bindings.NewTestUSDC()

// collectionAmount is what the check's collection orders ask for.
const collectionAmount = "12.34"

// collection creates a USDT collection order on c, pays its deposit
// address from the customer wallet with a signed token transfer, and reads
// the payment back through the chain client interface the service uses.
func (r *run) collection(ctx context.Context, c cashier.Chain) error {
	n := r.nets[c]
	orderNo := orderNo("COL-" + string(c))
	if _, err := r.api.CreateCollection(ctx, client.CollectionRequest{CashierID: r.info.CashierID, OrderNo: orderNo,
		Amount: collectionAmount, Symbol: "USDT", ChainID: string(c)}); err != nil {
		return fmt.Errorf("create collection: %w", err)
	}
	d, err := r.api.CollectionDetail(ctx, orderNo)
	if err != nil {
		return fmt.Errorf("collection detail: %w", err)
	}
	if d.ChainID != string(c) || d.Status == "" {
		return fmt.Errorf("collection detail says chain %q status %q", d.ChainID, d.Status)
	}
	deposit, err := n.read.ValidateAddress(d.DepositAddress)
	if err != nil {
		return fmt.Errorf("deposit address %q: %w", d.DepositAddress, err)
	}
	amount, err := cashier.ParseAmount(d.Amount, Decimals)
	if err != nil {
		return fmt.Errorf("order amount %q: %w", d.Amount, err)
	}
	if want, _ := cashier.ParseAmount(collectionAmount, Decimals); amount.Cmp(want) != 0 {
		return fmt.Errorf("order amount %s, asked %s", d.Amount, collectionAmount)
	}
	tk, err := n.token("USDT")
	if err != nil {
		return err
	}
	depositEVM, err := address.Parse(n.chain, deposit)
	if err != nil {
		return err
	}
	customer := r.info.Wallets["customer"]
	rc, err := n.send(ctx, customer, cashier.Call{To: tk, Data: token.PackTransfer(depositEVM, amount)})
	if err != nil {
		return fmt.Errorf("pay the deposit address: %w", err)
	}
	if !rc.Success {
		return fmt.Errorf("payment %s failed on chain", rc.TxHash)
	}

	got, err := n.read.TransferLogs(ctx, tk, []string{deposit}, rc.BlockNumber, rc.BlockNumber)
	if err != nil {
		return fmt.Errorf("transfer logs: %w", err)
	}
	if len(got) != 1 {
		return fmt.Errorf("block %d has %d transfers to %s, want 1", rc.BlockNumber, len(got), deposit)
	}
	t := got[0]
	switch {
	case t.Chain != c || !sameAddress(t.Token, tk):
		return fmt.Errorf("transfer of %s on %s, want %s on %s", t.Token, t.Chain, tk, c)
	case !sameAddress(t.From, n.walletAddr(customer)):
		return fmt.Errorf("transfer from %s, want the customer %s", t.From, n.walletAddr(customer))
	case !sameAddress(t.To, deposit):
		return fmt.Errorf("transfer to %s, want %s", t.To, deposit)
	case t.Amount.Cmp(amount) != 0:
		return fmt.Errorf("transfer of %s base units, want %s", t.Amount, amount)
	case !sameHash(t.TxHash, rc.TxHash):
		return fmt.Errorf("transfer in %s, want %s", t.TxHash, rc.TxHash)
	case t.BlockNumber != rc.BlockNumber || !sameHash(t.BlockHash, rc.BlockHash):
		return fmt.Errorf("transfer in block %d %s, receipt says %d %s", t.BlockNumber, t.BlockHash, rc.BlockNumber, rc.BlockHash)
	}
	if err := n.expectBalance(ctx, tk, deposit, amount); err != nil {
		return err
	}
	r.rec.Collections = append(r.rec.Collections, Collection{Chain: string(c), OrderNo: orderNo, DepositAddress: d.DepositAddress, TxHash: rc.TxHash})
	return nil
}

// payoutOrders creates payout orders through the API: one per mode that
// the service accepts (and pays, unless held for review), and ones beyond
// what their source can supply: the contract's balance (000403), the
// wallet's balance (000307) and the wallet's allowance (000308).
func (r *run) payoutOrders(ctx context.Context) error {
	contract := r.info.ContractIDs[string(cashier.ChainETH)]
	allowance := r.info.Wallets["allowance"].EVMAddress
	customer := r.info.Wallets["customer"].EVMAddress
	var paid []string // accepted and not held for review
	for _, p := range []struct {
		what string
		req  client.PayoutRequest
		code string // "" accepted
	}{
		// Under the default review policy a balance-mode payout waits for
		// a person; the allowance-mode one is paid at once.
		{"balance mode", client.PayoutRequest{PayoutType: 1, Amount: "1.00"}, ""},
		{"allowance mode", client.PayoutRequest{PayoutType: 2, FromAddress: allowance, Amount: "1.50"}, ""},
		// The contract and the allowance wallet hold 100,000 of each token;
		// the customer holds more but approved nothing.
		{"balance mode beyond the contract balance", client.PayoutRequest{PayoutType: 1, Amount: "1000000.00"}, "000403"},
		{"allowance mode beyond the wallet's balance", client.PayoutRequest{PayoutType: 2, FromAddress: allowance, Amount: "1000000.00"}, "000307"},
		{"allowance mode beyond the wallet's allowance", client.PayoutRequest{PayoutType: 2, FromAddress: customer, Amount: "1.00"}, "000308"},
	} {
		req := p.req
		req.ContractID, req.OrderNo, req.Recipient, req.Symbol = contract, orderNo("PAY"), randomAddress().Hex(), "USDT"
		res, err := r.api.CreatePayout(ctx, req)
		switch {
		case p.code == "" && err != nil:
			return fmt.Errorf("%s: %w", p.what, err)
		case p.code == "" && res.Status != "PENDING":
			return fmt.Errorf("%s: status %s, want PENDING", p.what, res.Status)
		case p.code != "" && err == nil:
			return fmt.Errorf("%s: accepted (status %s), want code %s", p.what, res.Status, p.code)
		case p.code != "" && !client.IsCode(err, p.code):
			return fmt.Errorf("%s: %v, want code %s", p.what, err, p.code)
		}
		if p.code != "" {
			continue
		}
		d, err := r.api.PayoutDetail(ctx, req.OrderNo)
		if err != nil {
			return fmt.Errorf("%s: detail: %w", p.what, err)
		}
		if d.PayoutType != req.PayoutType || !sameAddress(d.Recipient, req.Recipient) || d.Amount != req.Amount {
			return fmt.Errorf("%s: detail %+v does not match the request", p.what, d)
		}
		if req.PayoutType == 2 {
			paid = append(paid, req.OrderNo)
		}
	}
	// The service pays the allowance-mode order in the background. Wait
	// for it: the checks after this one watch the fee address's balance,
	// which its fee moves.
	deadline := time.Now().Add(payoutWait)
	for _, no := range paid {
		for {
			d, err := r.api.PayoutDetail(ctx, no)
			if client.IsCode(err, "000429") { // the check's own reads count against the rate limit
				d, err = &client.Payout{Status: "waiting for the rate limit"}, nil
			}
			if err != nil {
				return fmt.Errorf("payout %s: detail: %w", no, err)
			}
			if d.Status == string(cashier.PayoutSuccess) {
				break
			}
			if d.Status == string(cashier.PayoutRefuse) || time.Now().After(deadline) {
				return fmt.Errorf("payout %s accepted but %s after %s", no, d.Status, payoutWait)
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Second):
			}
		}
	}
	return nil
}

// payoutWait bounds how long an accepted payout order may take to be paid.
const payoutWait = time.Minute

// orderNo is a fresh merchant order number, so the check can run again on
// the same sandbox.
func orderNo(prefix string) string {
	b := make([]byte, 6)
	rand.Read(b)
	return "CHK-" + prefix + "-" + hex.EncodeToString(b)
}

// randomAddress is a fresh address nobody has used.
func randomAddress() common.Address {
	var a common.Address
	rand.Read(a[:])
	return a
}

// sameHash compares transaction or block hashes as EVM (0x) and TRON
// (bare) clients write them.
func sameHash(a, b string) bool {
	return strings.EqualFold(strings.TrimPrefix(a, "0x"), strings.TrimPrefix(b, "0x"))
}
