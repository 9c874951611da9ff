package payoutcontract_test

import (
	"fmt"
	"testing"

	"github.com/stablecashier/cashier/payoutcontract"
)

// BenchmarkPayoutGas measures the gas of payout batches to fresh holders
// (every recipient's balance slot goes from zero to non-zero, the dearer
// case) next to a plain token transfer to a fresh holder. The chain runs
// Osaka rules (see releasedForkConfig). Wall time is meaningless here; the
// metrics are gas/op and gas/recipient.
func BenchmarkPayoutGas(b *testing.B) {
	b.Run("plain-transfer/TestUSDC", func(b *testing.B) {
		c := newChain(b)
		token := c.tokens["TestUSDC"]
		c.mint(token, c.holder.addr, units(1_000_000_000))
		var gas uint64
		for i := 0; i < b.N; i++ {
			rcpt := c.mustSend(c.holder, token, usdcABI.PackTransfer(newAccount(b).addr, units(1)))
			gas += rcpt.GasUsed
		}
		b.ReportMetric(float64(gas)/float64(b.N), "gas/op")
		b.ReportMetric(float64(gas)/float64(b.N), "gas/recipient")
	})
	for _, kind := range []string{"TestUSDC", "TestTronUSDT"} {
		for _, mode := range []payoutcontract.Mode{payoutcontract.ModeBalance, payoutcontract.ModeAllowance} {
			for _, n := range []int{1, 10, 100} {
				name := fmt.Sprintf("%s/%s/%d", map[payoutcontract.Mode]string{1: "balance", 2: "allowance"}[mode], kind, n)
				b.Run(name, func(b *testing.B) { benchPayout(b, kind, mode, n) })
			}
		}
	}
}

func benchPayout(b *testing.B, kind string, mode payoutcontract.Mode, n int) {
	c := newChain(b)
	token := c.tokens[kind]
	// Large enough for any b.N; the fee address already holds tokens so the
	// fee transfer costs the same in every iteration.
	supply := units(1_000_000_000)
	c.mint(token, c.payout, supply)
	c.mint(token, c.holder.addr, supply)
	c.mint(token, c.fee.addr, units(1))
	// A finite allowance, so every transferFrom pays for updating it, as
	// with the real stablecoins.
	c.approve(c.holder, token, c.payout, supply)

	var gas uint64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		batch := c.batch(token, n)
		var data []byte
		if mode == payoutcontract.ModeBalance {
			data = c.balanceCall(payoutcontract.BalancePayout{Batch: batch}, c.signer.key)
		} else {
			data = c.allowanceCall(payoutcontract.AllowancePayout{Batch: batch, From: c.holder.addr}, c.signer.key)
		}
		b.StartTimer()
		gas += c.mustSend(c.executor, c.payout, data).GasUsed
	}
	perOp := float64(gas) / float64(b.N)
	b.ReportMetric(perOp, "gas/op")
	b.ReportMetric(perOp/float64(n), "gas/recipient")
}
