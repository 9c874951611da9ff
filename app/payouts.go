package app

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"math/big"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/evm"
	"github.com/stablecashier/cashier/payoutexec"
	"github.com/stablecashier/cashier/tron"
)

// tronDomainChainID is what CHAINID returns on TRON mainnet (and in the
// sandbox's stand-in); a registry evmChainId for TRON overrides it (Nile).
const tronDomainChainID = 0x2b6653dc

// ParseGasCap reads CASHIER_PAYOUT_GAS_CAP, "BASE+PER": one payout call
// may use at most BASE + PER × recipients gas (TRON: energy). A token
// transfer to a new holder costs some 30,000; the default 200000+60000
// leaves room for token contracts that cost more.
func ParseGasCap(s string) (base, per uint64, err error) {
	b, p, ok := strings.Cut(strings.TrimSpace(s), "+")
	if ok {
		base, err = strconv.ParseUint(strings.TrimSpace(b), 10, 64)
		if err == nil {
			per, err = strconv.ParseUint(strings.TrimSpace(p), 10, 64)
		}
	}
	if !ok || err != nil || per == 0 || base > 1<<40 || per > 1<<32 {
		return 0, 0, fmt.Errorf("payout gas cap %q: want BASE+PER_RECIPIENT in gas, e.g. 200000+60000", s)
	}
	return base, per, nil
}

