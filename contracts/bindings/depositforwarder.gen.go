// Code generated via abigen V2 - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package bindings

import (
	"bytes"
	"errors"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Reference imports to suppress errors if they are not otherwise used.
var (
	_ = bytes.Equal
	_ = errors.New
	_ = big.NewInt
	_ = common.Big1
	_ = types.BloomLookup
	_ = abi.ConvertType
)

// DepositForwarderMetaData contains all meta data concerning the DepositForwarder contract.
var DepositForwarderMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"NativeTransferFailed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotFactory\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"TokenNotContract\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"TokenTransferFailed\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"remaining\",\"type\":\"uint256\"}],\"name\":\"TransferNotVerified\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"factory\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"}],\"name\":\"flush\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"addresspayable\",\"name\":\"to\",\"type\":\"address\"}],\"name\":\"flushNative\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"stateMutability\":\"payable\",\"type\":\"receive\"}]",
	ID:  "DepositForwarder",
	Bin: "0x60a08060405234602f57336080526103849081610035823960805181818160570152818161010b01526101ef0152f35b600080fdfe6080604052600436101561001b575b361561001957600080fd5b005b60003560e01c80631c333180146100d75780639cfddc361461008b5763c45a01550361000e5734610086576000366003190112610086576040517f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03168152602090f35b600080fd5b34610086576040366003190112610086576004356001600160a01b038116810361008657602435906001600160a01b0382168203610086576020916100cf916101ea565b604051908152f35b34610086576020366003190112610086576004356001600160a01b0381168103610086576020906100cf6001600160a01b037f00000000000000000000000000000000000000000000000000000000000000001633036101d957479182156101d2576001600160a01b0316600080808086855af13d156101cd573d67ffffffffffffffff81116101b75760405190601f8101601f19908116603f0116820167ffffffffffffffff8111838210176101b7576040528152600060203d92013e5b1561019e5750565b905063296c17bb60e21b60005260045260245260446000fd5b634e487b7160e01b600052604160045260246000fd5b610196565b5060009150565b631966391b60e11b60005260046000fd5b9091907f00000000000000000000000000000000000000000000000000000000000000006001600160a01b031633036101d957610227308261034e565b809491158015610345575b610326571561031e576020600060446040519363a9059cbb60e01b855260018060a01b03169384600482015287602482015282865af1906002916102de575b600282146102b957506001146102845750565b61028e308261034e565b8092915061029a575050565b63269c4d3160e21b60005260018060a01b031660045260245260446000fd5b92505063190eecf360e31b60005260018060a01b031660045260245260445260646000fd5b3d156103155760203d10156102f3575b610271565b6000516001811461030c575b6102ee5760019150610271565b600092506102ff565b60009150610271565b506000925050565b6318aca2db60e01b60009081526001600160a01b038416600452602490fd5b50823b15610232565b6040516370a0823160e01b81526001600160a01b039092166004830152602091600091602491905afa60203d101516906000519056",
}

// DepositForwarder is an auto generated Go binding around an Ethereum contract.
type DepositForwarder struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *DepositForwarder) GetABI() abi.ABI {
	return c.abi
}

