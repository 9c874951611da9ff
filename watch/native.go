package watch

import (
	"context"
	"fmt"
	"sort"

	"github.com/stablecashier/cashier"
)

// NativeScanner is the optional native-coin access of a Scanner: the ETH or
// TRX that transactions of blocks [from, to] sent to the addresses keep
// accepts (evm.Client and tron.Client provide it).
type NativeScanner interface {
	NativeTransfers(ctx context.Context, from, to uint64, keep func(addrs []string) (map[string]bool, error)) ([]cashier.Transfer, error)
}

// nativeTransfers returns the native-coin transfers of blocks [from, to]
// to deposit addresses, when the watcher looks for them. The recipients
// are matched with the same (chain, address) index as token transfers, so
// the cost grows with blocks, not with open orders.
func (w *Watcher) nativeTransfers(ctx context.Context, from, to uint64) ([]cashier.Transfer, error) {
	ns, ok := w.chain.(NativeScanner)
	if !w.cfg.Native || !ok {
		return nil, nil
	}
	got, err := ns.NativeTransfers(ctx, from, to, func(addrs []string) (map[string]bool, error) {
		sort.Strings(addrs)
		byAddr, err := w.ordersByAddress(ctx, addrs)
		if err != nil {
			return nil, err
		}
		keep := make(map[string]bool, len(byAddr))
		for a := range byAddr {
			keep[a] = true
		}
		return keep, nil
	})
	if err != nil {
		return nil, fmt.Errorf("native transfers %d-%d: %w", from, to, err)
	}
	return got, nil
}