// PayoutExecutor assembles the executor for every network that has node
// URLs and an executor key; the others are logged and their payouts wait.
// Batches are signed with each contract's merchant signer; the network's
// service signer, when configured, signs for contracts registered before
// merchant signers. The returned close releases the senders' journals.
// With only, just those networks (an instance runs each network's
// executor under its own lease).
func (s *Service) PayoutExecutor(ctx context.Context, only ...cashier.Chain) (*payoutexec.Executor, func(), error) {
	keys := ServiceKeys{Store: s.Store}
	var err error
	if keys.Setting, err = ParseServiceKeys(s.Config.ServiceKeys); err != nil {
		return nil, nil, err
	}
	minGas, err := parseMinGas(s.Config.PayoutMinGas, s.Registry)
	if err != nil {
		return nil, nil, err
	}
	gasBase, gasPer, err := ParseGasCap(s.Config.PayoutGasCap)
	if err != nil {
		return nil, nil, err
	}
	prices, err := ParseGasPolicy(s.Config.GasPolicy, s.Config.GasPrice)
	if err != nil {
		return nil, nil, err
	}
	execClef, err := ParseExecutorClef(s.Config.ExecutorClef, s.Config.ExecutorClefAccount)
	if err != nil {
		return nil, nil, err
	}
	x := &payoutexec.Executor{
		Orders: s.Orders, Store: s.Store, Registry: s.Registry, Networks: map[cashier.Chain]*payoutexec.Network{},
		Clock: s.Clock, Logger: s.Logger.With("component", "payouts"), Config: payoutexec.DefaultConfig,
		Alerts: &s.TokenAlerts,
	}
	x.Config.BatchSize, x.Config.Window = s.Config.PayoutBatchSize, s.Config.PayoutWindow
	var closers []func() error
	closeAll := func() {
		for _, c := range closers {
			c()
		}
	}
	urls := map[cashier.Chain]string{}
	for _, n := range s.Registry.Networks {
		urls[n.Chain] = s.Config.NodeURLs(n.Chain)
	}
	for _, c := range cashier.Chains {
		if len(splitList(urls[c])) == 0 || (len(only) > 0 && !slices.Contains(only, c)) {
			continue
		}
		signer, err := keys.Key(ctx, c, cashier.KeySigner)
		if cashier.ErrorCode(err) == cashier.ENotFound {
			signer, err = nil, nil // only contracts registered before merchant signers need it
		}
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		ec, clefExec := execClef[c]
		var exec *ecdsa.PrivateKey
		if !clefExec {
			exec, err = keys.Key(ctx, c, cashier.KeyExecutor)
		}
		if err != nil {
			if cashier.ErrorCode(err) == cashier.ENotFound {
				x.Logger.Warn("no executor key: payouts on this network wait", "chain", c)
				continue
			}
			closeAll()
			return nil, nil, err
		}
		n, _ := s.Registry.Network(c)
		net := &payoutexec.Network{Signer: signer, Confirmations: uint64(max(1, n.Confirmations)),
			CoinDecimals: n.Decimals, MinGas: minGas[c]}
		if clefExec {
			net.Executor = ec.Account.Hex()
		} else {
			net.Executor = KeyAddress(c, exec)
		}
		if c == cashier.ChainTRON {
			net.DomainChainID = big.NewInt(tronDomainChainID)
			if n.EVMChainID > 0 {
				net.DomainChainID = big.NewInt(n.EVMChainID)
			}
			net.EnergyPerRecipient, net.EnergyBase = gasPer, gasBase
			cl, err := tron.New(tron.Config{URLs: splitList(urls[c]), APIKey: s.Config.TRONAPIKey, Key: exec, Clock: s.Clock, GenesisBlockID: n.GenesisBlockID})
			if err != nil {
				closeAll()
				return nil, nil, fmt.Errorf("TRON: %w", err)
			}
			net.Client = cl
		} else {
			net.DomainChainID = big.NewInt(n.EVMChainID)
			net.GasBase, net.GasPerRecipient = gasBase, gasPer
			j, closeJournal, err := s.openJournal(filepath.Join(s.Config.Data, "journal", strings.ToLower(string(c))), uint64(n.EVMChainID), net.Executor)
			if err != nil {
				closeAll()
				return nil, nil, err
			}
			closers = append(closers, closeJournal)
			ecfg := evm.Config{Chain: c, ChainID: uint64(n.EVMChainID), URLs: splitList(urls[c]), Key: exec, Journal: j,
				Clock: s.Clock, Confirmations: net.Confirmations}
			if clefExec {
				// The executor's account lives in Clef: it signs each
				// transaction by its rules; nonces, fees and the journal
				// stay the sender's.
				cs, err := dialClef(ctx, ec.Endpoint, ec.Account)
				if err != nil {
					closeAll()
					return nil, nil, fmt.Errorf("%s executor: %w", c, err)
				}
				closers = append(closers, func() error { cs.Close(); return nil })
				ecfg.Key, ecfg.Signer = nil, cs
			}
			if s.Config.SignerClef != "" {
				// Batches of merchant signers held by Clef are signed there;
				// the others with their sealed keys.
				cs, err := dialClef(ctx, s.Config.SignerClef, common.Address{})
				if err != nil {
					closeAll()
					return nil, nil, fmt.Errorf("%s payout signer: %w", c, err)
				}
				closers = append(closers, func() error { cs.Close(); return nil })
				net.Clef = cs
			}
			cl, err := evm.New(ecfg)
			if err != nil {
				closeAll()
				return nil, nil, fmt.Errorf("%s: %w", c, err)
			}
			closers = append(closers, func() error { cl.Close(); return nil })
			net.Client = cl
			switch p := prices[c]; {
			case p.feed != "":
				net.GasPrice = payoutexec.FeedPrice{Reader: cl, Feed: p.feed, MaxAge: FeedMaxAge, Clock: s.Clock}
			case p.fixed != nil:
				net.GasPrice = *p.fixed
			}
		}
		x.Networks[c] = net
		serviceSigner := ""
		if signer != nil {
			serviceSigner = KeyAddress(c, signer)
		}
		x.Logger.Info("payouts enabled", "chain", c, "executor", net.Executor, "executorInClef", clefExec, "signerClef", net.Clef != nil, "serviceSigner", serviceSigner)
	}
	return x, closeAll, nil
}

// FeedMaxAge is how old a price feed's answer may be before fee+gas
// batches wait: a day and an hour covers the heartbeats of Chainlink's
// ETH/USD feeds (one hour on Ethereum, a day on Arbitrum).
const FeedMaxAge = 25 * time.Hour

// gasPrice is one network's fee+gas price: fixed, or a feed's address.
type gasPrice struct {
	fixed *payoutexec.FixedPrice
	feed  string
}

// chainPairs reads a setting of the form CHAIN=VALUE,… (what names it in
// errors); each network at most once.
func chainPairs(s, what string) (map[cashier.Chain]string, error) {
	out := map[cashier.Chain]string{}
	for _, e := range splitList(s) {
		k, v, ok := strings.Cut(e, "=")
		c, err := cashier.ParseChain(strings.TrimSpace(k))
		if !ok || err != nil {
			return nil, fmt.Errorf("%s %q: want CHAIN=VALUE,… with CHAIN one of TRON, ETH, ARB, BSC, POLYGON, BASE", what, e)
		}
		if _, dup := out[c]; dup {
			return nil, fmt.Errorf("%s: %s given twice", what, c)
		}
		out[c] = strings.TrimSpace(v)
	}
	return out, nil
}