// NewDepositForwarder creates a new instance of DepositForwarder.
func NewDepositForwarder() *DepositForwarder {
	parsed, err := DepositForwarderMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &DepositForwarder{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *DepositForwarder) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackFactory is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc45a0155.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function factory() view returns(address)
func (depositForwarder *DepositForwarder) PackFactory() []byte {
	enc, err := depositForwarder.abi.Pack("factory")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackFactory is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc45a0155.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function factory() view returns(address)
func (depositForwarder *DepositForwarder) TryPackFactory() ([]byte, error) {
	return depositForwarder.abi.Pack("factory")
}

// UnpackFactory is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xc45a0155.
//
// Solidity: function factory() view returns(address)
func (depositForwarder *DepositForwarder) UnpackFactory(data []byte) (common.Address, error) {
	out, err := depositForwarder.abi.Unpack("factory", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackFlush is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9cfddc36.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function flush(address token, address to) returns(uint256 amount)
func (depositForwarder *DepositForwarder) PackFlush(token common.Address, to common.Address) []byte {
	enc, err := depositForwarder.abi.Pack("flush", token, to)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackFlush is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9cfddc36.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function flush(address token, address to) returns(uint256 amount)
func (depositForwarder *DepositForwarder) TryPackFlush(token common.Address, to common.Address) ([]byte, error) {
	return depositForwarder.abi.Pack("flush", token, to)
}

// UnpackFlush is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x9cfddc36.
//
// Solidity: function flush(address token, address to) returns(uint256 amount)
func (depositForwarder *DepositForwarder) UnpackFlush(data []byte) (*big.Int, error) {
	out, err := depositForwarder.abi.Unpack("flush", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackFlushNative is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1c333180.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function flushNative(address to) returns(uint256 amount)
func (depositForwarder *DepositForwarder) PackFlushNative(to common.Address) []byte {
	enc, err := depositForwarder.abi.Pack("flushNative", to)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackFlushNative is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1c333180.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function flushNative(address to) returns(uint256 amount)
func (depositForwarder *DepositForwarder) TryPackFlushNative(to common.Address) ([]byte, error) {
	return depositForwarder.abi.Pack("flushNative", to)
}

// UnpackFlushNative is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x1c333180.
//
// Solidity: function flushNative(address to) returns(uint256 amount)
func (depositForwarder *DepositForwarder) UnpackFlushNative(data []byte) (*big.Int, error) {
	out, err := depositForwarder.abi.Unpack("flushNative", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// UnpackError attempts to decode the provided error data using user-defined
// error definitions.
func (depositForwarder *DepositForwarder) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], depositForwarder.abi.Errors["NativeTransferFailed"].ID.Bytes()[:4]) {
		return depositForwarder.UnpackNativeTransferFailedError(raw[4:])
	}
	if bytes.Equal(raw[:4], depositForwarder.abi.Errors["NotFactory"].ID.Bytes()[:4]) {
		return depositForwarder.UnpackNotFactoryError(raw[4:])
	}
	if bytes.Equal(raw[:4], depositForwarder.abi.Errors["TokenNotContract"].ID.Bytes()[:4]) {
		return depositForwarder.UnpackTokenNotContractError(raw[4:])
	}
	if bytes.Equal(raw[:4], depositForwarder.abi.Errors["TokenTransferFailed"].ID.Bytes()[:4]) {
		return depositForwarder.UnpackTokenTransferFailedError(raw[4:])
	}
	if bytes.Equal(raw[:4], depositForwarder.abi.Errors["TransferNotVerified"].ID.Bytes()[:4]) {
		return depositForwarder.UnpackTransferNotVerifiedError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// DepositForwarderNativeTransferFailed represents a NativeTransferFailed error raised by the DepositForwarder contract.
type DepositForwarderNativeTransferFailed struct {
	To     common.Address
	Amount *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NativeTransferFailed(address to, uint256 amount)
func DepositForwarderNativeTransferFailedErrorID() common.Hash {
	return common.HexToHash("0xa5b05eec8040da65485bf3ab248b47c42271aa50a9234ed8f116e568dc285cc6")
}

// UnpackNativeTransferFailedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NativeTransferFailed(address to, uint256 amount)
func (depositForwarder *DepositForwarder) UnpackNativeTransferFailedError(raw []byte) (*DepositForwarderNativeTransferFailed, error) {
	out := new(DepositForwarderNativeTransferFailed)
	if err := depositForwarder.abi.UnpackIntoInterface(out, "NativeTransferFailed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DepositForwarderNotFactory represents a NotFactory error raised by the DepositForwarder contract.
type DepositForwarderNotFactory struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotFactory()
func DepositForwarderNotFactoryErrorID() common.Hash {
	return common.HexToHash("0x32cc723614e775fc4a8386492bc9a860c12fe98d5f5f28ec17e265818645b229")
}

// UnpackNotFactoryError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotFactory()
func (depositForwarder *DepositForwarder) UnpackNotFactoryError(raw []byte) (*DepositForwarderNotFactory, error) {
	out := new(DepositForwarderNotFactory)
	if err := depositForwarder.abi.UnpackIntoInterface(out, "NotFactory", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DepositForwarderTokenNotContract represents a TokenNotContract error raised by the DepositForwarder contract.
type DepositForwarderTokenNotContract struct {
	Token common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error TokenNotContract(address token)
func DepositForwarderTokenNotContractErrorID() common.Hash {
	return common.HexToHash("0x18aca2db5ad7f58d190bcfca6057e0c3c4f96f5a59687991879ede9d1189e1cf")
}

// UnpackTokenNotContractError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error TokenNotContract(address token)
func (depositForwarder *DepositForwarder) UnpackTokenNotContractError(raw []byte) (*DepositForwarderTokenNotContract, error) {
	out := new(DepositForwarderTokenNotContract)
	if err := depositForwarder.abi.UnpackIntoInterface(out, "TokenNotContract", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DepositForwarderTokenTransferFailed represents a TokenTransferFailed error raised by the DepositForwarder contract.
type DepositForwarderTokenTransferFailed struct {
	Token  common.Address
	To     common.Address
	Amount *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error TokenTransferFailed(address token, address to, uint256 amount)
func DepositForwarderTokenTransferFailedErrorID() common.Hash {
	return common.HexToHash("0xc87767983e580cd51a7614924de0506ff919e5220d94509794cd03bb6564b0bf")
}

// UnpackTokenTransferFailedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error TokenTransferFailed(address token, address to, uint256 amount)
func (depositForwarder *DepositForwarder) UnpackTokenTransferFailedError(raw []byte) (*DepositForwarderTokenTransferFailed, error) {
	out := new(DepositForwarderTokenTransferFailed)
	if err := depositForwarder.abi.UnpackIntoInterface(out, "TokenTransferFailed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DepositForwarderTransferNotVerified represents a TransferNotVerified error raised by the DepositForwarder contract.
type DepositForwarderTransferNotVerified struct {
	Token     common.Address
	Remaining *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error TransferNotVerified(address token, uint256 remaining)
func DepositForwarderTransferNotVerifiedErrorID() common.Hash {
	return common.HexToHash("0x9a7134c4d19b4204c90559c0a2fb8b6dc13756e2c33da2abca98d3d28d4051cf")
}

// UnpackTransferNotVerifiedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error TransferNotVerified(address token, uint256 remaining)
func (depositForwarder *DepositForwarder) UnpackTransferNotVerifiedError(raw []byte) (*DepositForwarderTransferNotVerified, error) {
	out := new(DepositForwarderTransferNotVerified)
	if err := depositForwarder.abi.UnpackIntoInterface(out, "TransferNotVerified", raw); err != nil {
		return nil, err
	}
	return out, nil
}
