package evm

import (
	"context"
	"strings"

	cashier "github.com/stablecashier/cashier"
)

// BlockReader is the part of a chain client reorg detection needs; every
// cashier.ChainClient has it.
type BlockReader interface {
	Head(ctx context.Context) (cashier.BlockRef, error)
	BlockByNumber(ctx context.Context, n uint64) (cashier.BlockRef, error)
}

// NonCanonical returns the recorded blocks that are no longer on the
// canonical chain: the chain now has another block at their height, or its
// head is below them (it was rewound). Callers record (height, hash) of the
// blocks whose transfers they credited and re-check them until they are
// deep enough to be final; each block reported here means the transfers
// seen in it must be looked for again.
func NonCanonical(ctx context.Context, chain BlockReader, recorded []cashier.BlockRef) ([]cashier.BlockRef, error) {
	if len(recorded) == 0 {
		return nil, nil
	}
	head, err := chain.Head(ctx)
	if err != nil {
		return nil, err
	}
	now := map[uint64]string{}
	var gone []cashier.BlockRef
	for _, r := range recorded {
		if r.Number > head.Number {
			gone = append(gone, r)
			continue
		}
		h, ok := now[r.Number]
		if !ok {
			b, err := chain.BlockByNumber(ctx, r.Number)
			if err != nil {
				return nil, err
			}
			h = b.Hash
			now[r.Number] = h
		}
		if !strings.EqualFold(h, r.Hash) {
			gone = append(gone, r)
		}
	}
	return gone, nil
}
