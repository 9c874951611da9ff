// Package tokens deploys the real USDT and USDC contracts, unchanged, on a
// dev chain, for the tests that must meet the tokens' own rules: Tether's
// TetherToken (transfer fee, blacklist, pause, deprecation) compiled from
// its verified mainnet source with solc 0.4.18, and Circle's FiatTokenV2_2
// behind its FiatTokenProxy (blacklist, pause) as Circle's npm package
// ships them. The artifacts are in build/, made and checked by build.js and
// check.sh.
package tokens

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"sync"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
)

//go:embed build/*.json
var build embed.FS

type artifact struct {
	ABI            abi.ABI
	Bin            []byte
	Hex            string // the creation code as published, link placeholders in place
	LinkReferences map[string]map[string][]struct{ Start, Length int }
}

var (
	loadOnce sync.Once
	loaded   map[string]*artifact
	loadErr  error
)

func load(name string) *artifact {
	loadOnce.Do(func() {
		loaded = map[string]*artifact{}
		for _, n := range []string{"TetherToken", "FiatTokenV2_2", "FiatTokenProxy", "SignatureChecker"} {
			b, err := build.ReadFile("build/" + n + ".json")
			if err != nil {
				loadErr = err
				return
			}
			var raw struct {
				ABI            json.RawMessage `json:"abi"`
				Bin            string          `json:"bin"`
				LinkReferences map[string]map[string][]struct{ Start, Length int }
			}
			if err := json.Unmarshal(b, &raw); err != nil {
				loadErr = fmt.Errorf("tokens: %s: %w", n, err)
				return
			}
			a, err := abi.JSON(bytes.NewReader(raw.ABI))
			if err != nil {
				loadErr = fmt.Errorf("tokens: %s abi: %w", n, err)
				return
			}
			loaded[n] = &artifact{ABI: a, Bin: common.FromHex(raw.Bin), Hex: strings.TrimPrefix(raw.Bin, "0x"), LinkReferences: raw.LinkReferences}
		}
	})
	if loadErr != nil {
		panic(loadErr) // the artifacts are embedded: a broken one is a build error
	}
	return loaded[name]
}

// Chain is what deploying and driving the tokens needs of a dev chain;
// devchain.Chain has it.
type Chain interface {
	Deploy(ctx context.Context, key *ecdsa.PrivateKey, code []byte) (common.Address, error)
	Transact(ctx context.Context, key *ecdsa.PrivateKey, to *common.Address, value *big.Int, data []byte, gas uint64) (*types.Receipt, error)
}

// Token is a deployed real token and the key of its administrator (owner,
// pauser, blacklister and minter alike).
type Token struct {
	Address common.Address
	Admin   *ecdsa.PrivateKey
	abi     abi.ABI
	chain   Chain
	tether  bool
}

func (t *Token) call(ctx context.Context, method string, args ...any) error {
	data, err := t.abi.Pack(method, args...)
	if err != nil {
		return fmt.Errorf("tokens: %s: %w", method, err)
	}
	// A fixed gas limit: a call the token refuses is then mined and
	// reported as reverted instead of failing estimation.
	if _, err := t.chain.Transact(ctx, t.Admin, &t.Address, nil, data, 500_000); err != nil {
		return fmt.Errorf("tokens: %s: %w", method, err)
	}
	return nil
}

// Mint gives to amount base units: Tether issues to its owner and
// transfers (with its fee at zero then, or the recipient gets less);
// Circle mints to the recipient.
func (t *Token) Mint(ctx context.Context, to common.Address, amount *big.Int) error {
	if t.tether {
		if err := t.call(ctx, "issue", amount); err != nil {
			return err
		}
		return t.call(ctx, "transfer", to, amount)
	}
	return t.call(ctx, "mint", to, amount)
}

// Pause stops every transfer of the token; Unpause lets them go on.
func (t *Token) Pause(ctx context.Context) error   { return t.call(ctx, "pause") }
func (t *Token) Unpause(ctx context.Context) error { return t.call(ctx, "unpause") }

// Blacklist and Unblacklist put addr on and off the token's blacklist
// (Tether: addBlackList, which stops addr sending; Circle: blacklist,
// which stops addr sending and receiving).
func (t *Token) Blacklist(ctx context.Context, addr common.Address) error {
	if t.tether {
		return t.call(ctx, "addBlackList", addr)
	}
	return t.call(ctx, "blacklist", addr)
}

