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

// TestPriceFeedMetaData contains all meta data concerning the TestPriceFeed contract.
var TestPriceFeedMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"uint8\",\"name\":\"decimals_\",\"type\":\"uint8\"},{\"internalType\":\"string\",\"name\":\"description_\",\"type\":\"string\"},{\"internalType\":\"int256\",\"name\":\"answer_\",\"type\":\"int256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[],\"name\":\"NotOwner\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"int256\",\"name\":\"current\",\"type\":\"int256\"},{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"roundId\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"updatedAt\",\"type\":\"uint256\"}],\"name\":\"AnswerUpdated\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"decimals\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"description\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"latestRoundData\",\"outputs\":[{\"internalType\":\"uint80\",\"name\":\"roundId\",\"type\":\"uint80\"},{\"internalType\":\"int256\",\"name\":\"answer\",\"type\":\"int256\"},{\"internalType\":\"uint256\",\"name\":\"startedAt\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"updatedAt\",\"type\":\"uint256\"},{\"internalType\":\"uint80\",\"name\":\"answeredInRound\",\"type\":\"uint80\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"int256\",\"name\":\"answer_\",\"type\":\"int256\"}],\"name\":\"setAnswer\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"version\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	ID:  "TestPriceFeed",
	Bin: "0x60c0604052346102dc5761068080380380610019816102e1565b9283398101906060818303126102dc5780519060ff821682036102dc5760208101516001600160401b0381116102dc57810183601f820112156102dc578051906001600160401b0382116102b15761007a601f8301601f19166020016102e1565b94828652602083830101116102dc5760005b8281106102c7575050600090840160200152604001513360805260a09190915281516001600160401b0381116102b157600054600181811c911680156102a7575b602082101461029157601f8111610220575b50602092601f82116001146101bc57928192936000926101b1575b50508160011b916000199060031b1c1916176000555b6001805491906001600160501b0380841690910190811161019b5760018060501b0316809260018060501b0319161760015580600255426003557f0559884fd3a460db3073b7fc896cc77986f16e378210ded43186175bf646fc5f6020604051428152a36040516103799081610307823960805181818160c00152610197015260a051816103550152f35b634e487b7160e01b600052601160045260246000fd5b0151905038806100fa565b601f1982169360008052806000209160005b86811061020857508360019596106101ef575b505050811b01600055610110565b015160001960f88460031b161c191690553880806101e1565b919260206001819286850151815501940192016101ce565b818111156100df5760008052601f820160051c7f290decd9548b62a8d60345a988386fc84ba6bc95484008f6362f93160ef3e56360208410610288575b81601f9101920160051c039060005b82811061027a5750506100df565b60008282015560010161026c565b6000915061025d565b634e487b7160e01b600052602260045260246000fd5b90607f16906100cd565b634e487b7160e01b600052604160045260246000fd5b8060208092840101518282890101520161008c565b600080fd5b6040519190601f01601f191682016001600160401b038111838210176102b15760405256fe608080604052600436101561001357600080fd5b60003560e01c908163313ce5671461033d5750806354fd4d50146103215780637284e416146101c65780638da5cb5b1461018157806399213cd8146100aa5763feaf968c1461006157600080fd5b346100a55760003660031901126100a55760a06001600160501b03600154166002549060035460405192828452602084015280604084015260608301526080820152f35b600080fd5b346100a55760203660031901126100a5576004357f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03163303610170576001549060016001600160501b038316016001600160501b03811161015a576001600160501b031680926001600160501b0319161760015580600255426003557f0559884fd3a460db3073b7fc896cc77986f16e378210ded43186175bf646fc5f6020604051428152a3005b634e487b7160e01b600052601160045260246000fd5b6330cd747160e01b60005260046000fd5b346100a55760003660031901126100a5576040517f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03168152602090f35b346100a55760003660031901126100a557604051600080548060011c90600181168015610317575b602083108114610303578285529081156102e75750600114610291575b50819003601f01601f191681019067ffffffffffffffff82118183101761027b5781604052602082528181519182602083015260005b8381106102635750508160006040809484010152601f80199101168101030190f35b60208282018101516040878401015285935001610241565b634e487b7160e01b600052604160045260246000fd5b9050600080527f290decd9548b62a8d60345a988386fc84ba6bc95484008f6362f93160ef3e5636000905b8282106102d15750602091508201018261020b565b60018160209254838588010152019101906102bc565b90506020925060ff191682840152151560051b8201018261020b565b634e487b7160e01b84526022600452602484fd5b91607f16916101ee565b346100a55760003660031901126100a557602060405160048152f35b346100a55760003660031901126100a55760209060ff7f0000000000000000000000000000000000000000000000000000000000000000168152f3",
}

