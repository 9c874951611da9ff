package app

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"math/big"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/address"
	"github.com/stablecashier/cashier/config"
	"github.com/stablecashier/cashier/evm"
	"github.com/stablecashier/cashier/lease"
	"github.com/stablecashier/cashier/payoutcontract"
)

// DeploySpec is what `cashier contract deploy` is asked to deploy.
type DeploySpec struct {
	MerchantID string
	Chain      string
	Owner      string            // the contracts' owner: the merchant's account
	FeeAddress string            // empty: the executor's address
	Deployer   *ecdsa.PrivateKey // nil: the network's executor key
	WebhookURL string
	DryRun     bool
	Sandbox    bool
	// Wait is how long to wait for the lease of the service's work that
	// sends from the deploying account (the network's payout executor for
	// the executor key) when a serving instance holds it; 0: refuse at once.
	Wait time.Duration
}

// DeployTx is one creation transaction, sent or priced.
type DeployTx struct {
	Contract string `json:"contract"` // CashierPayout or DepositFactory
	Address  string `json:"address"`  // predicted by the nonce in a dry run
	TxID     string `json:"txId,omitempty"`
	Nonce    uint64 `json:"nonce"`
	// Sent: the gas used and the fee paid. Dry run: the estimate, the
	// limit that would be signed and the most it could cost (limit × fee cap).
	GasUsed      uint64 `json:"gasUsed,omitempty"`
	Fee          string `json:"fee,omitempty"`
	Gas          uint64 `json:"gas,omitempty"`
	GasLimit     uint64 `json:"gasLimit,omitempty"`
	MaxFeePerGas string `json:"maxFeePerGas,omitempty"` // wei
	MaxCost      string `json:"maxCost,omitempty"`
}

// DeployResult is the one JSON object the command prints.
type DeployResult struct {
	DryRun                bool       `json:"dryRun,omitempty"`
	ContractID            string     `json:"contractId,omitempty"`
	ContractNum           string     `json:"contractNum,omitempty"`
	MerchantID            string     `json:"merchantId"`
	ChainID               string     `json:"chainId"`
	PayoutContract        string     `json:"payoutContract"`
	DepositFactory        string     `json:"depositFactory"`
	DepositImplementation string     `json:"depositImplementation,omitempty"`
	Owner                 string     `json:"owner"`
	Executor              string     `json:"executor"`
	Signer                string     `json:"signer"`
	FeeAddress            string     `json:"feeAddress"`
	Sweeper               string     `json:"sweeper"`
	Deployer              string     `json:"deployer"`
	DeployerBalance       string     `json:"deployerBalance"`
	Transactions          []DeployTx `json:"transactions"`
	TotalFee              string     `json:"totalFee"` // dry run: the most both could cost
	Symbol                string     `json:"symbol"`   // of the fees: ETH
	Status                string     `json:"status,omitempty"`
}

