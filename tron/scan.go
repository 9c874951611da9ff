package tron

import (
	"context"
	"encoding/hex"
	"math/big"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
)

// TokenTransfers returns every Transfer event of the given TRC20 contracts
// in successful transactions of blocks [from, to], whoever received it, in
// chain order. The wallet API has no log filter, so this is one
// gettransactioninfobyblocknum per block, whatever the number of addresses
// watched. BlockHash is left empty (one more call per block); the caller
// reads it for the blocks that matter.
func (c *Client) TokenTransfers(ctx context.Context, tokens []string, from, to uint64) ([]cashier.Transfer, error) {
	want := make(map[Address]bool, len(tokens))
	for _, s := range tokens {
		a, err := ParseAddress(s)
		if err != nil {
			return nil, err
		}
		want[a] = true
	}
	if from > to || len(want) == 0 {
		return nil, nil
	}
	var out []cashier.Transfer
	for n := from; ; n++ {
		infos, err := c.blockInfos(ctx, n)
		if err != nil {
			return nil, err
		}
		for _, info := range infos {
			if !info.succeeded() {
				continue
			}
			for i, l := range info.Log {
				tr, ok := anyTransfer(l, want)
				if !ok {
					continue
				}
				tr.TxHash = strings.ToLower(info.ID)
				tr.LogIndex = uint(i)
				tr.BlockNumber = n
				tr.BlockTime = time.UnixMilli(info.BlockTimeStamp).UTC()
				out = append(out, tr)
			}
		}
		if n == to { // not n <= to: n++ would wrap at the top of uint64
			break
		}
	}
	return out, nil
}

// anyTransfer decodes l as a Transfer of one of tokens, to anyone.
func anyTransfer(l apiLog, tokens map[Address]bool) (cashier.Transfer, bool) {
	var tr cashier.Transfer
	token, err := AddressFromLog(l.Address)
	if err != nil || !tokens[token] || len(l.Topics) != 3 {
		return tr, false
	}
	var topics [3][32]byte
	for i, h := range l.Topics {
		b, err := hex.DecodeString(h)
		if err != nil || len(b) != 32 {
			return tr, false
		}
		topics[i] = [32]byte(b)
	}
	data, err := hex.DecodeString(l.Data)
	if topics[0] != transferTopic || err != nil || len(data) != 32 {
		return tr, false
	}
	tr.Chain = cashier.ChainTRON
	tr.Token = token.String()
	tr.From = Address(topics[1][12:]).String()
	tr.To = Address(topics[2][12:]).String()
	tr.Amount = new(big.Int).SetBytes(data)
	return tr, true
}
