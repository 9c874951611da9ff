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

// TestFailingTokenMetaData contains all meta data concerning the TestFailingToken contract.
var TestFailingTokenMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"string\",\"name\":\"name_\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"symbol_\",\"type\":\"string\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"available\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"required\",\"type\":\"uint256\"}],\"name\":\"InsufficientAllowance\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"available\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"required\",\"type\":\"uint256\"}],\"name\":\"InsufficientBalance\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotOwner\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAddress\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Approval\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Transfer\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"allowance\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"approve\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"balanceOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"decimals\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"mint\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"name\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"symbol\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"totalSupply\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"name\":\"transfer\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"name\":\"transferFrom\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"pure\",\"type\":\"function\"}]",
	ID:  "TestFailingToken",
	Bin: "0x60806040523461034e576109588038038061001981610353565b92833981019060408183031261034e5780516001600160401b03811161034e5782610045918301610378565b60208201519092906001600160401b03811161034e576100659201610378565b81516001600160401b03811161024e57600054600181811c91168015610344575b602082101461022e57601f81116102d3575b50602092601f821160011461026f5792819293600092610264575b50508160011b916000199060031b1c1916176000555b80516001600160401b03811161024e57600154600181811c91168015610244575b602082101461022e57601f81116101bc575b50602091601f82116001146101585791819260009261014d575b50508160011b916000199060031b1c1916176001555b600280546001600160a01b0319163317905560405161057490816103e48239f35b015190503880610116565b601f198216926001600052806000209160005b8581106101a45750836001951061018b575b505050811b0160015561012c565b015160001960f88460031b161c1916905538808061017d565b9192602060018192868501518155019401920161016b565b818111156100fc576001600052601f820160051c7fb10e2d527612073b26eecdfd717e6a320cf44b4afac2b0732d9fcbe2b7fa0cf660208410610225575b81601f9101920160051c039060005b8281106102175750506100fc565b600082820155600101610209565b600091506101fa565b634e487b7160e01b600052602260045260246000fd5b90607f16906100ea565b634e487b7160e01b600052604160045260246000fd5b0151905038806100b3565b601f1982169360008052806000209160005b8681106102bb57508360019596106102a2575b505050811b016000556100c9565b015160001960f88460031b161c19169055388080610294565b91926020600181928685015181550194019201610281565b818111156100985760008052601f820160051c7f290decd9548b62a8d60345a988386fc84ba6bc95484008f6362f93160ef3e5636020841061033b575b81601f9101920160051c039060005b82811061032d575050610098565b60008282015560010161031f565b60009150610310565b90607f1690610086565b600080fd5b6040519190601f01601f191682016001600160401b0381118382101761024e57604052565b81601f8201121561034e578051906001600160401b03821161024e576103a7601f8301601f1916602001610353565b928284526020838301011161034e5760005b8281106103ce57505060206000918301015290565b806020809284010151828287010152016103b956fe6080604052600436101561001257600080fd5b60003560e01c806306fdde0314610422578063095ea7b3146103a857806318160ddd1461038a57806323b872dd14610368578063313ce5671461034c57806340c10f191461029457806370a082311461025a5780638da5cb5b1461023157806395d89b4114610110578063a9059cbb146100eb5763dd62ed3e1461009557600080fd5b346100e65760403660031901126100e6576100ae610525565b6100b661053b565b6001600160a01b039182166000908152600560209081526040808320949093168252928352819020549051908152f35b600080fd5b346100e65760403660031901126100e657610104610525565b50602060405160008152f35b346100e65760003660031901126100e6576000604051816001548060011c90600181168015610227575b602083108114610213578285529081156101f757506001146101a3575b50819003601f01601f1916810167ffffffffffffffff81118282101761018f5761018b9250604052604051918291826104dc565b0390f35b634e487b7160e01b83526041600452602483fd5b600184529050827fb10e2d527612073b26eecdfd717e6a320cf44b4afac2b0732d9fcbe2b7fa0cf65b8282106101e157506020915082010183610157565b60018160209254838588010152019101906101cc565b90506020925060ff191682840152151560051b82010183610157565b634e487b7160e01b86526022600452602486fd5b91607f169161013a565b346100e65760003660031901126100e6576002546040516001600160a01b039091168152602090f35b346100e65760203660031901126100e6576001600160a01b0361027b610525565b1660005260046020526020604060002054604051908152f35b346100e65760403660031901126100e6576102ad610525565b60025460243591906001600160a01b0316330361033b576001600160a01b031690811561032a577fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef602082610306600094600354610551565b600355848452600482526040842061031f828254610551565b9055604051908152a3005b63d92e233d60e01b60005260046000fd5b6330cd747160e01b60005260046000fd5b346100e65760003660031901126100e657602060405160068152f35b346100e65760603660031901126100e657610381610525565b5061010461053b565b346100e65760003660031901126100e6576020600354604051908152f35b346100e65760403660031901126100e6576103c1610525565b3360008181526005602090815260408083206001600160a01b03909516808452948252918290206024359081905591519182527f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b92591a3602060405160018152f35b346100e65760003660031901126100e65760006040518182548060011c906001811680156104d2575b602083108114610213578285529081156101f7575060011461049b5750819003601f01601f1916810167ffffffffffffffff81118282101761018f5761018b9250604052604051918291826104dc565b90508280526020832083905b8282106104bc57506020915082010183610157565b60018160209254838588010152019101906104a7565b91607f169161044b565b91909160208152825180602083015260005b81811061050f575060409293506000838284010152601f8019910116010190565b80602080928701015160408286010152016104ee565b600435906001600160a01b03821682036100e657565b602435906001600160a01b03821682036100e657565b9190820180921161055e57565b634e487b7160e01b600052601160045260246000fd",
}

