package sandbox_test

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/client"
	"github.com/stablecashier/cashier/contracts/bindings"
	"github.com/stablecashier/cashier/payoutcontract"
	"github.com/stablecashier/cashier/sandbox"
	"github.com/stablecashier/cashier/tron"
)

// TestDepositAddressesAreSweepable: the deposit address the service gives a
// collection order, computed off chain, is exactly the address the
// merchant's deposit factory derives for the order, on every network; a
// payment sent there can be swept into the payout contract. If the two ever
// disagreed, customers' money would sit where nothing can move it.
func TestDepositAddressesAreSweepable(t *testing.T) {
	sb, _ := start(t, t.TempDir())
	ctx := t.Context()
	api := client.New(sb.Info.BaseURL, sb.Info.APIKey, sb.Info.SecretKey)
	factory, token := bindings.NewDepositFactory(), bindings.NewTestUSDC()
	customer := sb.Info.Wallets["customer"].MustKey()
	sweeper := sb.Info.Roles["sweeper"].MustKey()

	for _, chain := range []string{"ETH", "ARB", "TRON", "BSC"} {
		t.Run(chain, func(t *testing.T) {
			n := sb.Info.Networks[chain]
			created, err := api.CreateCollection(ctx, client.CollectionRequest{CashierID: sb.Info.CashierID, OrderNo: "DEP-" + chain,
				Amount: "12.34", Symbol: "USDT", ChainID: chain})
			if err != nil {
				t.Fatal(err)
			}
			order, err := api.CollectionDetail(ctx, created.OrderNo)
			if err != nil {
				t.Fatal(err)
			}
			salt := payoutcontract.DepositSalt(order.OrderID)
			amount, _ := cashier.ParseAmount("12.34", sandbox.TokenDecimals(cashier.Chain(chain)))

			c := onChain(t, sb, chain)
			onChainAddr := common.BytesToAddress(c.call(ctx, addr(t, chain, n.DepositFactory), factory.PackAddressOf(salt)))
			if got := format(chain, onChainAddr); got != order.DepositAddress {
				t.Fatalf("service deposit address %s, factory addressOf %s", order.DepositAddress, got)
			}

			tok := addr(t, chain, n.Tokens["USDT"])
			payout := addr(t, chain, n.PayoutContract)
			vaultBefore := c.balance(ctx, tok, payout)
			c.send(ctx, customer, tok, token.PackTransfer(onChainAddr, amount))
			if got := c.balance(ctx, tok, onChainAddr); got.Cmp(amount) != 0 {
				t.Fatalf("deposit address holds %s, want %s", got, amount)
			}
			c.send(ctx, sweeper, addr(t, chain, n.DepositFactory), factory.PackSweep(tok, [][32]byte{salt}))
			if got := c.balance(ctx, tok, onChainAddr); got.Sign() != 0 {
				t.Fatalf("deposit address still holds %s after the sweep", got)
			}
			if got := new(big.Int).Sub(c.balance(ctx, tok, payout), vaultBefore); got.Cmp(amount) != 0 {
				t.Fatalf("payout contract gained %s, want %s", got, amount)
			}
		})
	}
}

// chainOps is the little a test needs of a sandbox chain: read, and send
// as a key, returning once the effect is on chain.
type chainOps struct {
	call func(ctx context.Context, to common.Address, data []byte) []byte
	send func(ctx context.Context, from *ecdsa.PrivateKey, to common.Address, data []byte)
}

func (c chainOps) balance(ctx context.Context, tok, holder common.Address) *big.Int {
	return new(big.Int).SetBytes(c.call(ctx, tok, bindings.NewTestUSDC().PackBalanceOf(holder)))
}

func onChain(t *testing.T, sb *sandbox.Sandbox, chain string) chainOps {
	t.Helper()
	if chain == "TRON" {
		n := sb.TRON
		return chainOps{
			call: func(_ context.Context, to common.Address, data []byte) []byte {
				out, err := n.Call(tron.Address{}, tron.AddressFromEVM(to), data)
				if err != nil {
					t.Fatal(err)
				}
				return out
			},
			send: func(_ context.Context, from *ecdsa.PrivateKey, to common.Address, data []byte) {
				owner := tron.AddressFromEVM(crypto.PubkeyToAddress(from.PublicKey))
				if _, err := n.Exec(owner, tron.AddressFromEVM(to), data); err != nil {
					t.Fatal(err)
				}
				if _, err := n.ProduceBlock(); err != nil {
					t.Fatal(err)
				}
			},
		}
	}
	dc := sb.ETH
	switch chain {
	case "ARB":
		dc = sb.ARB
	case "BSC":
		dc = sb.BSC
	}
	return chainOps{
		call: func(ctx context.Context, to common.Address, data []byte) []byte {
			out, err := dc.Client.CallContract(ctx, ethereum.CallMsg{To: &to, Data: data}, nil)
			if err != nil {
				t.Fatal(err)
			}
			return out
		},
		send: func(ctx context.Context, from *ecdsa.PrivateKey, to common.Address, data []byte) {
			if _, err := dc.Transact(ctx, from, &to, nil, data, 0); err != nil {
				t.Fatal(err)
			}
		},
	}
}

// addr reads an address in the network's text form.
func addr(t *testing.T, chain, s string) common.Address {
	t.Helper()
	if chain == "TRON" {
		a, err := tron.ParseAddress(s)
		if err != nil {
			t.Fatal(err)
		}
		return a.EVM()
	}
	return common.HexToAddress(s)
}

// format writes an address in the network's text form.
func format(chain string, a common.Address) string {
	if chain == "TRON" {
		return tron.AddressFromEVM(a).String()
	}
	return a.Hex()
}
