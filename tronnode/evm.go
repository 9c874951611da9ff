package tronnode

import (
	"errors"
	"math"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/params"
	"github.com/holiman/uint256"

	"github.com/stablecashier/cashier/tron"
)

// ChainID is what the stand-in's CHAINID opcode returns: TRON mainnet's
// chain id as the TVM reports it (the low four bytes of the genesis block
// id), so EIP-712 domains match mainnet's.
const ChainID = 0x2b6653dc

// chainConfig enables the Cancun instruction set (PUSH0, MCOPY, TSTORE),
// which current TVM versions support, and nothing later.
var chainConfig = func() *params.ChainConfig {
	zero := uint64(0)
	return &params.ChainConfig{
		ChainID:                 big.NewInt(ChainID),
		HomesteadBlock:          new(big.Int),
		EIP150Block:             new(big.Int),
		EIP155Block:             new(big.Int),
		EIP158Block:             new(big.Int),
		ByzantiumBlock:          new(big.Int),
		ConstantinopleBlock:     new(big.Int),
		PetersburgBlock:         new(big.Int),
		IstanbulBlock:           new(big.Int),
		MuirGlacierBlock:        new(big.Int),
		BerlinBlock:             new(big.Int),
		LondonBlock:             new(big.Int),
		TerminalTotalDifficulty: new(big.Int),
		ShanghaiTime:            &zero,
		CancunTime:              &zero,
	}
}()

// Create2Prefix is the byte CREATE2 hashes in front of the creator on this
// node: go-ethereum's 0xff. TRON's TVM uses 0x41, and the EVM here has no
// way to change it, so contracts that predict CREATE2 addresses (the
// deposit factory) must be given this prefix on the stand-in and 0x41 on
// TRON; read it from the contract rather than assume it per chain.
const Create2Prefix byte = 0xff

// maxConstantEnergy is java-tron's default energy cap of a constant call.
const maxConstantEnergy = 100_000_000

// execResult is the outcome of one call on the EVM.
type execResult struct {
	ret     []byte
	used    int64
	created tron.Address
	err     error
	logs    []*types.Log
}

// status maps an EVM outcome to TRON's contractResult names.
func (r *execResult) status() string {
	var (
		under *vm.ErrStackUnderflow
		over  *vm.ErrStackOverflow
		inv   *vm.ErrInvalidOpCode
	)
	switch err := r.err; {
	case err == nil:
		return "SUCCESS"
	case errors.Is(err, vm.ErrExecutionReverted):
		return "REVERT"
	case errors.Is(err, vm.ErrOutOfGas), errors.Is(err, vm.ErrCodeStoreOutOfGas), errors.Is(err, vm.ErrGasUintOverflow):
		return "OUT_OF_ENERGY"
	case errors.Is(err, vm.ErrInvalidJump):
		return "BAD_JUMP_DESTINATION"
	case errors.As(err, &under):
		return "STACK_TOO_SMALL"
	case errors.As(err, &over):
		return "STACK_TOO_LARGE"
	case errors.As(err, &inv):
		return "ILLEGAL_OPERATION"
	case errors.Is(err, vm.ErrDepth):
		return "JVM_STACK_OVER_FLOW"
	case errors.Is(err, vm.ErrInsufficientBalance):
		return "TRANSFER_FAILED"
	case errors.Is(err, vm.ErrInvalidCode):
		return "INVALID_CODE"
	}
	return "UNKNOWN"
}

// env is what a block gives the EVM.
type env struct {
	number  uint64
	time    int64 // ms
	witness tron.Address
	hash    func(uint64) common.Hash
}

func (e env) rules() params.Rules {
	return chainConfig.Rules(new(big.Int).SetUint64(e.number), true, uint64(e.time/1000))
}

