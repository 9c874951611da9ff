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

// DepositFactoryMetaData contains all meta data concerning the DepositFactory contract.
var DepositFactoryMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"sweeper_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"vault_\",\"type\":\"address\"},{\"internalType\":\"bytes1\",\"name\":\"create2Prefix_\",\"type\":\"bytes1\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"}],\"name\":\"DeployFailed\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"bytes1\",\"name\":\"prefix\",\"type\":\"bytes1\"}],\"name\":\"InvalidPrefix\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotOwner\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotPendingOwner\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotSweeper\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAddress\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previousOwner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"OwnershipTransferStarted\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previousOwner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"OwnershipTransferred\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previous\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"current\",\"type\":\"address\"}],\"name\":\"SweeperChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"depositAddress\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"vault\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"Swept\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"depositAddress\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"vault\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"SweptNative\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previous\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"current\",\"type\":\"address\"}],\"name\":\"VaultChanged\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"acceptOwnership\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"}],\"name\":\"addressOf\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"create2Prefix\",\"outputs\":[{\"internalType\":\"bytes1\",\"name\":\"\",\"type\":\"bytes1\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"implementation\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"pendingOwner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"proxyCodeHash\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"sweeper_\",\"type\":\"address\"}],\"name\":\"setSweeper\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"vault_\",\"type\":\"address\"}],\"name\":\"setVault\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"bytes32[]\",\"name\":\"salts\",\"type\":\"bytes32[]\"}],\"name\":\"sweep\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"total\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32[]\",\"name\":\"salts\",\"type\":\"bytes32[]\"}],\"name\":\"sweepNative\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"total\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"sweeper\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"transferOwnership\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"vault\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	ID:  "DepositFactory",
	Bin: "0x60e080604052346102b757608081611057803803809161001f82856102bc565b8339810103126102b757610032816102df565b9061003f602082016102df565b606061004d604084016102df565b9201519060ff60f81b8216938483036102b7576001600160a01b031690811561029557600080546001600160a01b0319168317815560405192907f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e08180a36001600160a01b031693841580156102a6575b610295577fff0000000000000000000000000000000000000000000000000000000000000081141580610287575b61027357506103b98181016001600160401b0381118382101761025d578291610c9e833903906000f08015610251576001600160a01b0381166080526040517f3d602d80600a3d3981f3363d3d373d3d3d363d730000000000000000000000006020820190815260609290921b6001600160601b03191660348201526e5af43d82803e903d91602b57fd5bf360881b60488201526037815261018f6057826102bc565b51902060a05260c052600280546001600160a01b03199081168417909155600380549091166001600160a01b039290921691821790556040519160007f048a02643c4c9225783513629c22d5d457a40ed2205640b6889bbb450c8da7768180a360007f16e2accad9173abff57b295b56993ec5d86b3cbf791fea02f02a6616463754ea8180a36109aa90816102f482396080518181816106fd015261091a015260a0518181816103a801526108b3015260c0518181816102da01526108810152f35b6040513d6000823e3d90fd5b634e487b7160e01b600052604160045260246000fd5b63b04935af60e01b60005260045260246000fd5b50604160f81b8114156100ec565b63d92e233d60e01b60005260046000fd5b506001600160a01b038416156100be565b600080fd5b601f909101601f19168101906001600160401b0382119082101761025d57604052565b51906001600160a01b03821682036102b75756fe6080604052600436101561001257600080fd5b60003560e01c806323d4c2ba1461072c5780635c60da1b146106e75780636817031b1461065957806379ba5097146105db5780638da5cb5b146105b25780638ebefa751461044d5780639189a59e14610424578063bb34534c146103f4578063e30c3978146103cb578063eee3911114610390578063f2fde38b1461030a578063f6e9e41b146102c4578063faa89528146100e45763fbfa77cf146100b657600080fd5b346100df5760003660031901126100df576003546040516001600160a01b039091168152602090f35b600080fd5b346100df5760403660031901126100df576100fd6107a9565b60243567ffffffffffffffff81116100df5761011d9036906004016107bf565b6002549192916001600160a01b031633036102b35760035460009384936001600160a01b039283169391929091908216905b80871061016157602086604051908152f35b909192939461017a6101748884886107f0565b35610871565b6040516370a0823160e01b81526001600160a01b03821660048201819052929190602090600090602490895afa50600051156102a757803b1561028c575b5060405190634e7eee1b60e11b82528460048301528760248301526020826044816000875af191821561028057600092610249575b509181857f4f1cf3854383f11622e4ed71a161c9479db90f023aab282a515142bc5c4b4b6e60408b6102308e8d9e9f9861022a8c9160019c61084e565b9f6107f0565b359482519182526020820152a45b01959392919061014f565b90916020823d8211610278575b8161026360209383610816565b810103126102755750519060016101ed565b80fd5b3d9150610256565b6040513d6000823e3d90fd5b6102a19061029b8a868a6107f0565b356108f6565b886101b8565b5095966001915061023e565b630982ebb360e01b60005260046000fd5b346100df5760003660031901126100df576040517f00000000000000000000000000000000000000000000000000000000000000006001600160f81b0319168152602090f35b346100df5760203660031901126100df576103236107a9565b6000546001600160a01b0316903382900361037f57600180546001600160a01b0319166001600160a01b03929092169182179055907f38d16b8cac22d99fc7c124b9cd0de2d3fa1faef420bfe791d8c362d765e22700600080a3005b6330cd747160e01b60005260046000fd5b346100df5760003660031901126100df5760206040517f00000000000000000000000000000000000000000000000000000000000000008152f35b346100df5760003660031901126100df576001546040516001600160a01b039091168152602090f35b346100df5760203660031901126100df576020610412600435610871565b6040516001600160a01b039091168152f35b346100df5760003660031901126100df576002546040516001600160a01b039091168152602090f35b346100df5760203660031901126100df5760043567ffffffffffffffff81116100df5761047e9036906004016107bf565b6002546001600160a01b031633036102b3576003546001600160a01b03169160009190825b8281106104b557602084604051908152f35b6104c36101748285856107f0565b8031156105a957803b15610595575b6040516238666360e71b815260048101879052946001600160a01b0391909116906020866024816000865af195861561028057600096610560575b509061051c866001949361084e565b957f81a523a5e82c2c85c8197a7ee465216d3f79a4e782cfa41adff646de8504e893604061054b8589896107f0565b35928151908b82526020820152a35b016104a3565b90956020823d821161058d575b8161057a60209383610816565b810103126102755750519461051c61050d565b3d915061056d565b6105a48161029b8487876107f0565b6104d2565b5060019061055a565b346100df5760003660031901126100df576000546040516001600160a01b039091168152602090f35b346100df5760003660031901126100df576001546001600160a01b0381163303610648576000543360018060a01b0382167f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0600080a36001600160a01b0319908116331760005516600155005b630614e5c760e21b60005260046000fd5b346100df5760203660031901126100df576106726107a9565b6000546001600160a01b0316330361037f576001600160a01b031680156106d657600354816001600160a01b0382167f16e2accad9173abff57b295b56993ec5d86b3cbf791fea02f02a6616463754ea600080a36001600160a01b03191617600355005b63d92e233d60e01b60005260046000fd5b346100df5760003660031901126100df576040517f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03168152602090f35b346100df5760203660031901126100df576107456107a9565b6000546001600160a01b0316330361037f576001600160a01b031680156106d657600254816001600160a01b0382167f048a02643c4c9225783513629c22d5d457a40ed2205640b6889bbb450c8da776600080a36001600160a01b03191617600255005b600435906001600160a01b03821682036100df57565b9181601f840112156100df5782359167ffffffffffffffff83116100df576020808501948460051b0101116100df57565b91908110156108005760051b0190565b634e487b7160e01b600052603260045260246000fd5b90601f8019910116810190811067ffffffffffffffff82111761083857604052565b634e487b7160e01b600052604160045260246000fd5b9190820180921161085b57565b634e487b7160e01b600052601160045260246000fd5b60405190602082019060ff60f81b7f00000000000000000000000000000000000000000000000000000000000000001682523060601b602184015260358301527f00000000000000000000000000000000000000000000000000000000000000006055830152605582526108e6607583610816565b905190206001600160a01b031690565b604051733d602d80600a3d3981f3363d3d373d3d3d363d7360601b602082019081527f000000000000000000000000000000000000000000000000000000000000000060601b6bffffffffffffffffffffffff191660348301526e5af43d82803e903d91602b57fd5bf360881b604883015260378252919291839161097c605782610816565b51906000f56001600160a01b039182169116036109965750565b63f1a9a56360e01b60005260045260246000fd60a08060405234602f57336080526103849081610035823960805181818160570152818161010b01526101ef0152f35b600080fdfe6080604052600436101561001b575b361561001957600080fd5b005b60003560e01c80631c333180146100d75780639cfddc361461008b5763c45a01550361000e5734610086576000366003190112610086576040517f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03168152602090f35b600080fd5b34610086576040366003190112610086576004356001600160a01b038116810361008657602435906001600160a01b0382168203610086576020916100cf916101ea565b604051908152f35b34610086576020366003190112610086576004356001600160a01b0381168103610086576020906100cf6001600160a01b037f00000000000000000000000000000000000000000000000000000000000000001633036101d957479182156101d2576001600160a01b0316600080808086855af13d156101cd573d67ffffffffffffffff81116101b75760405190601f8101601f19908116603f0116820167ffffffffffffffff8111838210176101b7576040528152600060203d92013e5b1561019e5750565b905063296c17bb60e21b60005260045260245260446000fd5b634e487b7160e01b600052604160045260246000fd5b610196565b5060009150565b631966391b60e11b60005260046000fd5b9091907f00000000000000000000000000000000000000000000000000000000000000006001600160a01b031633036101d957610227308261034e565b809491158015610345575b610326571561031e576020600060446040519363a9059cbb60e01b855260018060a01b03169384600482015287602482015282865af1906002916102de575b600282146102b957506001146102845750565b61028e308261034e565b8092915061029a575050565b63269c4d3160e21b60005260018060a01b031660045260245260446000fd5b92505063190eecf360e31b60005260018060a01b031660045260245260445260646000fd5b3d156103155760203d10156102f3575b610271565b6000516001811461030c575b6102ee5760019150610271565b600092506102ff565b60009150610271565b506000925050565b6318aca2db60e01b60009081526001600160a01b038416600452602490fd5b50823b15610232565b6040516370a0823160e01b81526001600160a01b039092166004830152602091600091602491905afa60203d101516906000519056",
}

