package tron

import (
	"context"
	"encoding/hex"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier"
)

// approvalTopic is keccak256("Approval(address,address,uint256)").
var approvalTopic = [32]byte(crypto.Keccak256([]byte("Approval(address,address,uint256)")))

// TokenApprovals returns the Approval events of the given TRC20 contracts
// in successful transactions of blocks [from, to] whose spender is one of
// spenders, in chain order: one gettransactioninfobyblocknum per block (the
// wallet API has no log filter). BlockHash is left empty like
// TokenTransfers'.
func (c *Client) TokenApprovals(ctx context.Context, tokens, spenders []string, from, to uint64) ([]cashier.Approval, error) {
	want := make(map[Address]bool, len(tokens))
	for _, s := range tokens {
		a, err := ParseAddress(s)
		if err != nil {
			return nil, err
		}
		want[a] = true
	}
	spend := make(map[Address]bool, len(spenders))
	for _, s := range spenders {
		a, err := ParseAddress(s)
		if err != nil {
			return nil, err
		}
		spend[a] = true
	}
	if from > to || len(want) == 0 || len(spend) == 0 {
		return nil, nil
	}
	var out []cashier.Approval
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
				a, ok := approvalOf(l, want, spend)
				if !ok {
					continue
				}
				a.TxHash = strings.ToLower(info.ID)
				a.LogIndex = uint(i)
				a.BlockNumber = n
				a.BlockTime = time.UnixMilli(info.BlockTimeStamp).UTC()
				out = append(out, a)
			}
		}
		if n == to { // not n <= to: n++ would wrap at the top of uint64
			break
		}
	}
	return out, nil
}

// approvalOf decodes l as an Approval of one of tokens to one of spenders.
func approvalOf(l apiLog, tokens, spenders map[Address]bool) (cashier.Approval, bool) {
	var a cashier.Approval
	token, err := AddressFromLog(l.Address)
	if err != nil || !tokens[token] || len(l.Topics) != 3 {
		return a, false
	}
	var topics [3][32]byte
	for i, h := range l.Topics {
		b, err := hex.DecodeString(h)
		if err != nil || len(b) != 32 {
			return a, false
		}
		topics[i] = [32]byte(b)
	}
	data, err := hex.DecodeString(l.Data)
	if topics[0] != approvalTopic || err != nil || len(data) != 32 {
		return a, false
	}
	spender := Address(topics[2][12:])
	if !spenders[spender] {
		return a, false
	}
	a.Chain = cashier.ChainTRON
	a.Token = token.String()
	a.Owner = Address(topics[1][12:]).String()
	a.Spender = spender.String()
	a.Value = new(big.Int).SetBytes(data)
	return a, true
}