// ParseGasPolicy reads CASHIER_GAS_POLICY ("ETH=fee+gas,ARB=fee"; a network
// not named is fee) and CASHIER_GAS_PRICE ("ETH=3150.5" or
// "ETH=feed:0xADDR"), and returns the price of every fee+gas network.
// fee+gas is for EVM networks, and needs a price.
func ParseGasPolicy(policy, price string) (map[cashier.Chain]gasPrice, error) {
	pol, err := chainPairs(policy, "gas policy")
	if err != nil {
		return nil, err
	}
	pri, err := chainPairs(price, "gas price")
	if err != nil {
		return nil, err
	}
	out := map[cashier.Chain]gasPrice{}
	for c, p := range pol {
		switch p {
		case "fee":
		case "fee+gas":
			if !c.IsEVM() {
				return nil, fmt.Errorf("gas policy: fee+gas is for Ethereum and Arbitrum; on %s the fee is fixed", c)
			}
			v, ok := pri[c]
			if !ok {
				return nil, fmt.Errorf("gas policy %s=fee+gas needs a price: CASHIER_GAS_PRICE %s=TOKENS_PER_COIN or %s=feed:ADDRESS", c, c, c)
			}
			if a, isFeed := strings.CutPrefix(v, "feed:"); isFeed {
				addr, err := evm.ValidateAddress(a)
				if err != nil {
					return nil, fmt.Errorf("gas price %s: feed address: %w", c, err)
				}
				out[c] = gasPrice{feed: addr}
				continue
			}
			f, err := payoutexec.ParseFixedPrice(v)
			if err != nil {
				return nil, fmt.Errorf("gas price %s: %w", c, err)
			}
			out[c] = gasPrice{fixed: &f}
		default:
			return nil, fmt.Errorf("gas policy %s=%q: want fee or fee+gas", c, p)
		}
	}
	for c := range pri {
		if _, ok := out[c]; !ok {
			return nil, fmt.Errorf("gas price for %s, whose gas policy is fee: set CASHIER_GAS_POLICY %s=fee+gas or drop the price", c, c)
		}
	}
	return out, nil
}

// parseMinGas reads "CHAIN=AMOUNT,…" in the networks' coin units.
// parseLedgerFrom reads the ledger-from setting, CHAIN=BLOCK,….
func parseLedgerFrom(s string) (map[cashier.Chain]uint64, error) {
	pairs, err := chainPairs(s, "ledger from")
	if err != nil {
		return nil, err
	}
	out := map[cashier.Chain]uint64{}
	for c, v := range pairs {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("ledger from of %s: %q is not a block number", c, v)
		}
		out[c] = n
	}
	return out, nil
}

func parseMinGas(s string, reg *cashier.Registry) (map[cashier.Chain]*big.Int, error) {
	out := map[cashier.Chain]*big.Int{}
	for _, e := range splitList(s) {
		name, amount, ok := strings.Cut(e, "=")
		if !ok {
			return nil, fmt.Errorf("payout min gas: %q is not CHAIN=AMOUNT", e)
		}
		c, err := cashier.ParseChain(name)
		if err != nil {
			return nil, fmt.Errorf("payout min gas: %w", err)
		}
		n, on := reg.Network(c)
		if !on {
			continue // switched off in the registry: no payouts there
		}
		v, err := cashier.ParseAmount(amount, n.Decimals)
		if err != nil {
			return nil, fmt.Errorf("payout min gas of %s: %w", c, err)
		}
		out[c] = v
	}
	return out, nil
}

// runPayouts runs each network's payout executor in the background until
// ctx ends, under its lease (ops.go); the returned channel closes when all
// have stopped. A configuration error is logged and payouts wait (orders
// stay PENDING/PROCESSING), the rest of the service runs on.
func (s *Service) runPayouts(ctx context.Context) <-chan struct{} {
	return s.Ops.runPayouts(ctx)
}
