package tron_test

import (
	"strings"
	"testing"

	"github.com/stablecashier/cashier/tron"
)

// TRX sent with SendTRX (createtransaction, verified, signed, broadcast)
// moves the coin, creates the recipient's account for 1 TRX, survives a
// restart of the node (journal), and NativeTransfers finds it in its block
// for the addresses kept, and only those.
func TestSendTRXAndNativeTransfers(t *testing.T) {
	dir := t.TempDir()
	c := newChain(t, dir, nil)
	c.setup(1)
	cl := c.client(nil)
	to := c.recipient()
	senderBefore := c.node.Balance(tron.KeyAddress(c.sender))
	h, err := cl.SendTRX(ctx, to.String(), 7*trx)
	if err != nil {
		t.Fatal(err)
	}
	other := tron.KeyAddress(mustKey(t, "0000000000000000000000000000000000000000000000000000000000c0ffee"))
	if _, err := cl.SendTRX(ctx, other.String(), 2*trx); err != nil {
		t.Fatal(err)
	}
	n := c.produce()
	rc, err := cl.Receipt(ctx, h)
	if err != nil || rc == nil || !rc.Success {
		t.Fatalf("receipt %+v, %v", rc, err)
	}
	if got := c.node.Balance(to); got != 7*trx {
		t.Fatalf("recipient holds %d sun", got)
	}
	// 9 TRX sent, 2 accounts created; bandwidth came from the free allowance.
	if spent := senderBefore - c.node.Balance(tron.KeyAddress(c.sender)); spent != 11*trx {
		t.Fatalf("sender spent %d sun, want %d", spent, 11*trx)
	}

	var asked []string
	got, err := cl.NativeTransfers(ctx, n-1, n, func(addrs []string) (map[string]bool, error) {
		asked = addrs
		return map[string]bool{to.String(): true}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(asked) != 2 {
		t.Fatalf("keep was asked about %v", asked)
	}
	b, err := cl.BlockByNumber(ctx, n)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].TxHash != h || got[0].To != to.String() || got[0].From != tron.KeyAddress(c.sender).String() ||
		got[0].Amount.Int64() != 7*trx || got[0].Token != "" || got[0].BlockNumber != n || got[0].BlockHash != b.Hash || !got[0].BlockTime.Equal(b.Time) {
		t.Fatalf("native transfers %+v (block %+v)", got, b)
	}

	// Refused: to oneself, nothing, more than the balance.
	for _, bad := range []struct {
		to   string
		sun  int64
		want string
	}{
		{tron.KeyAddress(c.sender).String(), trx, "yourself"},
		{to.String(), 0, "above zero"},
		{to.String(), 1_000_000 * trx, "balance is not sufficient"},
	} {
		if _, err := cl.SendTRX(ctx, bad.to, bad.sun); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Fatalf("SendTRX(%s, %d): %v, want %q", bad.to, bad.sun, err, bad.want)
		}
	}

	// The journal replays transfers: same balances after a restart.
	c.close()
	c.open(dir, nil)
	if got := c.node.Balance(to); got != 7*trx {
		t.Fatalf("after restart the recipient holds %d sun", got)
	}
}