// DeployContracts deploys a merchant's payout contract and deposit factory
// on an EVM network with the service's executor, sweeper and the
// merchant's signer, waits until both creations have the network's
// confirmations, proves and registers them (NewContract: the same proof
// as `contract create`). A dry run prices both creations and sends and
// registers nothing. chains are the read clients the proof uses.
//
// A run cut short after the payout contract was mined leaves it
// unregistered: running again deploys a new pair (only gas is lost), or
// `contract create` registers the first one once its factory exists.
func DeployContracts(ctx context.Context, st cashier.Store, keys ServiceKeys, cfg config.Config, reg *cashier.Registry,
	chains map[cashier.Chain]cashier.ChainClient, s DeploySpec, clock cashier.Clock) (*DeployResult, error) {
	c, err := cashier.ParseChain(s.Chain)
	if err != nil {
		return nil, err
	}
	if c == cashier.ChainTRON {
		return nil, cashier.Errorf(cashier.EInvalid, "contract deploy: TRON is not supported: the service's TRON client sends contract calls only, "+
			"not creations. Deploy contracts/build/CashierPayout.json and DepositFactory.json with a TRON wallet "+
			"(constructor arguments: docs/contracts.md), then register them with cashier contract create")
	}
	if _, err := st.Merchant(ctx, s.MerchantID); err != nil {
		return nil, fmt.Errorf("merchant %s: %w", s.MerchantID, err)
	}
	if s.Owner == "" {
		return nil, cashier.Errorf(cashier.EInvalid, "contract deploy: --owner is required: the merchant's account that owns the contracts")
	}
	owner, err := address.Validate(c, s.Owner)
	if err != nil {
		return nil, fmt.Errorf("owner: %w", err)
	}
	if err := CheckWebhookURL(s.WebhookURL, s.Sandbox); err != nil {
		return nil, err
	}
	n, ok := reg.Network(c)
	if !ok || n.EVMChainID <= 0 {
		return nil, fmt.Errorf("%s: the registry has no EVM chain id", c)
	}
	urls := splitList(cfg.NodeURLs(c))
	if len(urls) == 0 {
		return nil, cashier.Errorf(cashier.EInvalid, "contract deploy: no node for %s: give --rpc URL or set %s", c, config.NodeSetting(c))
	}
	roleKey := func(r cashier.KeyRole) (*ecdsa.PrivateKey, error) {
		k, err := keys.Key(ctx, c, r)
		if cashier.ErrorCode(err) == cashier.ENotFound {
			return nil, cashier.Errorf(cashier.EInvalid, "contract deploy: the service has no %s key on %s: cashier key generate --chain %s --role %s (or CASHIER_SERVICE_KEYS)", r, c, c, r)
		}
		return k, err
	}
	execClef, err := ParseExecutorClef(cfg.ExecutorClef, cfg.ExecutorClefAccount)
	if err != nil {
		return nil, err
	}
	var exec *ecdsa.PrivateKey
	execAddr := common.Address{}
	if ec, inClef := execClef[c]; inClef {
		// The executor lives in Clef (it signs payout calls only): the
		// contracts name it, another account deploys them.
		if s.Deployer == nil {
			return nil, cashier.Errorf(cashier.EInvalid, "contract deploy: the %s executor is held by Clef, which signs payout calls only: "+
				"give --key-file with the deploying account's key", c)
		}
		execAddr = ec.Account
	} else {
		if exec, err = roleKey(cashier.KeyExecutor); err != nil {
			return nil, err
		}
		execAddr = crypto.PubkeyToAddress(exec.PublicKey)
	}
	sweeper, err := roleKey(cashier.KeySweeper)
	if err != nil {
		return nil, err
	}
	fee := address.Format(c, execAddr)
	if s.FeeAddress != "" {
		if fee, err = address.Validate(c, s.FeeAddress); err != nil {
			return nil, fmt.Errorf("fee address: %w", err)
		}
	}
	signer, err := MerchantSigner(ctx, st, s.MerchantID, c, clock)
	if err != nil {
		return nil, err
	}
	deployer := s.Deployer
	if deployer == nil {
		deployer = exec
	}
	roles := payoutcontract.Roles{
		Owner: common.HexToAddress(owner), Executor: execAddr, Signer: common.HexToAddress(signer.Address),
		Fee: common.HexToAddress(fee), Sweeper: crypto.PubkeyToAddress(sweeper.PublicKey), Create2Prefix: n.Create2Prefix,
	}
	from := KeyAddress(c, deployer)
	res := &DeployResult{
		DryRun: s.DryRun, MerchantID: s.MerchantID, ChainID: string(c), Owner: owner, Executor: address.Format(c, execAddr),
		Signer: signer.Address, FeeAddress: fee, Sweeper: KeyAddress(c, sweeper), Deployer: from, Symbol: n.Symbol,
	}
	ecfg := evm.Config{Chain: c, ChainID: uint64(n.EVMChainID), URLs: urls, Clock: clock, Confirmations: uint64(max(1, n.Confirmations))}
	if !s.DryRun {
		// The deployer's nonces go through the same journal as the service's
		// sends from that key (the store's on PostgreSQL, the file under
		// DATA/journal otherwise), under the same lease as the service's
		// worker sending from it: while the deploy holds it no instance
		// signs from that account, and the worker that takes it next opens
		// the journal afresh, finding the deploy's transactions.
		var name string
		switch {
		case strings.EqualFold(from, address.Format(c, execAddr)):
			name = payoutLease(c)
		case strings.EqualFold(from, KeyAddress(c, sweeper)):
			name = sweepLease(c)
		}
		if name != "" {
			release, err := holdDeployLease(ctx, st, cfg, name, s.Wait, clock)
			if err != nil {
				return nil, err
			}
			defer release()
		}
		j, closeJournal, err := OpenNonceJournal(st, cfg.DatabaseURL, filepath.Join(cfg.Data, "journal", strings.ToLower(string(c))), uint64(n.EVMChainID), from)
		if err != nil {
			return nil, err
		}
		defer closeJournal()
		ecfg.Key, ecfg.Journal = deployer, j
	}
	cl, err := evm.New(ecfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c, err)
	}
	defer cl.Close()
	bal, err := cl.NativeBalance(ctx, from)
	if err != nil {
		return nil, err
	}
	res.DeployerBalance = cashier.FormatAmount(bal, n.Decimals)
	if s.DryRun {
		return res, dryRun(ctx, cl, from, roles, n.Decimals, res)
	}
	cr := &evmCreator{cl: cl, from: from, decimals: n.Decimals}
	d, err := payoutcontract.Deploy(ctx, cr, roles)
	res.Transactions = cr.txs
	if err != nil {
		return res, err
	}
	res.PayoutContract, res.DepositFactory, res.DepositImplementation = address.Format(c, d.Payout), address.Format(c, d.Factory), address.Format(c, d.Implementation)
	res.TotalFee = cashier.FormatAmount(cr.total, n.Decimals)
	k, err := NewContract(ctx, st, chains, ContractSpec{
		MerchantID: s.MerchantID, Chain: string(c), Address: res.PayoutContract, WebhookURL: s.WebhookURL,
		DepositFactory: res.DepositFactory, DepositImplementation: res.DepositImplementation, Sandbox: s.Sandbox,
	}, clock)
	if err != nil {
		return res, fmt.Errorf("deployed, but not registered: %w", err)
	}
	if err := st.Update(ctx, func(tx cashier.Tx) error { return tx.CreateContract(ctx, k) }); err != nil {
		return res, fmt.Errorf("deployed, but not registered: %w", err)
	}
	res.ContractID, res.ContractNum, res.Status = k.ID, strconv.FormatInt(k.Num, 10), string(k.Status)
	return res, nil
}

