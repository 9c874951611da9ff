package payoutcontract

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/stablecashier/cashier/contracts/bindings"
)

// Roles are the accounts a merchant's payout contract and deposit factory
// are deployed with.
type Roles struct {
	Owner    common.Address // the merchant's: withdraws, changes roles
	Executor common.Address // the service's: sends payout batches
	Signer   common.Address // the merchant's signer key, held sealed by the service
	Fee      common.Address // receives each batch's fee
	Sweeper  common.Address // the service's: sweeps deposit addresses
	// Create2Prefix is the chain's CREATE2 prefix (0xff, or 0x41 on TRON).
	Create2Prefix byte
}

// PayoutInitCode is the creation code of the committed CashierPayout with
// r's constructor arguments.
func PayoutInitCode(r Roles) []byte {
	return append(common.FromHex(bindings.CashierPayoutMetaData.Bin), bindings.NewCashierPayout().PackConstructor(r.Owner, r.Executor, r.Signer, r.Fee)...)
}

// FactoryInitCode is the creation code of the committed DepositFactory
// sweeping into vault.
func FactoryInitCode(r Roles, vault common.Address) []byte {
	return append(common.FromHex(bindings.DepositFactoryMetaData.Bin), bindings.NewDepositFactory().PackConstructor(r.Owner, r.Sweeper, vault, [1]byte{r.Create2Prefix})...)
}

// Creator deploys contracts on one chain and reads from it: the sandbox's
// dev chains and `cashier contract deploy`'s sender both implement it.
type Creator interface {
	// Create deploys code and returns its address and transaction id once
	// the creation is mined and succeeded.
	Create(ctx context.Context, name string, code []byte) (addr common.Address, txID string, err error)
	// Call runs a read-only call.
	Call(ctx context.Context, to common.Address, data []byte) ([]byte, error)
}

// Deployment is a deployed payout contract and its deposit factory.
type Deployment struct {
	Payout, Factory, Implementation common.Address
	PayoutTx, FactoryTx             string
}

// Deploy deploys a payout contract with r's roles, then a deposit factory
// sweeping into it, and reads the factory's implementation().
func Deploy(ctx context.Context, cr Creator, r Roles) (*Deployment, error) {
	var d Deployment
	var err error
	if d.Payout, d.PayoutTx, err = cr.Create(ctx, ArtifactPayout, PayoutInitCode(r)); err != nil {
		return nil, fmt.Errorf("deploy payout contract: %w", err)
	}
	if d.Factory, d.FactoryTx, err = cr.Create(ctx, ArtifactFactory, FactoryInitCode(r, d.Payout)); err != nil {
		return &d, fmt.Errorf("deploy deposit factory: %w", err)
	}
	factory := bindings.NewDepositFactory()
	out, err := cr.Call(ctx, d.Factory, factory.PackImplementation())
	if err != nil {
		return &d, fmt.Errorf("read deposit implementation: %w", err)
	}
	if d.Implementation, err = factory.UnpackImplementation(out); err != nil {
		return &d, err
	}
	return &d, nil
}