func (e env) evm(st *state.StateDB, origin common.Address) *vm.EVM {
	ctx := vm.BlockContext{
		CanTransfer: func(db vm.StateDB, a common.Address, v *uint256.Int) bool { return db.GetBalance(a).Cmp(v) >= 0 },
		Transfer: func(db vm.StateDB, from, to common.Address, v *uint256.Int, _ *params.Rules) {
			db.SubBalance(from, v, tracing.BalanceChangeTransfer)
			db.AddBalance(to, v, tracing.BalanceChangeTransfer)
		},
		GetHash:     e.hash,
		Coinbase:    e.witness.EVM(),
		GasLimit:    math.MaxInt64,
		BlockNumber: new(big.Int).SetUint64(e.number),
		Time:        uint64(e.time / 1000), // TVM's TIMESTAMP is in seconds
		Difficulty:  new(big.Int),
		BaseFee:     new(big.Int),
		BlobBaseFee: new(big.Int),
		Random:      &common.Hash{},
	}
	evm := vm.NewEVM(ctx, st, chainConfig, vm.Config{})
	evm.SetTxContext(vm.TxContext{Origin: origin, GasPrice: new(uint256.Int)})
	return evm
}

// call executes a contract call from owner with an energy limit. TVM
// charges no intrinsic cost (bandwidth pays for the bytes), so the energy
// used is execution gas alone.
func (e env) call(st *state.StateDB, txHash common.Hash, owner, contract tron.Address, data []byte, value int64, limit int64) *execResult {
	st.SetTxContext(txHash, 0, 0)
	rules := e.rules()
	to := contract.EVM()
	st.Prepare(rules, owner.EVM(), e.witness.EVM(), &to, vm.ActivePrecompiles(rules), nil)
	budget := vm.NewGasBudget(uint64(limit), 0)
	ret, left, err := e.evm(st, owner.EVM()).Call(owner.EVM(), to, data, budget, uint256.NewInt(uint64(value)))
	return &execResult{ret: ret, used: int64(left.Used(budget)), err: err, logs: st.GetLogs(txHash, e.number, common.Hash{}, uint64(e.time/1000))}
}

// create deploys initCode at addr, TRON's contract address for the
// transaction: keccak256(txID || owner with 0x41)[12:] (see decodeTx). The EVM has no "create at"
// entry point, so the init code runs as the code of the new account and
// its return value becomes the runtime code, charged 200 energy per byte
// as CREATE does.
func (e env) create(st *state.StateDB, txID [32]byte, owner, addr tron.Address, initCode []byte, value int64, limit int64) *execResult {
	hash := common.Hash(txID)
	st.SetTxContext(hash, 0, 0)
	rules := e.rules()
	to := addr.EVM()
	st.Prepare(rules, owner.EVM(), e.witness.EVM(), &to, vm.ActivePrecompiles(rules), nil)
	if st.GetCodeSize(to) != 0 || st.GetNonce(to) != 0 {
		return &execResult{used: limit, err: vm.ErrContractAddressCollision}
	}
	snap := st.Snapshot()
	st.CreateAccount(to)
	st.SetNonce(to, 1, tracing.NonceChangeNewContract)
	st.SetCode(to, initCode, tracing.CodeChangeContractCreation)
	budget := vm.NewGasBudget(uint64(limit), 0)
	code, left, err := e.evm(st, owner.EVM()).Call(owner.EVM(), to, nil, budget, uint256.NewInt(uint64(value)))
	used := int64(left.Used(budget))
	if err == nil {
		deposit := int64(len(code)) * int64(params.CreateDataGas)
		switch {
		case used+deposit > limit:
			err, used = vm.ErrCodeStoreOutOfGas, limit
		case len(code) > params.MaxCodeSize:
			err, used = vm.ErrMaxCodeSizeExceeded, limit
		case len(code) > 0 && code[0] == 0xef:
			err, used = vm.ErrInvalidCode, limit
		default:
			used += deposit
			st.SetCode(to, code, tracing.CodeChangeContractCreation)
		}
	}
	if err != nil {
		st.RevertToSnapshot(snap)
		return &execResult{ret: code, used: used, err: err}
	}
	return &execResult{ret: code, used: used, created: addr, logs: st.GetLogs(hash, e.number, common.Hash{}, uint64(e.time/1000))}
}