// holdDeployLease takes lease name (the service's work sending from the
// deploying account) for the deploy, waiting up to wait while another
// live holder has it, and keeps it renewed until release is called. A
// holder known to have exited (an instance of this data directory whose
// lock is free) is released on its behalf at once.
func holdDeployLease(ctx context.Context, st cashier.Store, cfg config.Config, name string, wait time.Duration, clock cashier.Clock) (release func(), err error) {
	ls, ok := any(st).(cashier.Leases)
	if !ok {
		return func() {}, nil // a store without leases runs one process
	}
	ttl := cfg.LeaseTTL
	if ttl <= 0 {
		ttl = lease.DefaultTTL
	}
	holder := "deploy-" + lease.InstanceID()
	deadline := clock.Now().Add(wait)
	var l cashier.Lease
	for {
		now := clock.Now()
		got, held, err := ls.AcquireLease(ctx, name, holder, now, ttl)
		if err != nil {
			return nil, fmt.Errorf("contract deploy: lease %s: %w", name, err)
		}
		if held {
			l = got
			break
		}
		if deadLocal(cfg.Data, got.Holder) && ls.ReleaseLease(ctx, got) == nil {
			continue
		}
		if !now.Before(deadline) {
			return nil, cashier.Errorf(cashier.EInvalidStatus, "contract deploy: %s is held by instance %s (until %s): it sends from the deploying account, "+
				"and a deploy beside it could take one of its nonces. Stop that work (stop the serving instances), give --wait to wait for it, "+
				"or deploy from another account with --key-file", name, got.Holder, got.Expires.UTC().Format(time.RFC3339))
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(min(ttl/3, deadline.Sub(now))):
		}
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(ttl / 3):
			}
			if nl, err := ls.RenewLease(context.WithoutCancel(ctx), l, clock.Now(), ttl); err == nil {
				l = nl
			}
		}
	}()
	return func() {
		close(stop)
		<-done
		ls.ReleaseLease(context.WithoutCancel(ctx), l)
	}, nil
}

