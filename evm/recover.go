package evm

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/ethclient"
)

// Recover prepares the sender after a start: it checks that the nodes serve
// the configured chain, loads the journal, sets the next nonce to the larger
// of the journal's next nonce and the chain's pending nonce, and re-broadcasts
// the newest transaction of every unsettled send. Re-broadcasting is
// idempotent: a node that has the transaction already, or has mined it,
// changes nothing. SendCall calls Recover on first use.
func (c *Client) Recover(ctx context.Context) error {
	if !c.sending() {
		return ErrReadOnly
	}
	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	return c.recoverLocked(ctx)
}

func (c *Client) recoverLocked(ctx context.Context) error {
	var id *big.Int
	err := c.rpc.do(ctx, func(ctx context.Context, ec *ethclient.Client) (err error) {
		id, err = ec.ChainID(ctx)
		return err
	})
	if err != nil {
		return fmt.Errorf("evm: chain id: %w", err)
	}
	if id.Cmp(c.chainID) != 0 {
		return fmt.Errorf("evm: node serves chain %s, configured %s", id, c.chainID)
	}
	entries, err := c.cfg.Journal.Unsettled()
	if err != nil {
		return fmt.Errorf("evm: journal: %w", err)
	}
	jnext, err := c.cfg.Journal.NextNonce()
	if err != nil {
		return fmt.Errorf("evm: journal: %w", err)
	}
	pending, err := c.pendingNonce(ctx)
	if err != nil {
		return err
	}
	c.sends = map[string][]JournalEntry{}
	c.byHash = map[string]string{}
	c.settled = map[string]bool{}
	c.goneSince = map[string]time.Time{}
	for _, e := range entries {
		c.remember(e)
	}
	c.nextNonce = max(jnext, pending)
	for _, txs := range c.sends {
		// The newest transaction is the likeliest to be mined; any older one
		// the node still holds was replaced by it there already. A failure
		// here must not block new sends: Check broadcasts again, replaces
		// the transaction when it stays unmined, or finds it dropped.
		_ = c.broadcast(ctx, txs[len(txs)-1].Raw)
	}
	c.recovered = true
	return nil
}
