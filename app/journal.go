package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/evm"
)

// openJournal opens the nonce journal of account on an EVM network whose
// chain id is chainID. On PostgreSQL it lives in the shared store, so an
// instance on another host that takes the lease over finds the sends
// signed by the last holder; with SQLite (one host) it is the file in dir.
// Moving to PostgreSQL, the unsettled sends of a file journal left in dir
// are copied into the store first, so none is forgotten.
func (s *Service) openJournal(dir string, chainID uint64, account string) (evm.Journal, func() error, error) {
	return OpenNonceJournal(s.Store, s.Config.DatabaseURL, dir, chainID, account)
}

// OpenNonceJournal is the nonce journal of account as every sender of the
// service opens it (the executor, the sweeper, contract deploy): the
// store's on PostgreSQL (databaseURL set), the file in dir otherwise.
func OpenNonceJournal(st cashier.Store, databaseURL, dir string, chainID uint64, account string) (evm.Journal, func() error, error) {
	tj, shared := any(st).(cashier.TxJournals)
	if databaseURL == "" || !shared {
		j, err := evm.OpenFileJournal(dir, chainID, account)
		if err != nil {
			return nil, nil, err
		}
		return j, j.Close, nil
	}
	j := &storeJournal{store: tj, chainID: chainID, account: strings.ToLower(account)}
	if err := j.adoptFile(dir); err != nil {
		return nil, nil, err
	}
	return j, func() error { return nil }, nil
}

// storeJournal is evm.Journal over the store's cashier.TxJournals. Each
// call is one committed transaction, bounded in time: the sender calls
// without a context.
type storeJournal struct {
	store   cashier.TxJournals
	chainID uint64
	account string
}

const journalTimeout = 30 * time.Second

func (j *storeJournal) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), journalTimeout)
}

func (j *storeJournal) Append(e evm.JournalEntry) error {
	ctx, cancel := j.ctx()
	defer cancel()
	return j.store.AppendTx(ctx, j.chainID, j.account, cashier.JournaledTx(e))
}

func (j *storeJournal) Settle(send, mined string) error {
	ctx, cancel := j.ctx()
	defer cancel()
	return j.store.SettleSend(ctx, j.chainID, j.account, send, mined)
}

func (j *storeJournal) Unsettled() ([]evm.JournalEntry, error) {
	ctx, cancel := j.ctx()
	defer cancel()
	es, err := j.store.UnsettledTxs(ctx, j.chainID, j.account)
	out := make([]evm.JournalEntry, len(es))
	for i, e := range es {
		out[i] = evm.JournalEntry(e)
	}
	return out, err
}

func (j *storeJournal) NextNonce() (uint64, error) {
	ctx, cancel := j.ctx()
	defer cancel()
	return j.store.NextJournalNonce(ctx, j.chainID, j.account)
}

// adoptFile copies the unsettled sends of the account's file journal in
// dir, if there is one, into the store (recording one again changes
// nothing), then renames the file so it is not read again.
func (j *storeJournal) adoptFile(dir string) error {
	name := evm.FileJournalPath(dir, j.chainID, j.account)
	if _, err := os.Stat(name); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	fj, err := evm.OpenFileJournal(dir, j.chainID, j.account)
	if err != nil {
		return err
	}
	es, err := fj.Unsettled()
	fj.Close()
	if err != nil {
		return err
	}
	for _, e := range es {
		if err := j.Append(e); err != nil {
			return fmt.Errorf("moving the nonce journal %s into the database: %w", name, err)
		}
	}
	return os.Rename(name, name+".moved")
}