// TestFailingToken is an auto generated Go binding around an Ethereum contract.
type TestFailingToken struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *TestFailingToken) GetABI() abi.ABI {
	return c.abi
}

// NewTestFailingToken creates a new instance of TestFailingToken.
func NewTestFailingToken() *TestFailingToken {
	parsed, err := TestFailingTokenMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &TestFailingToken{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *TestFailingToken) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(string name_, string symbol_) returns()
func (testFailingToken *TestFailingToken) PackConstructor(name_ string, symbol_ string) []byte {
	enc, err := testFailingToken.abi.Pack("", name_, symbol_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdd62ed3e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function allowance(address , address ) view returns(uint256)
func (testFailingToken *TestFailingToken) PackAllowance(arg0 common.Address, arg1 common.Address) []byte {
	enc, err := testFailingToken.abi.Pack("allowance", arg0, arg1)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdd62ed3e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function allowance(address , address ) view returns(uint256)
func (testFailingToken *TestFailingToken) TryPackAllowance(arg0 common.Address, arg1 common.Address) ([]byte, error) {
	return testFailingToken.abi.Pack("allowance", arg0, arg1)
}

// UnpackAllowance is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xdd62ed3e.
//
// Solidity: function allowance(address , address ) view returns(uint256)
func (testFailingToken *TestFailingToken) UnpackAllowance(data []byte) (*big.Int, error) {
	out, err := testFailingToken.abi.Unpack("allowance", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackApprove is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x095ea7b3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function approve(address spender, uint256 amount) returns(bool)
func (testFailingToken *TestFailingToken) PackApprove(spender common.Address, amount *big.Int) []byte {
	enc, err := testFailingToken.abi.Pack("approve", spender, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackApprove is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x095ea7b3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function approve(address spender, uint256 amount) returns(bool)
func (testFailingToken *TestFailingToken) TryPackApprove(spender common.Address, amount *big.Int) ([]byte, error) {
	return testFailingToken.abi.Pack("approve", spender, amount)
}

// UnpackApprove is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x095ea7b3.
//
// Solidity: function approve(address spender, uint256 amount) returns(bool)
func (testFailingToken *TestFailingToken) UnpackApprove(data []byte) (bool, error) {
	out, err := testFailingToken.abi.Unpack("approve", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (testFailingToken *TestFailingToken) PackBalanceOf(arg0 common.Address) []byte {
	enc, err := testFailingToken.abi.Pack("balanceOf", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (testFailingToken *TestFailingToken) TryPackBalanceOf(arg0 common.Address) ([]byte, error) {
	return testFailingToken.abi.Pack("balanceOf", arg0)
}

// UnpackBalanceOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x70a08231.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (testFailingToken *TestFailingToken) UnpackBalanceOf(data []byte) (*big.Int, error) {
	out, err := testFailingToken.abi.Unpack("balanceOf", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function decimals() pure returns(uint8)
func (testFailingToken *TestFailingToken) PackDecimals() []byte {
	enc, err := testFailingToken.abi.Pack("decimals")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function decimals() pure returns(uint8)
func (testFailingToken *TestFailingToken) TryPackDecimals() ([]byte, error) {
	return testFailingToken.abi.Pack("decimals")
}

// UnpackDecimals is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x313ce567.
//
// Solidity: function decimals() pure returns(uint8)
func (testFailingToken *TestFailingToken) UnpackDecimals(data []byte) (uint8, error) {
	out, err := testFailingToken.abi.Unpack("decimals", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackMint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x40c10f19.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function mint(address to, uint256 amount) returns()
func (testFailingToken *TestFailingToken) PackMint(to common.Address, amount *big.Int) []byte {
	enc, err := testFailingToken.abi.Pack("mint", to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x40c10f19.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function mint(address to, uint256 amount) returns()
func (testFailingToken *TestFailingToken) TryPackMint(to common.Address, amount *big.Int) ([]byte, error) {
	return testFailingToken.abi.Pack("mint", to, amount)
}

// PackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function name() view returns(string)
func (testFailingToken *TestFailingToken) PackName() []byte {
	enc, err := testFailingToken.abi.Pack("name")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function name() view returns(string)
func (testFailingToken *TestFailingToken) TryPackName() ([]byte, error) {
	return testFailingToken.abi.Pack("name")
}

// UnpackName is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x06fdde03.
//
// Solidity: function name() view returns(string)
func (testFailingToken *TestFailingToken) UnpackName(data []byte) (string, error) {
	out, err := testFailingToken.abi.Unpack("name", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owner() view returns(address)
func (testFailingToken *TestFailingToken) PackOwner() []byte {
	enc, err := testFailingToken.abi.Pack("owner")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function owner() view returns(address)
func (testFailingToken *TestFailingToken) TryPackOwner() ([]byte, error) {
	return testFailingToken.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (testFailingToken *TestFailingToken) UnpackOwner(data []byte) (common.Address, error) {
	out, err := testFailingToken.abi.Unpack("owner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackSymbol is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x95d89b41.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function symbol() view returns(string)
func (testFailingToken *TestFailingToken) PackSymbol() []byte {
	enc, err := testFailingToken.abi.Pack("symbol")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSymbol is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x95d89b41.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function symbol() view returns(string)
func (testFailingToken *TestFailingToken) TryPackSymbol() ([]byte, error) {
	return testFailingToken.abi.Pack("symbol")
}

// UnpackSymbol is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x95d89b41.
//
// Solidity: function symbol() view returns(string)
func (testFailingToken *TestFailingToken) UnpackSymbol(data []byte) (string, error) {
	out, err := testFailingToken.abi.Unpack("symbol", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackTotalSupply is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18160ddd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function totalSupply() view returns(uint256)
func (testFailingToken *TestFailingToken) PackTotalSupply() []byte {
	enc, err := testFailingToken.abi.Pack("totalSupply")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTotalSupply is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18160ddd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function totalSupply() view returns(uint256)
func (testFailingToken *TestFailingToken) TryPackTotalSupply() ([]byte, error) {
	return testFailingToken.abi.Pack("totalSupply")
}

// UnpackTotalSupply is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x18160ddd.
//
// Solidity: function totalSupply() view returns(uint256)
func (testFailingToken *TestFailingToken) UnpackTotalSupply(data []byte) (*big.Int, error) {
	out, err := testFailingToken.abi.Unpack("totalSupply", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9059cbb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transfer(address , uint256 ) pure returns(bool)
func (testFailingToken *TestFailingToken) PackTransfer(arg0 common.Address, arg1 *big.Int) []byte {
	enc, err := testFailingToken.abi.Pack("transfer", arg0, arg1)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9059cbb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transfer(address , uint256 ) pure returns(bool)
func (testFailingToken *TestFailingToken) TryPackTransfer(arg0 common.Address, arg1 *big.Int) ([]byte, error) {
	return testFailingToken.abi.Pack("transfer", arg0, arg1)
}

// UnpackTransfer is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa9059cbb.
//
// Solidity: function transfer(address , uint256 ) pure returns(bool)
func (testFailingToken *TestFailingToken) UnpackTransfer(data []byte) (bool, error) {
	out, err := testFailingToken.abi.Unpack("transfer", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23b872dd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transferFrom(address , address , uint256 ) pure returns(bool)
func (testFailingToken *TestFailingToken) PackTransferFrom(arg0 common.Address, arg1 common.Address, arg2 *big.Int) []byte {
	enc, err := testFailingToken.abi.Pack("transferFrom", arg0, arg1, arg2)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23b872dd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transferFrom(address , address , uint256 ) pure returns(bool)
func (testFailingToken *TestFailingToken) TryPackTransferFrom(arg0 common.Address, arg1 common.Address, arg2 *big.Int) ([]byte, error) {
	return testFailingToken.abi.Pack("transferFrom", arg0, arg1, arg2)
}

// UnpackTransferFrom is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x23b872dd.
//
// Solidity: function transferFrom(address , address , uint256 ) pure returns(bool)
func (testFailingToken *TestFailingToken) UnpackTransferFrom(data []byte) (bool, error) {
	out, err := testFailingToken.abi.Unpack("transferFrom", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// TestFailingTokenApproval represents a Approval event raised by the TestFailingToken contract.
type TestFailingTokenApproval struct {
	Owner   common.Address
	Spender common.Address
	Value   *big.Int
	Raw     *types.Log // Blockchain specific contextual infos
}

const TestFailingTokenApprovalEventName = "Approval"

// ContractEventName returns the user-defined event name.
func (TestFailingTokenApproval) ContractEventName() string {
	return TestFailingTokenApprovalEventName
}

// UnpackApprovalEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Approval(address indexed owner, address indexed spender, uint256 value)
func (testFailingToken *TestFailingToken) UnpackApprovalEvent(log *types.Log) (*TestFailingTokenApproval, error) {
	event := "Approval"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != testFailingToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(TestFailingTokenApproval)
	if len(log.Data) > 0 {
		if err := testFailingToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range testFailingToken.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// TestFailingTokenTransfer represents a Transfer event raised by the TestFailingToken contract.
type TestFailingTokenTransfer struct {
	From  common.Address
	To    common.Address
	Value *big.Int
	Raw   *types.Log // Blockchain specific contextual infos
}

const TestFailingTokenTransferEventName = "Transfer"

// ContractEventName returns the user-defined event name.
func (TestFailingTokenTransfer) ContractEventName() string {
	return TestFailingTokenTransferEventName
}

// UnpackTransferEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Transfer(address indexed from, address indexed to, uint256 value)
func (testFailingToken *TestFailingToken) UnpackTransferEvent(log *types.Log) (*TestFailingTokenTransfer, error) {
	event := "Transfer"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != testFailingToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(TestFailingTokenTransfer)
	if len(log.Data) > 0 {
		if err := testFailingToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range testFailingToken.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// UnpackError attempts to decode the provided error data using user-defined
// error definitions.
func (testFailingToken *TestFailingToken) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], testFailingToken.abi.Errors["InsufficientAllowance"].ID.Bytes()[:4]) {
		return testFailingToken.UnpackInsufficientAllowanceError(raw[4:])
	}
	if bytes.Equal(raw[:4], testFailingToken.abi.Errors["InsufficientBalance"].ID.Bytes()[:4]) {
		return testFailingToken.UnpackInsufficientBalanceError(raw[4:])
	}
	if bytes.Equal(raw[:4], testFailingToken.abi.Errors["NotOwner"].ID.Bytes()[:4]) {
		return testFailingToken.UnpackNotOwnerError(raw[4:])
	}
	if bytes.Equal(raw[:4], testFailingToken.abi.Errors["ZeroAddress"].ID.Bytes()[:4]) {
		return testFailingToken.UnpackZeroAddressError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// TestFailingTokenInsufficientAllowance represents a InsufficientAllowance error raised by the TestFailingToken contract.
type TestFailingTokenInsufficientAllowance struct {
	Available *big.Int
	Required  *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InsufficientAllowance(uint256 available, uint256 required)
func TestFailingTokenInsufficientAllowanceErrorID() common.Hash {
	return common.HexToHash("0x2a1b2dd846b7c4bf41216c8f38fc58089000eb0b20edf03e6f81ecadbe2cbedf")
}

// UnpackInsufficientAllowanceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InsufficientAllowance(uint256 available, uint256 required)
func (testFailingToken *TestFailingToken) UnpackInsufficientAllowanceError(raw []byte) (*TestFailingTokenInsufficientAllowance, error) {
	out := new(TestFailingTokenInsufficientAllowance)
	if err := testFailingToken.abi.UnpackIntoInterface(out, "InsufficientAllowance", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// TestFailingTokenInsufficientBalance represents a InsufficientBalance error raised by the TestFailingToken contract.
type TestFailingTokenInsufficientBalance struct {
	Available *big.Int
	Required  *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InsufficientBalance(uint256 available, uint256 required)
func TestFailingTokenInsufficientBalanceErrorID() common.Hash {
	return common.HexToHash("0xcf4791818fba6e019216eb4864093b4947f674afada5d305e57d598b641dad1d")
}

// UnpackInsufficientBalanceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InsufficientBalance(uint256 available, uint256 required)
func (testFailingToken *TestFailingToken) UnpackInsufficientBalanceError(raw []byte) (*TestFailingTokenInsufficientBalance, error) {
	out := new(TestFailingTokenInsufficientBalance)
	if err := testFailingToken.abi.UnpackIntoInterface(out, "InsufficientBalance", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// TestFailingTokenNotOwner represents a NotOwner error raised by the TestFailingToken contract.
type TestFailingTokenNotOwner struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotOwner()
func TestFailingTokenNotOwnerErrorID() common.Hash {
	return common.HexToHash("0x30cd74712f59d478562d48e2d35de830db72c60a63dd08ae59199eec990b5bc4")
}

// UnpackNotOwnerError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotOwner()
func (testFailingToken *TestFailingToken) UnpackNotOwnerError(raw []byte) (*TestFailingTokenNotOwner, error) {
	out := new(TestFailingTokenNotOwner)
	if err := testFailingToken.abi.UnpackIntoInterface(out, "NotOwner", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// TestFailingTokenZeroAddress represents a ZeroAddress error raised by the TestFailingToken contract.
type TestFailingTokenZeroAddress struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ZeroAddress()
func TestFailingTokenZeroAddressErrorID() common.Hash {
	return common.HexToHash("0xd92e233df2717d4a40030e20904abd27b68fcbeede117eaaccbbdac9618c8c73")
}

// UnpackZeroAddressError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ZeroAddress()
func (testFailingToken *TestFailingToken) UnpackZeroAddressError(raw []byte) (*TestFailingTokenZeroAddress, error) {
	out := new(TestFailingTokenZeroAddress)
	if err := testFailingToken.abi.UnpackIntoInterface(out, "ZeroAddress", raw); err != nil {
		return nil, err
	}
	return out, nil
}