// dryRun prices both creations as from would send them now: the factory
// is estimated against the payout contract's address predicted from the
// pending nonce.
func dryRun(ctx context.Context, cl *evm.Client, from string, roles payoutcontract.Roles, decimals int, res *DeployResult) error {
	total := new(big.Int)
	price := func(name string, code []byte, nonceOffset uint64) (string, error) {
		e, err := cl.Estimate(ctx, from, cashier.Call{Data: code})
		if err != nil {
			return "", fmt.Errorf("price %s: %w", name, err)
		}
		nonce := e.Nonce + nonceOffset
		maxCost := new(big.Int).Mul(new(big.Int).SetUint64(e.GasLimit), e.FeeCap)
		total.Add(total, maxCost)
		addr := evm.CreatedAddress(from, nonce)
		res.Transactions = append(res.Transactions, DeployTx{
			Contract: name, Address: addr, Nonce: nonce, Gas: e.Gas, GasLimit: e.GasLimit,
			MaxFeePerGas: e.FeeCap.String(), MaxCost: cashier.FormatAmount(maxCost, decimals),
		})
		return addr, nil
	}
	payout, err := price(payoutcontract.ArtifactPayout, payoutcontract.PayoutInitCode(roles), 0)
	if err != nil {
		return err
	}
	res.PayoutContract = payout
	if res.DepositFactory, err = price(payoutcontract.ArtifactFactory, payoutcontract.FactoryInitCode(roles, common.HexToAddress(payout)), 1); err != nil {
		return err
	}
	res.TotalFee = cashier.FormatAmount(total, decimals)
	return nil
}

// evmCreator sends creations through the journaled sender and waits until
// each has the network's confirmations.
type evmCreator struct {
	cl       *evm.Client
	from     string
	decimals int
	txs      []DeployTx
	total    *big.Int
}

// deployPoll is how often a creation's state is checked while waiting.
const deployPoll = 500 * time.Millisecond

func (e *evmCreator) Create(ctx context.Context, name string, code []byte) (common.Address, string, error) {
	if e.total == nil {
		e.total = new(big.Int)
	}
	send, err := e.cl.SendCall(ctx, cashier.Call{Data: code})
	if err != nil {
		return common.Address{}, "", err
	}
	for {
		st, err := e.cl.Check(ctx, send)
		if err != nil {
			return common.Address{}, "", err
		}
		switch st.State {
		case evm.SendConfirmed:
			r := st.Receipt
			addr := evm.CreatedAddress(e.from, st.Nonce)
			e.total.Add(e.total, r.Fee)
			e.txs = append(e.txs, DeployTx{Contract: name, Address: addr, TxID: r.TxHash, Nonce: st.Nonce, GasUsed: r.GasUsed,
				Fee: cashier.FormatAmount(r.Fee, e.decimals)})
			if !r.Success {
				return common.Address{}, r.TxHash, fmt.Errorf("the creation %s reverted", r.TxHash)
			}
			return common.HexToAddress(addr), r.TxHash, nil
		case evm.SendDropped:
			return common.Address{}, "", fmt.Errorf("the creation %s was dropped: another transaction took nonce %d", send, st.Nonce)
		}
		t := time.NewTimer(deployPoll)
		select {
		case <-ctx.Done():
			t.Stop()
			return common.Address{}, "", fmt.Errorf("waiting for %s: %w", send, ctx.Err())
		case <-t.C:
		}
	}
}

func (e *evmCreator) Call(ctx context.Context, to common.Address, data []byte) ([]byte, error) {
	return e.cl.CallView(ctx, to.Hex(), data)
}