func (t *Token) Unblacklist(ctx context.Context, addr common.Address) error {
	if t.tether {
		return t.call(ctx, "removeBlackList", addr)
	}
	return t.call(ctx, "unBlacklist", addr)
}

// SetFee sets Tether's transfer fee: basisPoints of each transfer (below
// 20), at most maxFee whole tokens (below 50), as setParams allows.
func (t *Token) SetFee(ctx context.Context, basisPoints, maxFee int64) error {
	if !t.tether {
		return fmt.Errorf("tokens: USDC has no transfer fee")
	}
	return t.call(ctx, "setParams", big.NewInt(basisPoints), big.NewInt(maxFee))
}

// Deprecate points Tether's contract at an upgraded one, to which it then
// forwards every call.
func (t *Token) Deprecate(ctx context.Context, upgraded common.Address) error {
	if !t.tether {
		return fmt.Errorf("tokens: USDC upgrades through its proxy")
	}
	return t.call(ctx, "deprecate", upgraded)
}

// DeployTether deploys TetherToken as on Ethereum (name "Tether USD",
// symbol "USDT", 6 decimals) with admin as its owner and no supply yet.
func DeployTether(ctx context.Context, c Chain, admin *ecdsa.PrivateKey) (*Token, error) {
	a := load("TetherToken")
	args, err := a.ABI.Pack("", new(big.Int), "Tether USD", "USDT", big.NewInt(6))
	if err != nil {
		return nil, err
	}
	addr, err := c.Deploy(ctx, admin, append(bytes.Clone(a.Bin), args...))
	if err != nil {
		return nil, fmt.Errorf("tokens: deploy TetherToken: %w", err)
	}
	return &Token{Address: addr, Admin: admin, abi: a.ABI, chain: c, tether: true}, nil
}

// DeployUSDC deploys Circle's FiatTokenV2_2 (its SignatureChecker library
// linked in) behind a FiatTokenProxy administered by proxyAdmin, and
// initializes it as on mainnet (name "USD Coin", symbol "USDC", 6
// decimals, versions 1 to 2.2) with admin as owner, master minter, pauser
// and blacklister, and admin a minter. The proxy's admin cannot call the
// token through it, so the two keys must differ.
func DeployUSDC(ctx context.Context, c Chain, admin, proxyAdmin *ecdsa.PrivateKey) (*Token, error) {
	lib, err := c.Deploy(ctx, admin, load("SignatureChecker").Bin)
	if err != nil {
		return nil, fmt.Errorf("tokens: deploy SignatureChecker: %w", err)
	}
	impl := load("FiatTokenV2_2")
	// Offsets are in bytes; the placeholders are in the hex text.
	hexCode := []byte(impl.Hex)
	libHex := []byte(hex.EncodeToString(lib.Bytes()))
	for _, libs := range impl.LinkReferences {
		for _, refs := range libs {
			for _, r := range refs {
				copy(hexCode[2*r.Start:2*(r.Start+r.Length)], libHex)
			}
		}
	}
	code, err := hex.DecodeString(string(hexCode))
	if err != nil {
		return nil, fmt.Errorf("tokens: link FiatTokenV2_2: %w", err)
	}
	implAddr, err := c.Deploy(ctx, admin, code)
	if err != nil {
		return nil, fmt.Errorf("tokens: deploy FiatTokenV2_2: %w", err)
	}
	proxy := load("FiatTokenProxy")
	args, err := proxy.ABI.Pack("", implAddr)
	if err != nil {
		return nil, err
	}
	addr, err := c.Deploy(ctx, proxyAdmin, append(bytes.Clone(proxy.Bin), args...))
	if err != nil {
		return nil, fmt.Errorf("tokens: deploy FiatTokenProxy: %w", err)
	}
	t := &Token{Address: addr, Admin: admin, abi: impl.ABI, chain: c}
	me := crypto.PubkeyToAddress(admin.PublicKey)
	steps := []struct {
		method string
		args   []any
	}{
		{"initialize", []any{"USD Coin", "USDC", "USD", uint8(6), me, me, me, me}},
		{"initializeV2", []any{"USD Coin"}},
		{"initializeV2_1", []any{me}},
		{"initializeV2_2", []any{[]common.Address{}, "USDC"}},
		{"configureMinter", []any{me, new(big.Int).Lsh(big.NewInt(1), 200)}},
	}
	for _, s := range steps {
		if err := t.call(ctx, s.method, s.args...); err != nil {
			return nil, err
		}
	}
	return t, nil
}
