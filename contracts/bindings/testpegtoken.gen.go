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

// TestPegTokenMetaData contains all meta data concerning the TestPegToken contract.
var TestPegTokenMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"string\",\"name\":\"name_\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"symbol_\",\"type\":\"string\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"available\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"required\",\"type\":\"uint256\"}],\"name\":\"InsufficientAllowance\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"available\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"required\",\"type\":\"uint256\"}],\"name\":\"InsufficientBalance\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotOwner\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAddress\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Approval\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Transfer\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"allowance\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"approve\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"balanceOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"decimals\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"mint\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"name\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"symbol\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"totalSupply\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"transfer\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"transferFrom\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "TestPegToken",
	Bin: "0x60806040523461034e57610a968038038061001981610353565b92833981019060408183031261034e5780516001600160401b03811161034e5782610045918301610378565b60208201519092906001600160401b03811161034e576100659201610378565b81516001600160401b03811161024e57600054600181811c91168015610344575b602082101461022e57601f81116102d3575b50602092601f821160011461026f5792819293600092610264575b50508160011b916000199060031b1c1916176000555b80516001600160401b03811161024e57600154600181811c91168015610244575b602082101461022e57601f81116101bc575b50602091601f82116001146101585791819260009261014d575b50508160011b916000199060031b1c1916176001555b600280546001600160a01b031916331790556040516106b290816103e48239f35b015190503880610116565b601f198216926001600052806000209160005b8581106101a45750836001951061018b575b505050811b0160015561012c565b015160001960f88460031b161c1916905538808061017d565b9192602060018192868501518155019401920161016b565b818111156100fc576001600052601f820160051c7fb10e2d527612073b26eecdfd717e6a320cf44b4afac2b0732d9fcbe2b7fa0cf660208410610225575b81601f9101920160051c039060005b8281106102175750506100fc565b600082820155600101610209565b600091506101fa565b634e487b7160e01b600052602260045260246000fd5b90607f16906100ea565b634e487b7160e01b600052604160045260246000fd5b0151905038806100b3565b601f1982169360008052806000209160005b8681106102bb57508360019596106102a2575b505050811b016000556100c9565b015160001960f88460031b161c19169055388080610294565b91926020600181928685015181550194019201610281565b818111156100985760008052601f820160051c7f290decd9548b62a8d60345a988386fc84ba6bc95484008f6362f93160ef3e5636020841061033b575b81601f9101920160051c039060005b82811061032d575050610098565b60008282015560010161031f565b60009150610310565b90607f1690610086565b600080fd5b6040519190601f01601f191682016001600160401b0381118382101761024e57604052565b81601f8201121561034e578051906001600160401b03821161024e576103a7601f8301601f1916602001610353565b928284526020838301011161034e5760005b8281106103ce57505060206000918301015290565b806020809284010151828287010152016103b956fe6080604052600436101561001257600080fd5b60003560e01c806306fdde03146104bc578063095ea7b31461044257806318160ddd1461042457806323b872dd14610374578063313ce5671461035857806340c10f19146102a057806370a08231146102665780638da5cb5b1461023d57806395d89b411461011c578063a9059cbb146100eb5763dd62ed3e1461009557600080fd5b346100e65760403660031901126100e6576100ae6105bf565b6100b66105d5565b6001600160a01b039182166000908152600560209081526040808320949093168252928352819020549051908152f35b600080fd5b346100e65760403660031901126100e6576101116101076105bf565b602435903361060e565b602060405160018152f35b346100e65760003660031901126100e6576000604051816001548060011c90600181168015610233575b60208310811461021f5782855290811561020357506001146101af575b50819003601f01601f1916810167ffffffffffffffff81118282101761019b57610197925060405260405191829182610576565b0390f35b634e487b7160e01b83526041600452602483fd5b600184529050827fb10e2d527612073b26eecdfd717e6a320cf44b4afac2b0732d9fcbe2b7fa0cf65b8282106101ed57506020915082010183610163565b60018160209254838588010152019101906101d8565b90506020925060ff191682840152151560051b82010183610163565b634e487b7160e01b86526022600452602486fd5b91607f1691610146565b346100e65760003660031901126100e6576002546040516001600160a01b039091168152602090f35b346100e65760203660031901126100e6576001600160a01b036102876105bf565b1660005260046020526020604060002054604051908152f35b346100e65760403660031901126100e6576102b96105bf565b60025460243591906001600160a01b03163303610347576001600160a01b0316908115610336577fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef6020826103126000946003546105eb565b600355848452600482526040842061032b8282546105eb565b9055604051908152a3005b63d92e233d60e01b60005260046000fd5b6330cd747160e01b60005260046000fd5b346100e65760003660031901126100e657602060405160128152f35b346100e65760603660031901126100e65761038d6105bf565b6103956105d5565b6001600160a01b0382166000818152600560209081526040808320338452909152902054926044359291600185016103d3575b50610111935061060e565b83851061040b5793610111946000526005602052604060002060018060a01b03331660005260205283604060002091039055846103c8565b838563054365bb60e31b60005260045260245260446000fd5b346100e65760003660031901126100e6576020600354604051908152f35b346100e65760403660031901126100e65761045b6105bf565b3360008181526005602090815260408083206001600160a01b03909516808452948252918290206024359081905591519182527f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b92591a3602060405160018152f35b346100e65760003660031901126100e65760006040518182548060011c9060018116801561056c575b60208310811461021f5782855290811561020357506001146105355750819003601f01601f1916810167ffffffffffffffff81118282101761019b57610197925060405260405191829182610576565b90508280526020832083905b82821061055657506020915082010183610163565b6001816020925483858801015201910190610541565b91607f16916104e5565b91909160208152825180602083015260005b8181106105a9575060409293506000838284010152601f8019910116010190565b8060208092870101516040828601015201610588565b600435906001600160a01b03821682036100e657565b602435906001600160a01b03821682036100e657565b919082018092116105f857565b634e487b7160e01b600052601160045260246000fd5b6001600160a01b0390911691908215610336576001600160a01b031660008181526004602052604090205490919081811061069b57817fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef92602092856000526004845203604060002055846000526004825260406000206106908282546105eb565b9055604051908152a3565b63cf47918160e01b60005260045260245260446000fd",
}