// DepositFactory is an auto generated Go binding around an Ethereum contract.
type DepositFactory struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *DepositFactory) GetABI() abi.ABI {
	return c.abi
}

// NewDepositFactory creates a new instance of DepositFactory.
func NewDepositFactory() *DepositFactory {
	parsed, err := DepositFactoryMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &DepositFactory{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *DepositFactory) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address owner_, address sweeper_, address vault_, bytes1 create2Prefix_) returns()
func (depositFactory *DepositFactory) PackConstructor(owner_ common.Address, sweeper_ common.Address, vault_ common.Address, create2Prefix_ [1]byte) []byte {
	enc, err := depositFactory.abi.Pack("", owner_, sweeper_, vault_, create2Prefix_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackAcceptOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x79ba5097.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function acceptOwnership() returns()
func (depositFactory *DepositFactory) PackAcceptOwnership() []byte {
	enc, err := depositFactory.abi.Pack("acceptOwnership")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAcceptOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x79ba5097.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function acceptOwnership() returns()
func (depositFactory *DepositFactory) TryPackAcceptOwnership() ([]byte, error) {
	return depositFactory.abi.Pack("acceptOwnership")
}

// PackAddressOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbb34534c.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function addressOf(bytes32 salt) view returns(address)
func (depositFactory *DepositFactory) PackAddressOf(salt [32]byte) []byte {
	enc, err := depositFactory.abi.Pack("addressOf", salt)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAddressOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbb34534c.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function addressOf(bytes32 salt) view returns(address)
func (depositFactory *DepositFactory) TryPackAddressOf(salt [32]byte) ([]byte, error) {
	return depositFactory.abi.Pack("addressOf", salt)
}

// UnpackAddressOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xbb34534c.
//
// Solidity: function addressOf(bytes32 salt) view returns(address)
func (depositFactory *DepositFactory) UnpackAddressOf(data []byte) (common.Address, error) {
	out, err := depositFactory.abi.Unpack("addressOf", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackCreate2Prefix is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf6e9e41b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function create2Prefix() view returns(bytes1)
func (depositFactory *DepositFactory) PackCreate2Prefix() []byte {
	enc, err := depositFactory.abi.Pack("create2Prefix")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCreate2Prefix is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf6e9e41b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function create2Prefix() view returns(bytes1)
func (depositFactory *DepositFactory) TryPackCreate2Prefix() ([]byte, error) {
	return depositFactory.abi.Pack("create2Prefix")
}

// UnpackCreate2Prefix is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xf6e9e41b.
//
// Solidity: function create2Prefix() view returns(bytes1)
func (depositFactory *DepositFactory) UnpackCreate2Prefix(data []byte) ([1]byte, error) {
	out, err := depositFactory.abi.Unpack("create2Prefix", data)
	if err != nil {
		return *new([1]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([1]byte)).(*[1]byte)
	return out0, nil
}

// PackImplementation is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5c60da1b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function implementation() view returns(address)
func (depositFactory *DepositFactory) PackImplementation() []byte {
	enc, err := depositFactory.abi.Pack("implementation")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackImplementation is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5c60da1b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function implementation() view returns(address)
func (depositFactory *DepositFactory) TryPackImplementation() ([]byte, error) {
	return depositFactory.abi.Pack("implementation")
}

// UnpackImplementation is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x5c60da1b.
//
// Solidity: function implementation() view returns(address)
func (depositFactory *DepositFactory) UnpackImplementation(data []byte) (common.Address, error) {
	out, err := depositFactory.abi.Unpack("implementation", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owner() view returns(address)
func (depositFactory *DepositFactory) PackOwner() []byte {
	enc, err := depositFactory.abi.Pack("owner")
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
func (depositFactory *DepositFactory) TryPackOwner() ([]byte, error) {
	return depositFactory.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (depositFactory *DepositFactory) UnpackOwner(data []byte) (common.Address, error) {
	out, err := depositFactory.abi.Unpack("owner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackPendingOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe30c3978.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function pendingOwner() view returns(address)
func (depositFactory *DepositFactory) PackPendingOwner() []byte {
	enc, err := depositFactory.abi.Pack("pendingOwner")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPendingOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe30c3978.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function pendingOwner() view returns(address)
func (depositFactory *DepositFactory) TryPackPendingOwner() ([]byte, error) {
	return depositFactory.abi.Pack("pendingOwner")
}

// UnpackPendingOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xe30c3978.
//
// Solidity: function pendingOwner() view returns(address)
func (depositFactory *DepositFactory) UnpackPendingOwner(data []byte) (common.Address, error) {
	out, err := depositFactory.abi.Unpack("pendingOwner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackProxyCodeHash is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xeee39111.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function proxyCodeHash() view returns(bytes32)
func (depositFactory *DepositFactory) PackProxyCodeHash() []byte {
	enc, err := depositFactory.abi.Pack("proxyCodeHash")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackProxyCodeHash is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xeee39111.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function proxyCodeHash() view returns(bytes32)
func (depositFactory *DepositFactory) TryPackProxyCodeHash() ([]byte, error) {
	return depositFactory.abi.Pack("proxyCodeHash")
}

// UnpackProxyCodeHash is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xeee39111.
//
// Solidity: function proxyCodeHash() view returns(bytes32)
func (depositFactory *DepositFactory) UnpackProxyCodeHash(data []byte) ([32]byte, error) {
	out, err := depositFactory.abi.Unpack("proxyCodeHash", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackSetSweeper is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23d4c2ba.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setSweeper(address sweeper_) returns()
func (depositFactory *DepositFactory) PackSetSweeper(sweeper common.Address) []byte {
	enc, err := depositFactory.abi.Pack("setSweeper", sweeper)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetSweeper is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23d4c2ba.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setSweeper(address sweeper_) returns()
func (depositFactory *DepositFactory) TryPackSetSweeper(sweeper common.Address) ([]byte, error) {
	return depositFactory.abi.Pack("setSweeper", sweeper)
}

// PackSetVault is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6817031b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setVault(address vault_) returns()
func (depositFactory *DepositFactory) PackSetVault(vault common.Address) []byte {
	enc, err := depositFactory.abi.Pack("setVault", vault)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetVault is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6817031b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setVault(address vault_) returns()
func (depositFactory *DepositFactory) TryPackSetVault(vault common.Address) ([]byte, error) {
	return depositFactory.abi.Pack("setVault", vault)
}

// PackSweep is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfaa89528.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function sweep(address token, bytes32[] salts) returns(uint256 total)
func (depositFactory *DepositFactory) PackSweep(token common.Address, salts [][32]byte) []byte {
	enc, err := depositFactory.abi.Pack("sweep", token, salts)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSweep is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfaa89528.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function sweep(address token, bytes32[] salts) returns(uint256 total)
func (depositFactory *DepositFactory) TryPackSweep(token common.Address, salts [][32]byte) ([]byte, error) {
	return depositFactory.abi.Pack("sweep", token, salts)
}

// UnpackSweep is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xfaa89528.
//
// Solidity: function sweep(address token, bytes32[] salts) returns(uint256 total)
func (depositFactory *DepositFactory) UnpackSweep(data []byte) (*big.Int, error) {
	out, err := depositFactory.abi.Unpack("sweep", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackSweepNative is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8ebefa75.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function sweepNative(bytes32[] salts) returns(uint256 total)
func (depositFactory *DepositFactory) PackSweepNative(salts [][32]byte) []byte {
	enc, err := depositFactory.abi.Pack("sweepNative", salts)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSweepNative is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8ebefa75.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function sweepNative(bytes32[] salts) returns(uint256 total)
func (depositFactory *DepositFactory) TryPackSweepNative(salts [][32]byte) ([]byte, error) {
	return depositFactory.abi.Pack("sweepNative", salts)
}

// UnpackSweepNative is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8ebefa75.
//
// Solidity: function sweepNative(bytes32[] salts) returns(uint256 total)
func (depositFactory *DepositFactory) UnpackSweepNative(data []byte) (*big.Int, error) {
	out, err := depositFactory.abi.Unpack("sweepNative", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackSweeper is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9189a59e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function sweeper() view returns(address)
func (depositFactory *DepositFactory) PackSweeper() []byte {
	enc, err := depositFactory.abi.Pack("sweeper")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSweeper is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9189a59e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function sweeper() view returns(address)
func (depositFactory *DepositFactory) TryPackSweeper() ([]byte, error) {
	return depositFactory.abi.Pack("sweeper")
}

// UnpackSweeper is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x9189a59e.
//
// Solidity: function sweeper() view returns(address)
func (depositFactory *DepositFactory) UnpackSweeper(data []byte) (common.Address, error) {
	out, err := depositFactory.abi.Unpack("sweeper", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackTransferOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2fde38b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (depositFactory *DepositFactory) PackTransferOwnership(newOwner common.Address) []byte {
	enc, err := depositFactory.abi.Pack("transferOwnership", newOwner)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransferOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2fde38b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (depositFactory *DepositFactory) TryPackTransferOwnership(newOwner common.Address) ([]byte, error) {
	return depositFactory.abi.Pack("transferOwnership", newOwner)
}

// PackVault is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfbfa77cf.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function vault() view returns(address)
func (depositFactory *DepositFactory) PackVault() []byte {
	enc, err := depositFactory.abi.Pack("vault")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackVault is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfbfa77cf.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function vault() view returns(address)
func (depositFactory *DepositFactory) TryPackVault() ([]byte, error) {
	return depositFactory.abi.Pack("vault")
}

// UnpackVault is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xfbfa77cf.
//
// Solidity: function vault() view returns(address)
func (depositFactory *DepositFactory) UnpackVault(data []byte) (common.Address, error) {
	out, err := depositFactory.abi.Unpack("vault", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// DepositFactoryOwnershipTransferStarted represents a OwnershipTransferStarted event raised by the DepositFactory contract.
type DepositFactoryOwnershipTransferStarted struct {
	PreviousOwner common.Address
	NewOwner      common.Address
	Raw           *types.Log // Blockchain specific contextual infos
}

const DepositFactoryOwnershipTransferStartedEventName = "OwnershipTransferStarted"

// ContractEventName returns the user-defined event name.
func (DepositFactoryOwnershipTransferStarted) ContractEventName() string {
	return DepositFactoryOwnershipTransferStartedEventName
}

// UnpackOwnershipTransferStartedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event OwnershipTransferStarted(address indexed previousOwner, address indexed newOwner)
func (depositFactory *DepositFactory) UnpackOwnershipTransferStartedEvent(log *types.Log) (*DepositFactoryOwnershipTransferStarted, error) {
	event := "OwnershipTransferStarted"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != depositFactory.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(DepositFactoryOwnershipTransferStarted)
	if len(log.Data) > 0 {
		if err := depositFactory.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range depositFactory.abi.Events[event].Inputs {
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

// DepositFactoryOwnershipTransferred represents a OwnershipTransferred event raised by the DepositFactory contract.
type DepositFactoryOwnershipTransferred struct {
	PreviousOwner common.Address
	NewOwner      common.Address
	Raw           *types.Log // Blockchain specific contextual infos
}

const DepositFactoryOwnershipTransferredEventName = "OwnershipTransferred"

// ContractEventName returns the user-defined event name.
func (DepositFactoryOwnershipTransferred) ContractEventName() string {
	return DepositFactoryOwnershipTransferredEventName
}

// UnpackOwnershipTransferredEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)
func (depositFactory *DepositFactory) UnpackOwnershipTransferredEvent(log *types.Log) (*DepositFactoryOwnershipTransferred, error) {
	event := "OwnershipTransferred"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != depositFactory.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(DepositFactoryOwnershipTransferred)
	if len(log.Data) > 0 {
		if err := depositFactory.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range depositFactory.abi.Events[event].Inputs {
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

// DepositFactorySweeperChanged represents a SweeperChanged event raised by the DepositFactory contract.
type DepositFactorySweeperChanged struct {
	Previous common.Address
	Current  common.Address
	Raw      *types.Log // Blockchain specific contextual infos
}

const DepositFactorySweeperChangedEventName = "SweeperChanged"

// ContractEventName returns the user-defined event name.
func (DepositFactorySweeperChanged) ContractEventName() string {
	return DepositFactorySweeperChangedEventName
}

// UnpackSweeperChangedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event SweeperChanged(address indexed previous, address indexed current)
func (depositFactory *DepositFactory) UnpackSweeperChangedEvent(log *types.Log) (*DepositFactorySweeperChanged, error) {
	event := "SweeperChanged"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != depositFactory.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(DepositFactorySweeperChanged)
	if len(log.Data) > 0 {
		if err := depositFactory.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range depositFactory.abi.Events[event].Inputs {
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

// DepositFactorySwept represents a Swept event raised by the DepositFactory contract.
type DepositFactorySwept struct {
	Token          common.Address
	Salt           [32]byte
	DepositAddress common.Address
	Vault          common.Address
	Amount         *big.Int
	Raw            *types.Log // Blockchain specific contextual infos
}

const DepositFactorySweptEventName = "Swept"

// ContractEventName returns the user-defined event name.
func (DepositFactorySwept) ContractEventName() string {
	return DepositFactorySweptEventName
}

// UnpackSweptEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Swept(address indexed token, bytes32 indexed salt, address indexed depositAddress, address vault, uint256 amount)
func (depositFactory *DepositFactory) UnpackSweptEvent(log *types.Log) (*DepositFactorySwept, error) {
	event := "Swept"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != depositFactory.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(DepositFactorySwept)
	if len(log.Data) > 0 {
		if err := depositFactory.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range depositFactory.abi.Events[event].Inputs {
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

// DepositFactorySweptNative represents a SweptNative event raised by the DepositFactory contract.
type DepositFactorySweptNative struct {
	Salt           [32]byte
	DepositAddress common.Address
	Vault          common.Address
	Amount         *big.Int
	Raw            *types.Log // Blockchain specific contextual infos
}

const DepositFactorySweptNativeEventName = "SweptNative"

// ContractEventName returns the user-defined event name.
func (DepositFactorySweptNative) ContractEventName() string {
	return DepositFactorySweptNativeEventName
}

// UnpackSweptNativeEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event SweptNative(bytes32 indexed salt, address indexed depositAddress, address vault, uint256 amount)
func (depositFactory *DepositFactory) UnpackSweptNativeEvent(log *types.Log) (*DepositFactorySweptNative, error) {
	event := "SweptNative"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != depositFactory.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(DepositFactorySweptNative)
	if len(log.Data) > 0 {
		if err := depositFactory.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range depositFactory.abi.Events[event].Inputs {
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

// DepositFactoryVaultChanged represents a VaultChanged event raised by the DepositFactory contract.
type DepositFactoryVaultChanged struct {
	Previous common.Address
	Current  common.Address
	Raw      *types.Log // Blockchain specific contextual infos
}

const DepositFactoryVaultChangedEventName = "VaultChanged"

// ContractEventName returns the user-defined event name.
func (DepositFactoryVaultChanged) ContractEventName() string {
	return DepositFactoryVaultChangedEventName
}

// UnpackVaultChangedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event VaultChanged(address indexed previous, address indexed current)
func (depositFactory *DepositFactory) UnpackVaultChangedEvent(log *types.Log) (*DepositFactoryVaultChanged, error) {
	event := "VaultChanged"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != depositFactory.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(DepositFactoryVaultChanged)
	if len(log.Data) > 0 {
		if err := depositFactory.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range depositFactory.abi.Events[event].Inputs {
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
func (depositFactory *DepositFactory) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], depositFactory.abi.Errors["DeployFailed"].ID.Bytes()[:4]) {
		return depositFactory.UnpackDeployFailedError(raw[4:])
	}
	if bytes.Equal(raw[:4], depositFactory.abi.Errors["InvalidPrefix"].ID.Bytes()[:4]) {
		return depositFactory.UnpackInvalidPrefixError(raw[4:])
	}
	if bytes.Equal(raw[:4], depositFactory.abi.Errors["NotOwner"].ID.Bytes()[:4]) {
		return depositFactory.UnpackNotOwnerError(raw[4:])
	}
	if bytes.Equal(raw[:4], depositFactory.abi.Errors["NotPendingOwner"].ID.Bytes()[:4]) {
		return depositFactory.UnpackNotPendingOwnerError(raw[4:])
	}
	if bytes.Equal(raw[:4], depositFactory.abi.Errors["NotSweeper"].ID.Bytes()[:4]) {
		return depositFactory.UnpackNotSweeperError(raw[4:])
	}
	if bytes.Equal(raw[:4], depositFactory.abi.Errors["ZeroAddress"].ID.Bytes()[:4]) {
		return depositFactory.UnpackZeroAddressError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// DepositFactoryDeployFailed represents a DeployFailed error raised by the DepositFactory contract.
type DepositFactoryDeployFailed struct {
	Salt [32]byte
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error DeployFailed(bytes32 salt)
func DepositFactoryDeployFailedErrorID() common.Hash {
	return common.HexToHash("0xf1a9a56358990a736484fb4201302e80d79d6b6d791a5e5e6489020268b9e9d0")
}

// UnpackDeployFailedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error DeployFailed(bytes32 salt)
func (depositFactory *DepositFactory) UnpackDeployFailedError(raw []byte) (*DepositFactoryDeployFailed, error) {
	out := new(DepositFactoryDeployFailed)
	if err := depositFactory.abi.UnpackIntoInterface(out, "DeployFailed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DepositFactoryInvalidPrefix represents a InvalidPrefix error raised by the DepositFactory contract.
type DepositFactoryInvalidPrefix struct {
	Prefix [1]byte
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidPrefix(bytes1 prefix)
func DepositFactoryInvalidPrefixErrorID() common.Hash {
	return common.HexToHash("0xb04935afc8d170b62d39f7fb9956be52d155c8f03148dc18409b9668feb4fecf")
}

// UnpackInvalidPrefixError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidPrefix(bytes1 prefix)
func (depositFactory *DepositFactory) UnpackInvalidPrefixError(raw []byte) (*DepositFactoryInvalidPrefix, error) {
	out := new(DepositFactoryInvalidPrefix)
	if err := depositFactory.abi.UnpackIntoInterface(out, "InvalidPrefix", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DepositFactoryNotOwner represents a NotOwner error raised by the DepositFactory contract.
type DepositFactoryNotOwner struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotOwner()
func DepositFactoryNotOwnerErrorID() common.Hash {
	return common.HexToHash("0x30cd74712f59d478562d48e2d35de830db72c60a63dd08ae59199eec990b5bc4")
}

// UnpackNotOwnerError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotOwner()
func (depositFactory *DepositFactory) UnpackNotOwnerError(raw []byte) (*DepositFactoryNotOwner, error) {
	out := new(DepositFactoryNotOwner)
	if err := depositFactory.abi.UnpackIntoInterface(out, "NotOwner", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DepositFactoryNotPendingOwner represents a NotPendingOwner error raised by the DepositFactory contract.
type DepositFactoryNotPendingOwner struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotPendingOwner()
func DepositFactoryNotPendingOwnerErrorID() common.Hash {
	return common.HexToHash("0x1853971cac2844d8fedc34d0d65cff78483e8a606ad8448df68a3af766d8a29d")
}

// UnpackNotPendingOwnerError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotPendingOwner()
func (depositFactory *DepositFactory) UnpackNotPendingOwnerError(raw []byte) (*DepositFactoryNotPendingOwner, error) {
	out := new(DepositFactoryNotPendingOwner)
	if err := depositFactory.abi.UnpackIntoInterface(out, "NotPendingOwner", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DepositFactoryNotSweeper represents a NotSweeper error raised by the DepositFactory contract.
type DepositFactoryNotSweeper struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotSweeper()
func DepositFactoryNotSweeperErrorID() common.Hash {
	return common.HexToHash("0x0982ebb39c964746230019f093dd79b741eabce249612c65c394cfa02b238d49")
}

// UnpackNotSweeperError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotSweeper()
func (depositFactory *DepositFactory) UnpackNotSweeperError(raw []byte) (*DepositFactoryNotSweeper, error) {
	out := new(DepositFactoryNotSweeper)
	if err := depositFactory.abi.UnpackIntoInterface(out, "NotSweeper", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DepositFactoryZeroAddress represents a ZeroAddress error raised by the DepositFactory contract.
type DepositFactoryZeroAddress struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ZeroAddress()
func DepositFactoryZeroAddressErrorID() common.Hash {
	return common.HexToHash("0xd92e233df2717d4a40030e20904abd27b68fcbeede117eaaccbbdac9618c8c73")
}

// UnpackZeroAddressError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ZeroAddress()
func (depositFactory *DepositFactory) UnpackZeroAddressError(raw []byte) (*DepositFactoryZeroAddress, error) {
	out := new(DepositFactoryZeroAddress)
	if err := depositFactory.abi.UnpackIntoInterface(out, "ZeroAddress", raw); err != nil {
		return nil, err
	}
	return out, nil
}