// TestPriceFeed is an auto generated Go binding around an Ethereum contract.
type TestPriceFeed struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *TestPriceFeed) GetABI() abi.ABI {
	return c.abi
}

// NewTestPriceFeed creates a new instance of TestPriceFeed.
func NewTestPriceFeed() *TestPriceFeed {
	parsed, err := TestPriceFeedMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &TestPriceFeed{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *TestPriceFeed) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(uint8 decimals_, string description_, int256 answer_) returns()
func (testPriceFeed *TestPriceFeed) PackConstructor(decimals_ uint8, description_ string, answer_ *big.Int) []byte {
	enc, err := testPriceFeed.abi.Pack("", decimals_, description_, answer_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function decimals() view returns(uint8)
func (testPriceFeed *TestPriceFeed) PackDecimals() []byte {
	enc, err := testPriceFeed.abi.Pack("decimals")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function decimals() view returns(uint8)
func (testPriceFeed *TestPriceFeed) TryPackDecimals() ([]byte, error) {
	return testPriceFeed.abi.Pack("decimals")
}

// UnpackDecimals is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x313ce567.
//
// Solidity: function decimals() view returns(uint8)
func (testPriceFeed *TestPriceFeed) UnpackDecimals(data []byte) (uint8, error) {
	out, err := testPriceFeed.abi.Unpack("decimals", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackDescription is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7284e416.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function description() view returns(string)
func (testPriceFeed *TestPriceFeed) PackDescription() []byte {
	enc, err := testPriceFeed.abi.Pack("description")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDescription is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7284e416.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function description() view returns(string)
func (testPriceFeed *TestPriceFeed) TryPackDescription() ([]byte, error) {
	return testPriceFeed.abi.Pack("description")
}

// UnpackDescription is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x7284e416.
//
// Solidity: function description() view returns(string)
func (testPriceFeed *TestPriceFeed) UnpackDescription(data []byte) (string, error) {
	out, err := testPriceFeed.abi.Unpack("description", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackLatestRoundData is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfeaf968c.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function latestRoundData() view returns(uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
func (testPriceFeed *TestPriceFeed) PackLatestRoundData() []byte {
	enc, err := testPriceFeed.abi.Pack("latestRoundData")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackLatestRoundData is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfeaf968c.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function latestRoundData() view returns(uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
func (testPriceFeed *TestPriceFeed) TryPackLatestRoundData() ([]byte, error) {
	return testPriceFeed.abi.Pack("latestRoundData")
}

// LatestRoundDataOutput serves as a container for the return parameters of contract
// method LatestRoundData.
type LatestRoundDataOutput struct {
	RoundId         *big.Int
	Answer          *big.Int
	StartedAt       *big.Int
	UpdatedAt       *big.Int
	AnsweredInRound *big.Int
}

// UnpackLatestRoundData is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xfeaf968c.
//
// Solidity: function latestRoundData() view returns(uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
func (testPriceFeed *TestPriceFeed) UnpackLatestRoundData(data []byte) (LatestRoundDataOutput, error) {
	out, err := testPriceFeed.abi.Unpack("latestRoundData", data)
	outstruct := new(LatestRoundDataOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.RoundId = abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	outstruct.Answer = abi.ConvertType(out[1], new(big.Int)).(*big.Int)
	outstruct.StartedAt = abi.ConvertType(out[2], new(big.Int)).(*big.Int)
	outstruct.UpdatedAt = abi.ConvertType(out[3], new(big.Int)).(*big.Int)
	outstruct.AnsweredInRound = abi.ConvertType(out[4], new(big.Int)).(*big.Int)
	return *outstruct, nil
}

// PackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owner() view returns(address)
func (testPriceFeed *TestPriceFeed) PackOwner() []byte {
	enc, err := testPriceFeed.abi.Pack("owner")
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
func (testPriceFeed *TestPriceFeed) TryPackOwner() ([]byte, error) {
	return testPriceFeed.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (testPriceFeed *TestPriceFeed) UnpackOwner(data []byte) (common.Address, error) {
	out, err := testPriceFeed.abi.Unpack("owner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackSetAnswer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x99213cd8.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setAnswer(int256 answer_) returns()
func (testPriceFeed *TestPriceFeed) PackSetAnswer(answer *big.Int) []byte {
	enc, err := testPriceFeed.abi.Pack("setAnswer", answer)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetAnswer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x99213cd8.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setAnswer(int256 answer_) returns()
func (testPriceFeed *TestPriceFeed) TryPackSetAnswer(answer *big.Int) ([]byte, error) {
	return testPriceFeed.abi.Pack("setAnswer", answer)
}

// PackVersion is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x54fd4d50.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function version() view returns(uint256)
func (testPriceFeed *TestPriceFeed) PackVersion() []byte {
	enc, err := testPriceFeed.abi.Pack("version")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackVersion is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x54fd4d50.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function version() view returns(uint256)
func (testPriceFeed *TestPriceFeed) TryPackVersion() ([]byte, error) {
	return testPriceFeed.abi.Pack("version")
}

// UnpackVersion is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x54fd4d50.
//
// Solidity: function version() view returns(uint256)
func (testPriceFeed *TestPriceFeed) UnpackVersion(data []byte) (*big.Int, error) {
	out, err := testPriceFeed.abi.Unpack("version", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// TestPriceFeedAnswerUpdated represents a AnswerUpdated event raised by the TestPriceFeed contract.
type TestPriceFeedAnswerUpdated struct {
	Current   *big.Int
	RoundId   *big.Int
	UpdatedAt *big.Int
	Raw       *types.Log // Blockchain specific contextual infos
}

const TestPriceFeedAnswerUpdatedEventName = "AnswerUpdated"

// ContractEventName returns the user-defined event name.
func (TestPriceFeedAnswerUpdated) ContractEventName() string {
	return TestPriceFeedAnswerUpdatedEventName
}

// UnpackAnswerUpdatedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt)
func (testPriceFeed *TestPriceFeed) UnpackAnswerUpdatedEvent(log *types.Log) (*TestPriceFeedAnswerUpdated, error) {
	event := "AnswerUpdated"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != testPriceFeed.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(TestPriceFeedAnswerUpdated)
	if len(log.Data) > 0 {
		if err := testPriceFeed.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range testPriceFeed.abi.Events[event].Inputs {
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
func (testPriceFeed *TestPriceFeed) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], testPriceFeed.abi.Errors["NotOwner"].ID.Bytes()[:4]) {
		return testPriceFeed.UnpackNotOwnerError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// TestPriceFeedNotOwner represents a NotOwner error raised by the TestPriceFeed contract.
type TestPriceFeedNotOwner struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotOwner()
func TestPriceFeedNotOwnerErrorID() common.Hash {
	return common.HexToHash("0x30cd74712f59d478562d48e2d35de830db72c60a63dd08ae59199eec990b5bc4")
}

// UnpackNotOwnerError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotOwner()
func (testPriceFeed *TestPriceFeed) UnpackNotOwnerError(raw []byte) (*TestPriceFeedNotOwner, error) {
	out := new(TestPriceFeedNotOwner)
	if err := testPriceFeed.abi.UnpackIntoInterface(out, "NotOwner", raw); err != nil {
		return nil, err
	}
	return out, nil
}