// TestPegToken is an auto generated Go binding around an Ethereum contract.
type TestPegToken struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *TestPegToken) GetABI() abi.ABI {
	return c.abi
}

// NewTestPegToken creates a new instance of TestPegToken.
func NewTestPegToken() *TestPegToken {
	parsed, err := TestPegTokenMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &TestPegToken{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *TestPegToken) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(string name_, string symbol_) returns()
func (testPegToken *TestPegToken) PackConstructor(name_ string, symbol_ string) []byte {
	enc, err := testPegToken.abi.Pack("", name_, symbol_)
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
func (testPegToken *TestPegToken) PackAllowance(arg0 common.Address, arg1 common.Address) []byte {
	enc, err := testPegToken.abi.Pack("allowance", arg0, arg1)
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
func (testPegToken *TestPegToken) TryPackAllowance(arg0 common.Address, arg1 common.Address) ([]byte, error) {
	return testPegToken.abi.Pack("allowance", arg0, arg1)
}

// UnpackAllowance is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xdd62ed3e.
//
// Solidity: function allowance(address , address ) view returns(uint256)
func (testPegToken *TestPegToken) UnpackAllowance(data []byte) (*big.Int, error) {
	out, err := testPegToken.abi.Unpack("allowance", data)
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
func (testPegToken *TestPegToken) PackApprove(spender common.Address, amount *big.Int) []byte {
	enc, err := testPegToken.abi.Pack("approve", spender, amount)
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
func (testPegToken *TestPegToken) TryPackApprove(spender common.Address, amount *big.Int) ([]byte, error) {
	return testPegToken.abi.Pack("approve", spender, amount)
}

// UnpackApprove is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x095ea7b3.
//
// Solidity: function approve(address spender, uint256 amount) returns(bool)
func (testPegToken *TestPegToken) UnpackApprove(data []byte) (bool, error) {
	out, err := testPegToken.abi.Unpack("approve", data)
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
func (testPegToken *TestPegToken) PackBalanceOf(arg0 common.Address) []byte {
	enc, err := testPegToken.abi.Pack("balanceOf", arg0)
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
func (testPegToken *TestPegToken) TryPackBalanceOf(arg0 common.Address) ([]byte, error) {
	return testPegToken.abi.Pack("balanceOf", arg0)
}

// UnpackBalanceOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x70a08231.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (testPegToken *TestPegToken) UnpackBalanceOf(data []byte) (*big.Int, error) {
	out, err := testPegToken.abi.Unpack("balanceOf", data)
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
func (testPegToken *TestPegToken) PackDecimals() []byte {
	enc, err := testPegToken.abi.Pack("decimals")
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
func (testPegToken *TestPegToken) TryPackDecimals() ([]byte, error) {
	return testPegToken.abi.Pack("decimals")
}

// UnpackDecimals is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x313ce567.
//
// Solidity: function decimals() pure returns(uint8)
func (testPegToken *TestPegToken) UnpackDecimals(data []byte) (uint8, error) {
	out, err := testPegToken.abi.Unpack("decimals", data)
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
func (testPegToken *TestPegToken) PackMint(to common.Address, amount *big.Int) []byte {
	enc, err := testPegToken.abi.Pack("mint", to, amount)
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
func (testPegToken *TestPegToken) TryPackMint(to common.Address, amount *big.Int) ([]byte, error) {
	return testPegToken.abi.Pack("mint", to, amount)
}

// PackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function name() view returns(string)
func (testPegToken *TestPegToken) PackName() []byte {
	enc, err := testPegToken.abi.Pack("name")
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
func (testPegToken *TestPegToken) TryPackName() ([]byte, error) {
	return testPegToken.abi.Pack("name")
}

// UnpackName is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x06fdde03.
//
// Solidity: function name() view returns(string)
func (testPegToken *TestPegToken) UnpackName(data []byte) (string, error) {
	out, err := testPegToken.abi.Unpack("name", data)
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
func (testPegToken *TestPegToken) PackOwner() []byte {
	enc, err := testPegToken.abi.Pack("owner")
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
func (testPegToken *TestPegToken) TryPackOwner() ([]byte, error) {
	return testPegToken.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (testPegToken *TestPegToken) UnpackOwner(data []byte) (common.Address, error) {
	out, err := testPegToken.abi.Unpack("owner", data)
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
func (testPegToken *TestPegToken) PackSymbol() []byte {
	enc, err := testPegToken.abi.Pack("symbol")
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
func (testPegToken *TestPegToken) TryPackSymbol() ([]byte, error) {
	return testPegToken.abi.Pack("symbol")
}

// UnpackSymbol is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x95d89b41.
//
// Solidity: function symbol() view returns(string)
func (testPegToken *TestPegToken) UnpackSymbol(data []byte) (string, error) {
	out, err := testPegToken.abi.Unpack("symbol", data)
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
func (testPegToken *TestPegToken) PackTotalSupply() []byte {
	enc, err := testPegToken.abi.Pack("totalSupply")
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
func (testPegToken *TestPegToken) TryPackTotalSupply() ([]byte, error) {
	return testPegToken.abi.Pack("totalSupply")
}

// UnpackTotalSupply is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x18160ddd.
//
// Solidity: function totalSupply() view returns(uint256)
func (testPegToken *TestPegToken) UnpackTotalSupply(data []byte) (*big.Int, error) {
	out, err := testPegToken.abi.Unpack("totalSupply", data)
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
// Solidity: function transfer(address to, uint256 amount) returns(bool)
func (testPegToken *TestPegToken) PackTransfer(to common.Address, amount *big.Int) []byte {
	enc, err := testPegToken.abi.Pack("transfer", to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9059cbb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transfer(address to, uint256 amount) returns(bool)
func (testPegToken *TestPegToken) TryPackTransfer(to common.Address, amount *big.Int) ([]byte, error) {
	return testPegToken.abi.Pack("transfer", to, amount)
}

// UnpackTransfer is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa9059cbb.
//
// Solidity: function transfer(address to, uint256 amount) returns(bool)
func (testPegToken *TestPegToken) UnpackTransfer(data []byte) (bool, error) {
	out, err := testPegToken.abi.Unpack("transfer", data)
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
// Solidity: function transferFrom(address from, address to, uint256 amount) returns(bool)
func (testPegToken *TestPegToken) PackTransferFrom(from common.Address, to common.Address, amount *big.Int) []byte {
	enc, err := testPegToken.abi.Pack("transferFrom", from, to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23b872dd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transferFrom(address from, address to, uint256 amount) returns(bool)
func (testPegToken *TestPegToken) TryPackTransferFrom(from common.Address, to common.Address, amount *big.Int) ([]byte, error) {
	return testPegToken.abi.Pack("transferFrom", from, to, amount)
}

// UnpackTransferFrom is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x23b872dd.
//
// Solidity: function transferFrom(address from, address to, uint256 amount) returns(bool)
func (testPegToken *TestPegToken) UnpackTransferFrom(data []byte) (bool, error) {
	out, err := testPegToken.abi.Unpack("transferFrom", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// TestPegTokenApproval represents a Approval event raised by the TestPegToken contract.
type TestPegTokenApproval struct {
	Owner   common.Address
	Spender common.Address
	Value   *big.Int
	Raw     *types.Log // Blockchain specific contextual infos
}

const TestPegTokenApprovalEventName = "Approval"

// ContractEventName returns the user-defined event name.
func (TestPegTokenApproval) ContractEventName() string {
	return TestPegTokenApprovalEventName
}

// UnpackApprovalEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Approval(address indexed owner, address indexed spender, uint256 value)
func (testPegToken *TestPegToken) UnpackApprovalEvent(log *types.Log) (*TestPegTokenApproval, error) {
	event := "Approval"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != testPegToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(TestPegTokenApproval)
	if len(log.Data) > 0 {
		if err := testPegToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range testPegToken.abi.Events[event].Inputs {
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

// TestPegTokenTransfer represents a Transfer event raised by the TestPegToken contract.
type TestPegTokenTransfer struct {
	From  common.Address
	To    common.Address
	Value *big.Int
	Raw   *types.Log // Blockchain specific contextual infos
}

const TestPegTokenTransferEventName = "Transfer"

// ContractEventName returns the user-defined event name.
func (TestPegTokenTransfer) ContractEventName() string {
	return TestPegTokenTransferEventName
}

// UnpackTransferEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Transfer(address indexed from, address indexed to, uint256 value)
func (testPegToken *TestPegToken) UnpackTransferEvent(log *types.Log) (*TestPegTokenTransfer, error) {
	event := "Transfer"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != testPegToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(TestPegTokenTransfer)
	if len(log.Data) > 0 {
		if err := testPegToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range testPegToken.abi.Events[event].Inputs {
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
func (testPegToken *TestPegToken) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], testPegToken.abi.Errors["InsufficientAllowance"].ID.Bytes()[:4]) {
		return testPegToken.UnpackInsufficientAllowanceError(raw[4:])
	}
	if bytes.Equal(raw[:4], testPegToken.abi.Errors["InsufficientBalance"].ID.Bytes()[:4]) {
		return testPegToken.UnpackInsufficientBalanceError(raw[4:])
	}
	if bytes.Equal(raw[:4], testPegToken.abi.Errors["NotOwner"].ID.Bytes()[:4]) {
		return testPegToken.UnpackNotOwnerError(raw[4:])
	}
	if bytes.Equal(raw[:4], testPegToken.abi.Errors["ZeroAddress"].ID.Bytes()[:4]) {
		return testPegToken.UnpackZeroAddressError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// TestPegTokenInsufficientAllowance represents a InsufficientAllowance error raised by the TestPegToken contract.
type TestPegTokenInsufficientAllowance struct {
	Available *big.Int
	Required  *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InsufficientAllowance(uint256 available, uint256 required)
func TestPegTokenInsufficientAllowanceErrorID() common.Hash {
	return common.HexToHash("0x2a1b2dd846b7c4bf41216c8f38fc58089000eb0b20edf03e6f81ecadbe2cbedf")
}

// UnpackInsufficientAllowanceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InsufficientAllowance(uint256 available, uint256 required)
func (testPegToken *TestPegToken) UnpackInsufficientAllowanceError(raw []byte) (*TestPegTokenInsufficientAllowance, error) {
	out := new(TestPegTokenInsufficientAllowance)
	if err := testPegToken.abi.UnpackIntoInterface(out, "InsufficientAllowance", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// TestPegTokenInsufficientBalance represents a InsufficientBalance error raised by the TestPegToken contract.
type TestPegTokenInsufficientBalance struct {
	Available *big.Int
	Required  *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InsufficientBalance(uint256 available, uint256 required)
func TestPegTokenInsufficientBalanceErrorID() common.Hash {
	return common.HexToHash("0xcf4791818fba6e019216eb4864093b4947f674afada5d305e57d598b641dad1d")
}

// UnpackInsufficientBalanceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InsufficientBalance(uint256 available, uint256 required)
func (testPegToken *TestPegToken) UnpackInsufficientBalanceError(raw []byte) (*TestPegTokenInsufficientBalance, error) {
	out := new(TestPegTokenInsufficientBalance)
	if err := testPegToken.abi.UnpackIntoInterface(out, "InsufficientBalance", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// TestPegTokenNotOwner represents a NotOwner error raised by the TestPegToken contract.
type TestPegTokenNotOwner struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotOwner()
func TestPegTokenNotOwnerErrorID() common.Hash {
	return common.HexToHash("0x30cd74712f59d478562d48e2d35de830db72c60a63dd08ae59199eec990b5bc4")
}

// UnpackNotOwnerError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotOwner()
func (testPegToken *TestPegToken) UnpackNotOwnerError(raw []byte) (*TestPegTokenNotOwner, error) {
	out := new(TestPegTokenNotOwner)
	if err := testPegToken.abi.UnpackIntoInterface(out, "NotOwner", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// TestPegTokenZeroAddress represents a ZeroAddress error raised by the TestPegToken contract.
type TestPegTokenZeroAddress struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ZeroAddress()
func TestPegTokenZeroAddressErrorID() common.Hash {
	return common.HexToHash("0xd92e233df2717d4a40030e20904abd27b68fcbeede117eaaccbbdac9618c8c73")
}

// UnpackZeroAddressError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ZeroAddress()
func (testPegToken *TestPegToken) UnpackZeroAddressError(raw []byte) (*TestPegTokenZeroAddress, error) {
	out := new(TestPegTokenZeroAddress)
	if err := testPegToken.abi.UnpackIntoInterface(out, "ZeroAddress", raw); err != nil {
		return nil, err
	}
	return out, nil
}
