package app

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"os"
	"path/filepath"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/evm"
	"github.com/stablecashier/cashier/sweep"
	"github.com/stablecashier/cashier/tron"
)

// NewSweepers makes a sweeper per network that has a node and a sweeper
// key (CASHIER_SERVICE_KEYS or the sealed store); a network without a key
// is logged and left unswept. Sweeps are sent through clients of their own
// on the sweeper key, with its nonce journal in DATA/journal.
func (s *Service) NewSweepers(ctx context.Context) error {
	if s.Config.SweepInterval <= 0 {
		return nil
	}
	setting, err := ParseServiceKeys(s.Config.ServiceKeys)
	if err != nil {
		return err
	}
	keys := ServiceKeys{Store: s.Store, Setting: setting}
	log := s.Logger.With("component", "sweep")
	for _, c := range cashier.Chains {
		if s.Chains[c] == nil {
			continue
		}
		key, err := keys.Key(ctx, c, cashier.KeySweeper)
		if cashier.ErrorCode(err) == cashier.ENotFound {
			log.Warn("no sweeper key: deposits on this network are not swept", "chain", c)
			continue
		}
		if err != nil {
			return fmt.Errorf("%s sweeper key: %w", c, err)
		}
		client, closeClient, err := s.sweepClient(c, key)
		if err != nil {
			return err
		}
		s.closers = append(s.closers, closeClient)
		s.setSweepKey(c, key)
		s.Sweepers = append(s.Sweepers, &sweep.Sweeper{Chain: c, Store: s.Store, Registry: s.Registry, Client: client,
			MinAmount: s.Config.SweepMin, Interval: s.Config.SweepInterval, Clock: s.Clock, Log: log.With("chain", c), Alerts: &s.TokenAlerts})
	}
	return nil
}

// sweepClient is a chain client sending as the sweeper key on c, with the
// key's nonce journal for EVM networks; close releases both.
func (s *Service) sweepClient(c cashier.Chain, key *ecdsa.PrivateKey) (cashier.ChainClient, func(), error) {
	if c == cashier.ChainTRON {
		n, _ := s.Registry.Network(c)
		cl, err := tron.New(tron.Config{URLs: splitList(s.Config.TRONAPI), APIKey: s.Config.TRONAPIKey, Key: key, Clock: s.Clock, GenesisBlockID: n.GenesisBlockID})
		return cl, func() {}, err
	}
	n, _ := s.Registry.Network(c)
	urls := splitList(s.Config.NodeURLs(c))
	dir := filepath.Join(s.Config.Data, "journal")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, err
	}
	j, closeJournal, err := s.openJournal(dir, uint64(n.EVMChainID), KeyAddress(c, key))
	if err != nil {
		return nil, nil, err
	}
	ec, err := evm.New(evm.Config{Chain: c, ChainID: uint64(n.EVMChainID), URLs: urls, Key: key, Journal: j, Clock: s.Clock})
	if err != nil {
		closeJournal()
		return nil, nil, err
	}
	return ec, func() { ec.Close(); closeJournal() }, nil
}

// runSweepers runs every sweeper until ctx ends, apart from detection,
// each under its lease (ops.go).
func (s *Service) runSweepers(ctx context.Context) <-chan struct{} {
	return s.Ops.runSweepers(ctx)
}
