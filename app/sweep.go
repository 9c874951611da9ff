package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"

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
		var client cashier.ChainClient
		switch c {
		case cashier.ChainTRON:
			if client, err = tron.New(tron.Config{URLs: splitList(s.Config.TRONAPI), APIKey: s.Config.TRONAPIKey, Key: key, Clock: s.Clock}); err != nil {
				return err
			}
		default:
			n, _ := s.Registry.Network(c)
			urls := splitList(map[cashier.Chain]string{cashier.ChainETH: s.Config.ETHRPC, cashier.ChainARB: s.Config.ARBRPC}[c])
			dir := filepath.Join(s.Config.Data, "journal")
			if err := os.MkdirAll(dir, 0o700); err != nil {
				return err
			}
			j, err := evm.OpenFileJournal(dir, uint64(n.EVMChainID), KeyAddress(c, key))
			if err != nil {
				return err
			}
			ec, err := evm.New(evm.Config{Chain: c, ChainID: uint64(n.EVMChainID), URLs: urls, Key: key, Journal: j, Clock: s.Clock})
			if err != nil {
				j.Close()
				return err
			}
			s.closers = append(s.closers, func() { ec.Close(); j.Close() })
			client = ec
		}
		s.Sweepers = append(s.Sweepers, &sweep.Sweeper{Chain: c, Store: s.Store, Registry: s.Registry, Client: client,
			MinAmount: s.Config.SweepMin, Interval: s.Config.SweepInterval, Clock: s.Clock, Log: log.With("chain", c)})
	}
	return nil
}

// runSweepers runs every sweeper until ctx ends, apart from detection.
func (s *Service) runSweepers(ctx context.Context) <-chan struct{} {
	var wg sync.WaitGroup
	for _, sw := range s.Sweepers {
		wg.Add(1)
		go func() { defer wg.Done(); sw.Run(ctx) }()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	return done
}
