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

// CashierPayoutMetaData contains all meta data concerning the CashierPayout contract.
var CashierPayoutMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"executor_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"signer_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"feeAddress_\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[],\"name\":\"EmptyBatch\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"available\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"required\",\"type\":\"uint256\"}],\"name\":\"InsufficientAllowance\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"available\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"required\",\"type\":\"uint256\"}],\"name\":\"InsufficientContractBalance\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"available\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"required\",\"type\":\"uint256\"}],\"name\":\"InsufficientFromBalance\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"feeAddress\",\"type\":\"address\"}],\"name\":\"InvalidFeeAddress\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"}],\"name\":\"InvalidFrom\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"index\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"}],\"name\":\"InvalidRecipient\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidSignature\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"window\",\"type\":\"uint256\"}],\"name\":\"InvalidSignatureWindow\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"recipients\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"amounts\",\"type\":\"uint256\"}],\"name\":\"LengthMismatch\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"NativeTransferFailed\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"}],\"name\":\"NonceUsed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotExecutor\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotOwner\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotPendingOwner\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"index\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"}],\"name\":\"RecipientNotWhitelisted\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"timestamp\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"blockTime\",\"type\":\"uint256\"}],\"name\":\"SignatureExpired\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"timestamp\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"blockTime\",\"type\":\"uint256\"}],\"name\":\"TimestampInFuture\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"TokenNotContract\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"TokenTransferFailed\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"count\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"max\",\"type\":\"uint256\"}],\"name\":\"TooManyRecipients\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"expectedDebit\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"actualDebit\",\"type\":\"uint256\"}],\"name\":\"TransferNotVerified\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAddress\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"index\",\"type\":\"uint256\"}],\"name\":\"ZeroAmount\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"totalAmount\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"totalFee\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"recipientCount\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"timestamp\",\"type\":\"uint256\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"operator\",\"type\":\"address\"}],\"name\":\"BatchPayoutWithAllowance\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"totalAmount\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"totalFee\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"recipientCount\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"timestamp\",\"type\":\"uint256\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"operator\",\"type\":\"address\"}],\"name\":\"BatchPayoutWithBalance\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previous\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"current\",\"type\":\"address\"}],\"name\":\"ExecutorChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previous\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"current\",\"type\":\"address\"}],\"name\":\"FeeAddressChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"NativeReceived\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"NativeWithdrawn\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previousOwner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"OwnershipTransferStarted\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previousOwner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"OwnershipTransferred\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"index\",\"type\":\"uint256\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"PayoutTransfer\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"previous\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"current\",\"type\":\"uint256\"}],\"name\":\"SignatureWindowChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previous\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"current\",\"type\":\"address\"}],\"name\":\"SignerChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"bool\",\"name\":\"balanceMode\",\"type\":\"bool\"},{\"indexed\":false,\"internalType\":\"bool\",\"name\":\"allowanceMode\",\"type\":\"bool\"}],\"name\":\"WhitelistModeChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"bool\",\"name\":\"allowed\",\"type\":\"bool\"}],\"name\":\"WhitelistUpdated\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"Withdrawn\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"ALLOWANCE_TYPEHASH\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"BALANCE_TYPEHASH\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MAX_FUTURE_SKEW\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MAX_RECIPIENTS\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MAX_SIGNATURE_WINDOW\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MIN_SIGNATURE_WINDOW\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"TRANSFER_TYPEHASH\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"VERSION\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"acceptOwnership\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address[]\",\"name\":\"accounts\",\"type\":\"address[]\"}],\"name\":\"addToWhitelist\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"address[]\",\"name\":\"recipients\",\"type\":\"address[]\"},{\"internalType\":\"uint256[]\",\"name\":\"amounts\",\"type\":\"uint256[]\"},{\"internalType\":\"uint256\",\"name\":\"totalFee\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"timestamp\",\"type\":\"uint256\"}],\"name\":\"allowancePayoutDigest\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"allowanceWhitelistEnabled\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"address[]\",\"name\":\"recipients\",\"type\":\"address[]\"},{\"internalType\":\"uint256[]\",\"name\":\"amounts\",\"type\":\"uint256[]\"},{\"internalType\":\"uint256\",\"name\":\"totalFee\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"timestamp\",\"type\":\"uint256\"}],\"name\":\"balancePayoutDigest\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"balanceWhitelistEnabled\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"domainSeparator\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"executor\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"feeAddress\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"name\":\"nonceUsed\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"address[]\",\"name\":\"recipients\",\"type\":\"address[]\"},{\"internalType\":\"uint256[]\",\"name\":\"amounts\",\"type\":\"uint256[]\"},{\"internalType\":\"uint256\",\"name\":\"totalFee\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"timestamp\",\"type\":\"uint256\"}],\"name\":\"payoutWithAllowance\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"address[]\",\"name\":\"recipients\",\"type\":\"address[]\"},{\"internalType\":\"uint256[]\",\"name\":\"amounts\",\"type\":\"uint256[]\"},{\"internalType\":\"uint256\",\"name\":\"totalFee\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"timestamp\",\"type\":\"uint256\"}],\"name\":\"payoutWithBalance\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"pendingOwner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address[]\",\"name\":\"accounts\",\"type\":\"address[]\"}],\"name\":\"removeFromWhitelist\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"executor_\",\"type\":\"address\"}],\"name\":\"setExecutor\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"feeAddress_\",\"type\":\"address\"}],\"name\":\"setFeeAddress\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"window\",\"type\":\"uint256\"}],\"name\":\"setSignatureWindow\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"signer_\",\"type\":\"address\"}],\"name\":\"setSigner\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bool\",\"name\":\"balanceMode\",\"type\":\"bool\"},{\"internalType\":\"bool\",\"name\":\"allowanceMode\",\"type\":\"bool\"}],\"name\":\"setWhitelistMode\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"signatureWindow\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"signer\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"transferOwnership\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"whitelisted\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"withdraw\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"addresspayable\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"withdrawNative\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"stateMutability\":\"payable\",\"type\":\"receive\"}]",
	ID:  "CashierPayout",
	Bin: "0x60c0806040523461028057608081611eba803803809161001f8285610285565b83398101031261028057610032816102be565b9061003f602082016102be565b6100576060610050604085016102be565b93016102be565b926001600160a01b031690811561025e57600080546001600160a01b0319168317815560405192907f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e08180a36102586005556001600160a01b0316928315801561026f575b61025e576001600160a01b03169182158015610255575b610240578360018060a01b0319600254161760025560018060a01b0316908160018060a01b031960035416176003558260018060a01b031960045416176004554660805260208101907f8b73c3c69bb8fe3d512ecc4cf759cc79239f7b179b0ffacaa9a75d522b39400f82527f69c2f0ca991fcaef717650b99d0f247f10b72ed832a51dfb4aac7ed2288cbdad60408201527fd52a11304c84d212a3919b1a91e33bc84f026a7c9a44d8b5d783fa8adb200db260608201524660808201523060a082015260a081526101a660c082610285565b51902060a0526040519260007f54a57d849b9d8af1a8883dad9184e599aa67ef60814f6c91db7f864abd4325fc8180a360007feeb293e1f8f3a9db91ade748726387ed1352ca78f5430c5f06fe3d1e1ad505798180a360007f12aeedbe105c518128d60ce786ade81525990783e6a01c9f849a47954c5043b78180a3611be790816102d38239608051816115f6015260a0518161161c0152f35b8263e59c387160e01b60005260045260246000fd5b503083146100d3565b63d92e233d60e01b60005260046000fd5b506001600160a01b038316156100bc565b600080fd5b601f909101601f19168101906001600160401b038211908210176102a857604052565b634e487b7160e01b600052604160045260246000fd5b51906001600160a01b03821682036102805756fe6080806040526004361015610049575b50361561001b57600080fd5b6040513481527f8ac633e5b094e1150d2a6495df4d0c77f51d293abe99e7733c78870dfbee766060203392a2005b60003560e01c908162bf26f4146113635750806301bd387c1461134057806304bfc9131461130557806307a0cd011461107957806307b18bde14610f4857806315db04fc14610ae15780631c3c0ea814610ecb578063238ac93314610ea2578063276530a714610e845780634127535814610e5b578063548db17414610d95578063648df82714610d5a5780636c19e78314610ccc57806379ba509714610c4e5780637f64978314610b875780638705fcd414610ae65780638d8d019014610ae15780638da5cb5b14610ab857806394d0d3a614610a875780639f584c3c14610a61578063a4ca6e0e146109d7578063a6980ce2146109bb578063b67317a71461064c578063b771cb24146105dc578063beccd89b14610562578063c34c08e514610539578063cfe32bd5146104ac578063d936547e1461046d578063d9caed121461033c578063e30c397814610313578063f2fde38b1461028d578063f698da251461026a578063fbc7b5301461024c5763ffa1ad74146101cb573861000f565b346102475760003660031901126102475760408051906101eb8183611441565b60058252640352e382e360dc1b6020830152805180926020825280519081602084015260005b8281106102305750506000828201840152601f01601f19168101030190f35b602082820181015187830187015286945001610211565b600080fd5b34610247576000366003190112610247576020600554604051908152f35b346102475760003660031901126102475760206102856115f3565b604051908152f35b34610247576020366003190112610247576102a661139c565b6000546001600160a01b0316903382900361030257600180546001600160a01b0319166001600160a01b03929092169182179055907f38d16b8cac22d99fc7c124b9cd0de2d3fa1faef420bfe791d8c362d765e22700600080a3005b6330cd747160e01b60005260046000fd5b34610247576000366003190112610247576001546040516001600160a01b039091168152602090f35b346102475760603660031901126102475761035561139c565b61035d6113b2565b6000549091604435916001600160a01b03163303610302576001600160a01b0383169283158015610464575b61044a576103973083611904565b9190158015610441575b610422578382106104095791602091846103dd817fd1c19fbcd4551a5edfb66d43d2e337c04837afda3482b42bdf569a8fccdae5fb968561193a565b6103f7575b50506040519384526001600160a01b031692a3005b6104029130846119a5565b85846103e2565b838263b7ddd88b60e01b60005260045260245260446000fd5b6318aca2db60e01b60009081526001600160a01b038416600452602490fd5b50823b156103a1565b8363563f086f60e01b600052600060045260245260446000fd5b50308414610389565b34610247576020366003190112610247576001600160a01b0361048e61139c565b166000526007602052602060ff604060002054166040519015158152f35b3461024757602036600319011261024757600054600435906001600160a01b0316330361030257603c8110801561052d575b610519577f460d66425ad940be13c0b2f4278e77167f7db717b65675166afedd46b3137f8760406005548151908152836020820152a1600555005b633a1850ad60e01b60005260045260246000fd5b5062093a8081116104de565b34610247576000366003190112610247576002546040516001600160a01b039091168152602090f35b346102475760e03660031901126102475761057b61139c565b6105836113b2565b906044356001600160401b038111610247576105a39036906004016113c8565b92606435926001600160401b038411610247576020946105ca6102859536906004016113c8565b9160c4359560a4359560843595611578565b346102475760c0366003190112610247576105f561139c565b6024356001600160401b038111610247576106149036906004016113c8565b604435916001600160401b0383116102475760209361063a6102859436906004016113c8565b9060a4359460843594606435946114bf565b34610247576101003660031901126102475761066661139c565b61066e6113b2565b6044356001600160401b0381116102475761068d9036906004016113c8565b6064929192356001600160401b038111610247576106af9036906004016113c8565b92909360a4356001600160401b038111610247576106d19036906004016113f8565b60025490969195906001600160a01b031633036109aa576001600160a01b03841696871580156109a1575b801561098d575b6109785788866107499261072360ff60065460081c16898789868c6116d0565b99610744888a60e43596898b60c4359860e4359560c4359560843595611578565b611836565b61075560843587611462565b92610760858a611904565b939015801561096f575b6109505784841061093257602060006044604051636eb1769f60e11b81528c60048201523060248201528d5afa50600051858110610915575091906000926000925b8b898510610872578b8b7f426b403c19831ad95e0989eba105a8da2c9a3d26e45c886bb505521f39a0e82e61082a8d8d8d8d8d608435610841575b61082f575b50506040805195865260843560208701528501919091525060c435606084015260e435608084015233946001600160a01b03169290819060a0820190565b0390a4005b61083992896119a5565b8680806107ec565b60045461085c90608435906001600160a01b0316868d6119ff565b90811561086a575b506107e7565b90508a610864565b946108a3859661089061088b87988e6001979899611485565b6114ab565b8b61089c8a888a611485565b35926119ff565b90811561090d575b50946108bb61088b828c88611485565b6108c6828587611485565b3590604051918383526020830152838060a01b0316907fd81b3c63a5e0d041ac43dc9dac51c2dca444bee9f77dd330d0f36618dc9b39b2604060c43592a3019291906107ac565b90508d6108ab565b85908a630c95cf2760e11b60005260045260245260445260646000fd5b50505085636c580faf60e11b60005260045260245260445260646000fd5b6318aca2db60e01b60009081526001600160a01b038b16600452602490fd5b50893b1561076a565b87630cb6c30360e31b60005260045260246000fd5b506004546001600160a01b03168814610703565b503088146106fc565b6361968ebb60e11b60005260046000fd5b3461024757600036600319011261024757602060405160c88152f35b346102475760403660031901126102475760043580151580910361024757602435801515809103610247576000546001600160a01b03163303610302577f846450d1fc5e913c38a0ce9f5320c83762876730d3cc52126239d766078a27ce9160409160065461ff008260081b169060ff84169061ffff1916171760065582519182526020820152a1005b3461024757600036600319011261024757602060ff60065460081c166040519015158152f35b34610247576020366003190112610247576004356000526008602052602060ff604060002054166040519015158152f35b34610247576000366003190112610247576000546040516001600160a01b039091168152602090f35b611425565b3461024757602036600319011261024757610aff61139c565b6000546001600160a01b03163303610302576001600160a01b031680158015610b7e575b610b6a57600454816001600160a01b0382167f12aeedbe105c518128d60ce786ade81525990783e6a01c9f849a47954c5043b7600080a36001600160a01b03191617600455005b63e59c387160e01b60005260045260246000fd5b50308114610b23565b34610247576020366003190112610247576004356001600160401b03811161024757610bb79036906004016113c8565b6000549091906001600160a01b031633036103025760005b828110610bd857005b6001906001600160a01b03610bf161088b838787611485565b16600052600760205260406000208260ff19825416179055818060a01b03610c1d61088b838787611485565b167ff93f9a76c1bf3444d22400a00cb9fe990e6abe9dbb333fda48859cfee864543d6020604051858152a201610bcf565b34610247576000366003190112610247576001546001600160a01b0381163303610cbb576000543360018060a01b0382167f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0600080a36001600160a01b0319908116331760005516600155005b630614e5c760e21b60005260046000fd5b3461024757602036600319011261024757610ce561139c565b6000546001600160a01b03163303610302576001600160a01b03168015610d4957600354816001600160a01b0382167feeb293e1f8f3a9db91ade748726387ed1352ca78f5430c5f06fe3d1e1ad50579600080a36001600160a01b03191617600355005b63d92e233d60e01b60005260046000fd5b346102475760003660031901126102475760206040517f3b6af12b8abfffb337a2408b0159b730c01dc1ab940c27e9bf8f5ce07b42a6038152f35b34610247576020366003190112610247576004356001600160401b03811161024757610dc59036906004016113c8565b6000549091906001600160a01b031633036103025760005b828110610de657005b6001906001600160a01b03610dff61088b838787611485565b166000526007602052604060002060ff198154169055818060a01b03610e2961088b838787611485565b167ff93f9a76c1bf3444d22400a00cb9fe990e6abe9dbb333fda48859cfee864543d602060405160008152a201610ddd565b34610247576000366003190112610247576004546040516001600160a01b039091168152602090f35b3461024757600036600319011261024757602060405162093a808152f35b34610247576000366003190112610247576003546040516001600160a01b039091168152602090f35b3461024757602036600319011261024757610ee461139c565b6000546001600160a01b03163303610302576001600160a01b03168015610d4957600254816001600160a01b0382167f54a57d849b9d8af1a8883dad9184e599aa67ef60814f6c91db7f864abd4325fc600080a36001600160a01b03191617600255005b34610247576040366003190112610247576004356001600160a01b0381169081900361024757600054602435906001600160a01b031633036103025781158015611070575b6110565780471061103e57600080808084865af13d15611039573d6001600160401b0381116110235760405190610fce601f8201601f191660200183611441565b8152600060203d92013e5b1561100b5760207fc303ca808382409472acbbf899c316cf439f409f6584aae22df86dfa3c9ed50491604051908152a2005b9063296c17bb60e21b60005260045260245260446000fd5b634e487b7160e01b600052604160045260246000fd5b610fd9565b4763b7ddd88b60e01b60005260045260245260446000fd5b5063563f086f60e01b600052600060045260245260446000fd5b50308214610f8d565b346102475760e03660031901126102475761109261139c565b6024356001600160401b038111610247576110b19036906004016113c8565b6044929192356001600160401b038111610247576110d39036906004016113c8565b90606435916084356001600160401b038111610247576110f79036906004016113f8565b600254909391906001600160a01b031633036109aa57611144908661112660ff600654168b87878530936116d0565b9560c435926107448c8c8b8a8a60a4359860c4359560a435956114bf565b61114e8484611462565b906111593088611904565b93901580156112fc575b6112dd578284106112c4576000989160005b88811061122957505050507f03787693285967d1e9f7f5974ffba844e090ddfa59f6dbfd117d516d366700e3949596846111fb575b6111e9575b50506040805191825260208201929092529081019290925260a435606083015260c435608083015233926001600160a01b03169160a090a3005b6111f49130886119a5565b85806111af565b6004546112139086906001600160a01b03168a61193a565b908115611221575b506111aa565b90508861121b565b8061126a61088b828c889f8f61125b9061124961088b60019a868f611485565b611254868d8d611485565b359161193a565b9081156112bc575b5098611485565b611275828686611485565b3590604051918383526020830152838060a01b0316907fd81b3c63a5e0d041ac43dc9dac51c2dca444bee9f77dd330d0f36618dc9b39b2604060a43592a301999299611175565b905038611263565b828463b7ddd88b60e01b60005260045260245260446000fd5b6318aca2db60e01b60009081526001600160a01b038916600452602490fd5b50873b15611163565b346102475760003660031901126102475760206040517fa793f3f584b672f31e27042e8a6bfb5714a03e8d3c13fe12444d1cb13fc57a8f8152f35b3461024757600036600319011261024757602060ff600654166040519015158152f35b3461024757600036600319011261024757807fc078646723bf20f8e2b15448254992f091e1224e4a97df3afabb94146bc4031460209252f35b600435906001600160a01b038216820361024757565b602435906001600160a01b038216820361024757565b9181601f84011215610247578235916001600160401b038311610247576020808501948460051b01011161024757565b9181601f84011215610247578235916001600160401b038311610247576020838186019501011161024757565b34610247576000366003190112610247576020604051603c8152f35b90601f801991011681019081106001600160401b0382111761102357604052565b9190820180921161146f57565b634e487b7160e01b600052601160045260246000fd5b91908110156114955760051b0190565b634e487b7160e01b600052603260045260246000fd5b356001600160a01b03811681036102475790565b96949593916114ce9391611a47565b926040519360208501957fa793f3f584b672f31e27042e8a6bfb5714a03e8d3c13fe12444d1cb13fc57a8f875260018060a01b031660408601526060850152608084015260a083015260c082015260c0815261152b60e082611441565b51902061156461157261153c6115f3565b92604051928391602083019586909160429261190160f01b8352600283015260228201520190565b03601f198101835282611441565b51902090565b979593909694919261158993611a47565b6040519460208601967f3b6af12b8abfffb337a2408b0159b730c01dc1ab940c27e9bf8f5ce07b42a603885260018060a01b0316604087015260018060a01b03166060860152608085015260a084015260c083015260e082015260e0815261152b61010082611441565b467f00000000000000000000000000000000000000000000000000000000000000000361163e577f000000000000000000000000000000000000000000000000000000000000000090565b60405160208101907f8b73c3c69bb8fe3d512ecc4cf759cc79239f7b179b0ffacaa9a75d522b39400f82527f69c2f0ca991fcaef717650b99d0f247f10b72ed832a51dfb4aac7ed2288cbdad60408201527fd52a11304c84d212a3919b1a91e33bc84f026a7c9a44d8b5d783fa8adb200db260608201524660808201523060a082015260a0815261157260c082611441565b959493909360009685156118255784860361180c5760c886116117f25794939291906000955b8587106117065750505050505050565b9091929394959760018060a01b0361172261088b8b8a86611485565b16801580156117e9575b80156117d7575b6117bf576117428a8888611485565b35156117aa578380611791575b611779575061176c6001916117658b8989611485565b3590611462565b98019594939291906116f6565b896395cba42960e01b60005260045260245260446000fd5b5080600052600760205260ff604060002054161561174f565b8963135ee08960e31b60005260045260246000fd5b8963563f086f60e01b60005260045260245260446000fd5b506001600160a01b0385168114611733565b5030811461172c565b8563072e3bbf60e31b60005260045260c860245260446000fd5b84866355c5b3e360e11b60005260045260245260446000fd5b63c2e5347d60e01b60005260046000fd5b9091929493603c420180421161146f5781116118ec574261185960055483611462565b106118d4575084600052600860205260ff604060002054166118bf57611897939460005260086020526040600020600160ff19825416179055611ae4565b6003546001600160a01b039081169116036118ae57565b638baa579f60e01b60005260046000fd5b84631be5cb2f60e01b60005260045260246000fd5b630f88f04960e41b6000526004524260245260446000fd5b6322f16e1160e11b6000526004524260245260446000fd5b6040516370a0823160e01b81526001600160a01b039092166004830152602091600091602491905afa60203d1015169060005190565b91906119716020600060446040519463a9059cbb60e01b865260018060a01b03169485600482015286602482015282885af1611ba6565b92600284146119835750505060011490565b63190eecf360e31b60005260018060a01b031660045260245260445260646000fd5b9291906119b29084611904565b9050808211156119f557810390811161146f57915b8183036119d357505050565b6364912c1d60e11b60005260018060a01b031660045260245260445260646000fd5b50506000916119c7565b6040516323b872dd60e01b81526001600160a01b0392831660048201529290911660248301819052604483018490529092916119719060209060009060649082885af1611ba6565b9092808403611acc575091604051918160051b93848401907fc078646723bf20f8e2b15448254992f091e1224e4a97df3afabb94146bc403148252600090602083019360408401925b868110611aa257505050505050502090565b600581901b838101356001600160a01b031687528281013585526060862090890152600101611a90565b836355c5b3e360e11b60005260045260245260446000fd5b60418303611b9e578260201161024757813591836040116102475760208101359360401015611495576040013560f81c907f7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a084118015611b87575b611b7e57602093600093608093604051938452868401526040830152606082015282805260015afa15611b725760005190565b6040513d6000823e3d90fd5b50505050600090565b50601b8214158015611b3f5750601c821415611b3f565b505050600090565b90600291611bb1575b565b3d15611be15760203d1015611bc257565b60005160018114611bd8575b611baf5760019150565b60009250611bce565b6000915056",
}

// CashierPayout is an auto generated Go binding around an Ethereum contract.
type CashierPayout struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *CashierPayout) GetABI() abi.ABI {
	return c.abi
}

// NewCashierPayout creates a new instance of CashierPayout.
func NewCashierPayout() *CashierPayout {
	parsed, err := CashierPayoutMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &CashierPayout{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *CashierPayout) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address owner_, address executor_, address signer_, address feeAddress_) returns()
func (cashierPayout *CashierPayout) PackConstructor(owner_ common.Address, executor_ common.Address, signer_ common.Address, feeAddress_ common.Address) []byte {
	enc, err := cashierPayout.abi.Pack("", owner_, executor_, signer_, feeAddress_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackALLOWANCETYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x648df827.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function ALLOWANCE_TYPEHASH() view returns(bytes32)
func (cashierPayout *CashierPayout) PackALLOWANCETYPEHASH() []byte {
	enc, err := cashierPayout.abi.Pack("ALLOWANCE_TYPEHASH")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackALLOWANCETYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x648df827.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function ALLOWANCE_TYPEHASH() view returns(bytes32)
func (cashierPayout *CashierPayout) TryPackALLOWANCETYPEHASH() ([]byte, error) {
	return cashierPayout.abi.Pack("ALLOWANCE_TYPEHASH")
}

// UnpackALLOWANCETYPEHASH is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x648df827.
//
// Solidity: function ALLOWANCE_TYPEHASH() view returns(bytes32)
func (cashierPayout *CashierPayout) UnpackALLOWANCETYPEHASH(data []byte) ([32]byte, error) {
	out, err := cashierPayout.abi.Unpack("ALLOWANCE_TYPEHASH", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackBALANCETYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x04bfc913.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function BALANCE_TYPEHASH() view returns(bytes32)
func (cashierPayout *CashierPayout) PackBALANCETYPEHASH() []byte {
	enc, err := cashierPayout.abi.Pack("BALANCE_TYPEHASH")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBALANCETYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x04bfc913.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function BALANCE_TYPEHASH() view returns(bytes32)
func (cashierPayout *CashierPayout) TryPackBALANCETYPEHASH() ([]byte, error) {
	return cashierPayout.abi.Pack("BALANCE_TYPEHASH")
}

// UnpackBALANCETYPEHASH is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x04bfc913.
//
// Solidity: function BALANCE_TYPEHASH() view returns(bytes32)
func (cashierPayout *CashierPayout) UnpackBALANCETYPEHASH(data []byte) ([32]byte, error) {
	out, err := cashierPayout.abi.Unpack("BALANCE_TYPEHASH", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackMAXFUTURESKEW is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x15db04fc.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MAX_FUTURE_SKEW() view returns(uint256)
func (cashierPayout *CashierPayout) PackMAXFUTURESKEW() []byte {
	enc, err := cashierPayout.abi.Pack("MAX_FUTURE_SKEW")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMAXFUTURESKEW is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x15db04fc.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MAX_FUTURE_SKEW() view returns(uint256)
func (cashierPayout *CashierPayout) TryPackMAXFUTURESKEW() ([]byte, error) {
	return cashierPayout.abi.Pack("MAX_FUTURE_SKEW")
}

// UnpackMAXFUTURESKEW is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x15db04fc.
//
// Solidity: function MAX_FUTURE_SKEW() view returns(uint256)
func (cashierPayout *CashierPayout) UnpackMAXFUTURESKEW(data []byte) (*big.Int, error) {
	out, err := cashierPayout.abi.Unpack("MAX_FUTURE_SKEW", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackMAXRECIPIENTS is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa6980ce2.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MAX_RECIPIENTS() view returns(uint256)
func (cashierPayout *CashierPayout) PackMAXRECIPIENTS() []byte {
	enc, err := cashierPayout.abi.Pack("MAX_RECIPIENTS")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMAXRECIPIENTS is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa6980ce2.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MAX_RECIPIENTS() view returns(uint256)
func (cashierPayout *CashierPayout) TryPackMAXRECIPIENTS() ([]byte, error) {
	return cashierPayout.abi.Pack("MAX_RECIPIENTS")
}

// UnpackMAXRECIPIENTS is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa6980ce2.
//
// Solidity: function MAX_RECIPIENTS() view returns(uint256)
func (cashierPayout *CashierPayout) UnpackMAXRECIPIENTS(data []byte) (*big.Int, error) {
	out, err := cashierPayout.abi.Unpack("MAX_RECIPIENTS", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackMAXSIGNATUREWINDOW is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x276530a7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MAX_SIGNATURE_WINDOW() view returns(uint256)
func (cashierPayout *CashierPayout) PackMAXSIGNATUREWINDOW() []byte {
	enc, err := cashierPayout.abi.Pack("MAX_SIGNATURE_WINDOW")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMAXSIGNATUREWINDOW is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x276530a7.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MAX_SIGNATURE_WINDOW() view returns(uint256)
func (cashierPayout *CashierPayout) TryPackMAXSIGNATUREWINDOW() ([]byte, error) {
	return cashierPayout.abi.Pack("MAX_SIGNATURE_WINDOW")
}

// UnpackMAXSIGNATUREWINDOW is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x276530a7.
//
// Solidity: function MAX_SIGNATURE_WINDOW() view returns(uint256)
func (cashierPayout *CashierPayout) UnpackMAXSIGNATUREWINDOW(data []byte) (*big.Int, error) {
	out, err := cashierPayout.abi.Unpack("MAX_SIGNATURE_WINDOW", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackMINSIGNATUREWINDOW is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8d8d0190.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MIN_SIGNATURE_WINDOW() view returns(uint256)
func (cashierPayout *CashierPayout) PackMINSIGNATUREWINDOW() []byte {
	enc, err := cashierPayout.abi.Pack("MIN_SIGNATURE_WINDOW")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMINSIGNATUREWINDOW is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8d8d0190.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MIN_SIGNATURE_WINDOW() view returns(uint256)
func (cashierPayout *CashierPayout) TryPackMINSIGNATUREWINDOW() ([]byte, error) {
	return cashierPayout.abi.Pack("MIN_SIGNATURE_WINDOW")
}

// UnpackMINSIGNATUREWINDOW is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8d8d0190.
//
// Solidity: function MIN_SIGNATURE_WINDOW() view returns(uint256)
func (cashierPayout *CashierPayout) UnpackMINSIGNATUREWINDOW(data []byte) (*big.Int, error) {
	out, err := cashierPayout.abi.Unpack("MIN_SIGNATURE_WINDOW", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackTRANSFERTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x00bf26f4.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function TRANSFER_TYPEHASH() view returns(bytes32)
func (cashierPayout *CashierPayout) PackTRANSFERTYPEHASH() []byte {
	enc, err := cashierPayout.abi.Pack("TRANSFER_TYPEHASH")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTRANSFERTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x00bf26f4.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function TRANSFER_TYPEHASH() view returns(bytes32)
func (cashierPayout *CashierPayout) TryPackTRANSFERTYPEHASH() ([]byte, error) {
	return cashierPayout.abi.Pack("TRANSFER_TYPEHASH")
}

// UnpackTRANSFERTYPEHASH is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x00bf26f4.
//
// Solidity: function TRANSFER_TYPEHASH() view returns(bytes32)
func (cashierPayout *CashierPayout) UnpackTRANSFERTYPEHASH(data []byte) ([32]byte, error) {
	out, err := cashierPayout.abi.Unpack("TRANSFER_TYPEHASH", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackVERSION is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xffa1ad74.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function VERSION() view returns(string)
func (cashierPayout *CashierPayout) PackVERSION() []byte {
	enc, err := cashierPayout.abi.Pack("VERSION")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackVERSION is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xffa1ad74.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function VERSION() view returns(string)
func (cashierPayout *CashierPayout) TryPackVERSION() ([]byte, error) {
	return cashierPayout.abi.Pack("VERSION")
}

// UnpackVERSION is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xffa1ad74.
//
// Solidity: function VERSION() view returns(string)
func (cashierPayout *CashierPayout) UnpackVERSION(data []byte) (string, error) {
	out, err := cashierPayout.abi.Unpack("VERSION", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackAcceptOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x79ba5097.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function acceptOwnership() returns()
func (cashierPayout *CashierPayout) PackAcceptOwnership() []byte {
	enc, err := cashierPayout.abi.Pack("acceptOwnership")
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
func (cashierPayout *CashierPayout) TryPackAcceptOwnership() ([]byte, error) {
	return cashierPayout.abi.Pack("acceptOwnership")
}

// PackAddToWhitelist is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7f649783.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function addToWhitelist(address[] accounts) returns()
func (cashierPayout *CashierPayout) PackAddToWhitelist(accounts []common.Address) []byte {
	enc, err := cashierPayout.abi.Pack("addToWhitelist", accounts)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAddToWhitelist is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7f649783.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function addToWhitelist(address[] accounts) returns()
func (cashierPayout *CashierPayout) TryPackAddToWhitelist(accounts []common.Address) ([]byte, error) {
	return cashierPayout.abi.Pack("addToWhitelist", accounts)
}

// PackAllowancePayoutDigest is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbeccd89b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function allowancePayoutDigest(address token, address from, address[] recipients, uint256[] amounts, uint256 totalFee, uint256 nonce, uint256 timestamp) view returns(bytes32)
func (cashierPayout *CashierPayout) PackAllowancePayoutDigest(token common.Address, from common.Address, recipients []common.Address, amounts []*big.Int, totalFee *big.Int, nonce *big.Int, timestamp *big.Int) []byte {
	enc, err := cashierPayout.abi.Pack("allowancePayoutDigest", token, from, recipients, amounts, totalFee, nonce, timestamp)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAllowancePayoutDigest is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbeccd89b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function allowancePayoutDigest(address token, address from, address[] recipients, uint256[] amounts, uint256 totalFee, uint256 nonce, uint256 timestamp) view returns(bytes32)
func (cashierPayout *CashierPayout) TryPackAllowancePayoutDigest(token common.Address, from common.Address, recipients []common.Address, amounts []*big.Int, totalFee *big.Int, nonce *big.Int, timestamp *big.Int) ([]byte, error) {
	return cashierPayout.abi.Pack("allowancePayoutDigest", token, from, recipients, amounts, totalFee, nonce, timestamp)
}

// UnpackAllowancePayoutDigest is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xbeccd89b.
//
// Solidity: function allowancePayoutDigest(address token, address from, address[] recipients, uint256[] amounts, uint256 totalFee, uint256 nonce, uint256 timestamp) view returns(bytes32)
func (cashierPayout *CashierPayout) UnpackAllowancePayoutDigest(data []byte) ([32]byte, error) {
	out, err := cashierPayout.abi.Unpack("allowancePayoutDigest", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackAllowanceWhitelistEnabled is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9f584c3c.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function allowanceWhitelistEnabled() view returns(bool)
func (cashierPayout *CashierPayout) PackAllowanceWhitelistEnabled() []byte {
	enc, err := cashierPayout.abi.Pack("allowanceWhitelistEnabled")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAllowanceWhitelistEnabled is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9f584c3c.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function allowanceWhitelistEnabled() view returns(bool)
func (cashierPayout *CashierPayout) TryPackAllowanceWhitelistEnabled() ([]byte, error) {
	return cashierPayout.abi.Pack("allowanceWhitelistEnabled")
}

// UnpackAllowanceWhitelistEnabled is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x9f584c3c.
//
// Solidity: function allowanceWhitelistEnabled() view returns(bool)
func (cashierPayout *CashierPayout) UnpackAllowanceWhitelistEnabled(data []byte) (bool, error) {
	out, err := cashierPayout.abi.Unpack("allowanceWhitelistEnabled", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackBalancePayoutDigest is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb771cb24.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function balancePayoutDigest(address token, address[] recipients, uint256[] amounts, uint256 totalFee, uint256 nonce, uint256 timestamp) view returns(bytes32)
func (cashierPayout *CashierPayout) PackBalancePayoutDigest(token common.Address, recipients []common.Address, amounts []*big.Int, totalFee *big.Int, nonce *big.Int, timestamp *big.Int) []byte {
	enc, err := cashierPayout.abi.Pack("balancePayoutDigest", token, recipients, amounts, totalFee, nonce, timestamp)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBalancePayoutDigest is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb771cb24.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function balancePayoutDigest(address token, address[] recipients, uint256[] amounts, uint256 totalFee, uint256 nonce, uint256 timestamp) view returns(bytes32)
func (cashierPayout *CashierPayout) TryPackBalancePayoutDigest(token common.Address, recipients []common.Address, amounts []*big.Int, totalFee *big.Int, nonce *big.Int, timestamp *big.Int) ([]byte, error) {
	return cashierPayout.abi.Pack("balancePayoutDigest", token, recipients, amounts, totalFee, nonce, timestamp)
}

// UnpackBalancePayoutDigest is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xb771cb24.
//
// Solidity: function balancePayoutDigest(address token, address[] recipients, uint256[] amounts, uint256 totalFee, uint256 nonce, uint256 timestamp) view returns(bytes32)
func (cashierPayout *CashierPayout) UnpackBalancePayoutDigest(data []byte) ([32]byte, error) {
	out, err := cashierPayout.abi.Unpack("balancePayoutDigest", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackBalanceWhitelistEnabled is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x01bd387c.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function balanceWhitelistEnabled() view returns(bool)
func (cashierPayout *CashierPayout) PackBalanceWhitelistEnabled() []byte {
	enc, err := cashierPayout.abi.Pack("balanceWhitelistEnabled")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBalanceWhitelistEnabled is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x01bd387c.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function balanceWhitelistEnabled() view returns(bool)
func (cashierPayout *CashierPayout) TryPackBalanceWhitelistEnabled() ([]byte, error) {
	return cashierPayout.abi.Pack("balanceWhitelistEnabled")
}

// UnpackBalanceWhitelistEnabled is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x01bd387c.
//
// Solidity: function balanceWhitelistEnabled() view returns(bool)
func (cashierPayout *CashierPayout) UnpackBalanceWhitelistEnabled(data []byte) (bool, error) {
	out, err := cashierPayout.abi.Unpack("balanceWhitelistEnabled", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackDomainSeparator is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf698da25.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function domainSeparator() view returns(bytes32)
func (cashierPayout *CashierPayout) PackDomainSeparator() []byte {
	enc, err := cashierPayout.abi.Pack("domainSeparator")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDomainSeparator is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf698da25.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function domainSeparator() view returns(bytes32)
func (cashierPayout *CashierPayout) TryPackDomainSeparator() ([]byte, error) {
	return cashierPayout.abi.Pack("domainSeparator")
}

// UnpackDomainSeparator is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xf698da25.
//
// Solidity: function domainSeparator() view returns(bytes32)
func (cashierPayout *CashierPayout) UnpackDomainSeparator(data []byte) ([32]byte, error) {
	out, err := cashierPayout.abi.Unpack("domainSeparator", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackExecutor is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc34c08e5.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function executor() view returns(address)
func (cashierPayout *CashierPayout) PackExecutor() []byte {
	enc, err := cashierPayout.abi.Pack("executor")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackExecutor is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc34c08e5.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function executor() view returns(address)
func (cashierPayout *CashierPayout) TryPackExecutor() ([]byte, error) {
	return cashierPayout.abi.Pack("executor")
}

// UnpackExecutor is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xc34c08e5.
//
// Solidity: function executor() view returns(address)
func (cashierPayout *CashierPayout) UnpackExecutor(data []byte) (common.Address, error) {
	out, err := cashierPayout.abi.Unpack("executor", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackFeeAddress is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x41275358.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function feeAddress() view returns(address)
func (cashierPayout *CashierPayout) PackFeeAddress() []byte {
	enc, err := cashierPayout.abi.Pack("feeAddress")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackFeeAddress is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x41275358.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function feeAddress() view returns(address)
func (cashierPayout *CashierPayout) TryPackFeeAddress() ([]byte, error) {
	return cashierPayout.abi.Pack("feeAddress")
}

// UnpackFeeAddress is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x41275358.
//
// Solidity: function feeAddress() view returns(address)
func (cashierPayout *CashierPayout) UnpackFeeAddress(data []byte) (common.Address, error) {
	out, err := cashierPayout.abi.Unpack("feeAddress", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackNonceUsed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x94d0d3a6.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function nonceUsed(uint256 ) view returns(bool)
func (cashierPayout *CashierPayout) PackNonceUsed(arg0 *big.Int) []byte {
	enc, err := cashierPayout.abi.Pack("nonceUsed", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackNonceUsed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x94d0d3a6.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function nonceUsed(uint256 ) view returns(bool)
func (cashierPayout *CashierPayout) TryPackNonceUsed(arg0 *big.Int) ([]byte, error) {
	return cashierPayout.abi.Pack("nonceUsed", arg0)
}

// UnpackNonceUsed is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x94d0d3a6.
//
// Solidity: function nonceUsed(uint256 ) view returns(bool)
func (cashierPayout *CashierPayout) UnpackNonceUsed(data []byte) (bool, error) {
	out, err := cashierPayout.abi.Unpack("nonceUsed", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owner() view returns(address)
func (cashierPayout *CashierPayout) PackOwner() []byte {
	enc, err := cashierPayout.abi.Pack("owner")
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
func (cashierPayout *CashierPayout) TryPackOwner() ([]byte, error) {
	return cashierPayout.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (cashierPayout *CashierPayout) UnpackOwner(data []byte) (common.Address, error) {
	out, err := cashierPayout.abi.Unpack("owner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackPayoutWithAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb67317a7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function payoutWithAllowance(address token, address from, address[] recipients, uint256[] amounts, uint256 totalFee, bytes signature, uint256 nonce, uint256 timestamp) returns()
func (cashierPayout *CashierPayout) PackPayoutWithAllowance(token common.Address, from common.Address, recipients []common.Address, amounts []*big.Int, totalFee *big.Int, signature []byte, nonce *big.Int, timestamp *big.Int) []byte {
	enc, err := cashierPayout.abi.Pack("payoutWithAllowance", token, from, recipients, amounts, totalFee, signature, nonce, timestamp)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPayoutWithAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb67317a7.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function payoutWithAllowance(address token, address from, address[] recipients, uint256[] amounts, uint256 totalFee, bytes signature, uint256 nonce, uint256 timestamp) returns()
func (cashierPayout *CashierPayout) TryPackPayoutWithAllowance(token common.Address, from common.Address, recipients []common.Address, amounts []*big.Int, totalFee *big.Int, signature []byte, nonce *big.Int, timestamp *big.Int) ([]byte, error) {
	return cashierPayout.abi.Pack("payoutWithAllowance", token, from, recipients, amounts, totalFee, signature, nonce, timestamp)
}

// PackPayoutWithBalance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x07a0cd01.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function payoutWithBalance(address token, address[] recipients, uint256[] amounts, uint256 totalFee, bytes signature, uint256 nonce, uint256 timestamp) returns()
func (cashierPayout *CashierPayout) PackPayoutWithBalance(token common.Address, recipients []common.Address, amounts []*big.Int, totalFee *big.Int, signature []byte, nonce *big.Int, timestamp *big.Int) []byte {
	enc, err := cashierPayout.abi.Pack("payoutWithBalance", token, recipients, amounts, totalFee, signature, nonce, timestamp)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPayoutWithBalance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x07a0cd01.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function payoutWithBalance(address token, address[] recipients, uint256[] amounts, uint256 totalFee, bytes signature, uint256 nonce, uint256 timestamp) returns()
func (cashierPayout *CashierPayout) TryPackPayoutWithBalance(token common.Address, recipients []common.Address, amounts []*big.Int, totalFee *big.Int, signature []byte, nonce *big.Int, timestamp *big.Int) ([]byte, error) {
	return cashierPayout.abi.Pack("payoutWithBalance", token, recipients, amounts, totalFee, signature, nonce, timestamp)
}

// PackPendingOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe30c3978.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function pendingOwner() view returns(address)
func (cashierPayout *CashierPayout) PackPendingOwner() []byte {
	enc, err := cashierPayout.abi.Pack("pendingOwner")
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
func (cashierPayout *CashierPayout) TryPackPendingOwner() ([]byte, error) {
	return cashierPayout.abi.Pack("pendingOwner")
}

// UnpackPendingOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xe30c3978.
//
// Solidity: function pendingOwner() view returns(address)
func (cashierPayout *CashierPayout) UnpackPendingOwner(data []byte) (common.Address, error) {
	out, err := cashierPayout.abi.Unpack("pendingOwner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackRemoveFromWhitelist is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x548db174.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function removeFromWhitelist(address[] accounts) returns()
func (cashierPayout *CashierPayout) PackRemoveFromWhitelist(accounts []common.Address) []byte {
	enc, err := cashierPayout.abi.Pack("removeFromWhitelist", accounts)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRemoveFromWhitelist is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x548db174.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function removeFromWhitelist(address[] accounts) returns()
func (cashierPayout *CashierPayout) TryPackRemoveFromWhitelist(accounts []common.Address) ([]byte, error) {
	return cashierPayout.abi.Pack("removeFromWhitelist", accounts)
}

// PackSetExecutor is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1c3c0ea8.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setExecutor(address executor_) returns()
func (cashierPayout *CashierPayout) PackSetExecutor(executor common.Address) []byte {
	enc, err := cashierPayout.abi.Pack("setExecutor", executor)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetExecutor is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1c3c0ea8.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setExecutor(address executor_) returns()
func (cashierPayout *CashierPayout) TryPackSetExecutor(executor common.Address) ([]byte, error) {
	return cashierPayout.abi.Pack("setExecutor", executor)
}

// PackSetFeeAddress is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8705fcd4.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setFeeAddress(address feeAddress_) returns()
func (cashierPayout *CashierPayout) PackSetFeeAddress(feeAddress common.Address) []byte {
	enc, err := cashierPayout.abi.Pack("setFeeAddress", feeAddress)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetFeeAddress is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8705fcd4.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setFeeAddress(address feeAddress_) returns()
func (cashierPayout *CashierPayout) TryPackSetFeeAddress(feeAddress common.Address) ([]byte, error) {
	return cashierPayout.abi.Pack("setFeeAddress", feeAddress)
}

// PackSetSignatureWindow is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xcfe32bd5.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setSignatureWindow(uint256 window) returns()
func (cashierPayout *CashierPayout) PackSetSignatureWindow(window *big.Int) []byte {
	enc, err := cashierPayout.abi.Pack("setSignatureWindow", window)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetSignatureWindow is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xcfe32bd5.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setSignatureWindow(uint256 window) returns()
func (cashierPayout *CashierPayout) TryPackSetSignatureWindow(window *big.Int) ([]byte, error) {
	return cashierPayout.abi.Pack("setSignatureWindow", window)
}

// PackSetSigner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6c19e783.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setSigner(address signer_) returns()
func (cashierPayout *CashierPayout) PackSetSigner(signer common.Address) []byte {
	enc, err := cashierPayout.abi.Pack("setSigner", signer)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetSigner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6c19e783.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setSigner(address signer_) returns()
func (cashierPayout *CashierPayout) TryPackSetSigner(signer common.Address) ([]byte, error) {
	return cashierPayout.abi.Pack("setSigner", signer)
}

// PackSetWhitelistMode is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa4ca6e0e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setWhitelistMode(bool balanceMode, bool allowanceMode) returns()
func (cashierPayout *CashierPayout) PackSetWhitelistMode(balanceMode bool, allowanceMode bool) []byte {
	enc, err := cashierPayout.abi.Pack("setWhitelistMode", balanceMode, allowanceMode)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetWhitelistMode is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa4ca6e0e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setWhitelistMode(bool balanceMode, bool allowanceMode) returns()
func (cashierPayout *CashierPayout) TryPackSetWhitelistMode(balanceMode bool, allowanceMode bool) ([]byte, error) {
	return cashierPayout.abi.Pack("setWhitelistMode", balanceMode, allowanceMode)
}

// PackSignatureWindow is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfbc7b530.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function signatureWindow() view returns(uint256)
func (cashierPayout *CashierPayout) PackSignatureWindow() []byte {
	enc, err := cashierPayout.abi.Pack("signatureWindow")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSignatureWindow is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfbc7b530.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function signatureWindow() view returns(uint256)
func (cashierPayout *CashierPayout) TryPackSignatureWindow() ([]byte, error) {
	return cashierPayout.abi.Pack("signatureWindow")
}

// UnpackSignatureWindow is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xfbc7b530.
//
// Solidity: function signatureWindow() view returns(uint256)
func (cashierPayout *CashierPayout) UnpackSignatureWindow(data []byte) (*big.Int, error) {
	out, err := cashierPayout.abi.Unpack("signatureWindow", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackSigner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x238ac933.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function signer() view returns(address)
func (cashierPayout *CashierPayout) PackSigner() []byte {
	enc, err := cashierPayout.abi.Pack("signer")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSigner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x238ac933.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function signer() view returns(address)
func (cashierPayout *CashierPayout) TryPackSigner() ([]byte, error) {
	return cashierPayout.abi.Pack("signer")
}

// UnpackSigner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x238ac933.
//
// Solidity: function signer() view returns(address)
func (cashierPayout *CashierPayout) UnpackSigner(data []byte) (common.Address, error) {
	out, err := cashierPayout.abi.Unpack("signer", data)
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
func (cashierPayout *CashierPayout) PackTransferOwnership(newOwner common.Address) []byte {
	enc, err := cashierPayout.abi.Pack("transferOwnership", newOwner)
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
func (cashierPayout *CashierPayout) TryPackTransferOwnership(newOwner common.Address) ([]byte, error) {
	return cashierPayout.abi.Pack("transferOwnership", newOwner)
}

// PackWhitelisted is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd936547e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function whitelisted(address ) view returns(bool)
func (cashierPayout *CashierPayout) PackWhitelisted(arg0 common.Address) []byte {
	enc, err := cashierPayout.abi.Pack("whitelisted", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWhitelisted is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd936547e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function whitelisted(address ) view returns(bool)
func (cashierPayout *CashierPayout) TryPackWhitelisted(arg0 common.Address) ([]byte, error) {
	return cashierPayout.abi.Pack("whitelisted", arg0)
}

// UnpackWhitelisted is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xd936547e.
//
// Solidity: function whitelisted(address ) view returns(bool)
func (cashierPayout *CashierPayout) UnpackWhitelisted(data []byte) (bool, error) {
	out, err := cashierPayout.abi.Unpack("whitelisted", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackWithdraw is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd9caed12.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function withdraw(address token, address to, uint256 amount) returns()
func (cashierPayout *CashierPayout) PackWithdraw(token common.Address, to common.Address, amount *big.Int) []byte {
	enc, err := cashierPayout.abi.Pack("withdraw", token, to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWithdraw is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd9caed12.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function withdraw(address token, address to, uint256 amount) returns()
func (cashierPayout *CashierPayout) TryPackWithdraw(token common.Address, to common.Address, amount *big.Int) ([]byte, error) {
	return cashierPayout.abi.Pack("withdraw", token, to, amount)
}

// PackWithdrawNative is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x07b18bde.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function withdrawNative(address to, uint256 amount) returns()
func (cashierPayout *CashierPayout) PackWithdrawNative(to common.Address, amount *big.Int) []byte {
	enc, err := cashierPayout.abi.Pack("withdrawNative", to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWithdrawNative is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x07b18bde.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function withdrawNative(address to, uint256 amount) returns()
func (cashierPayout *CashierPayout) TryPackWithdrawNative(to common.Address, amount *big.Int) ([]byte, error) {
	return cashierPayout.abi.Pack("withdrawNative", to, amount)
}

// CashierPayoutBatchPayoutWithAllowance represents a BatchPayoutWithAllowance event raised by the CashierPayout contract.
type CashierPayoutBatchPayoutWithAllowance struct {
	Token          common.Address
	From           common.Address
	TotalAmount    *big.Int
	TotalFee       *big.Int
	RecipientCount *big.Int
	Nonce          *big.Int
	Timestamp      *big.Int
	Operator       common.Address
	Raw            *types.Log // Blockchain specific contextual infos
}

const CashierPayoutBatchPayoutWithAllowanceEventName = "BatchPayoutWithAllowance"

// ContractEventName returns the user-defined event name.
func (CashierPayoutBatchPayoutWithAllowance) ContractEventName() string {
	return CashierPayoutBatchPayoutWithAllowanceEventName
}

// UnpackBatchPayoutWithAllowanceEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event BatchPayoutWithAllowance(address indexed token, address indexed from, uint256 totalAmount, uint256 totalFee, uint256 recipientCount, uint256 nonce, uint256 timestamp, address indexed operator)
func (cashierPayout *CashierPayout) UnpackBatchPayoutWithAllowanceEvent(log *types.Log) (*CashierPayoutBatchPayoutWithAllowance, error) {
	event := "BatchPayoutWithAllowance"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != cashierPayout.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(CashierPayoutBatchPayoutWithAllowance)
	if len(log.Data) > 0 {
		if err := cashierPayout.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range cashierPayout.abi.Events[event].Inputs {
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

// CashierPayoutBatchPayoutWithBalance represents a BatchPayoutWithBalance event raised by the CashierPayout contract.
type CashierPayoutBatchPayoutWithBalance struct {
	Token          common.Address
	TotalAmount    *big.Int
	TotalFee       *big.Int
	RecipientCount *big.Int
	Nonce          *big.Int
	Timestamp      *big.Int
	Operator       common.Address
	Raw            *types.Log // Blockchain specific contextual infos
}

const CashierPayoutBatchPayoutWithBalanceEventName = "BatchPayoutWithBalance"

// ContractEventName returns the user-defined event name.
func (CashierPayoutBatchPayoutWithBalance) ContractEventName() string {
	return CashierPayoutBatchPayoutWithBalanceEventName
}

// UnpackBatchPayoutWithBalanceEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event BatchPayoutWithBalance(address indexed token, uint256 totalAmount, uint256 totalFee, uint256 recipientCount, uint256 nonce, uint256 timestamp, address indexed operator)
func (cashierPayout *CashierPayout) UnpackBatchPayoutWithBalanceEvent(log *types.Log) (*CashierPayoutBatchPayoutWithBalance, error) {
	event := "BatchPayoutWithBalance"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != cashierPayout.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(CashierPayoutBatchPayoutWithBalance)
	if len(log.Data) > 0 {
		if err := cashierPayout.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range cashierPayout.abi.Events[event].Inputs {
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

// CashierPayoutExecutorChanged represents a ExecutorChanged event raised by the CashierPayout contract.
type CashierPayoutExecutorChanged struct {
	Previous common.Address
	Current  common.Address
	Raw      *types.Log // Blockchain specific contextual infos
}

const CashierPayoutExecutorChangedEventName = "ExecutorChanged"

// ContractEventName returns the user-defined event name.
func (CashierPayoutExecutorChanged) ContractEventName() string {
	return CashierPayoutExecutorChangedEventName
}

// UnpackExecutorChangedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event ExecutorChanged(address indexed previous, address indexed current)
func (cashierPayout *CashierPayout) UnpackExecutorChangedEvent(log *types.Log) (*CashierPayoutExecutorChanged, error) {
	event := "ExecutorChanged"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != cashierPayout.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(CashierPayoutExecutorChanged)
	if len(log.Data) > 0 {
		if err := cashierPayout.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range cashierPayout.abi.Events[event].Inputs {
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

// CashierPayoutFeeAddressChanged represents a FeeAddressChanged event raised by the CashierPayout contract.
type CashierPayoutFeeAddressChanged struct {
	Previous common.Address
	Current  common.Address
	Raw      *types.Log // Blockchain specific contextual infos
}

const CashierPayoutFeeAddressChangedEventName = "FeeAddressChanged"

// ContractEventName returns the user-defined event name.
func (CashierPayoutFeeAddressChanged) ContractEventName() string {
	return CashierPayoutFeeAddressChangedEventName
}

// UnpackFeeAddressChangedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event FeeAddressChanged(address indexed previous, address indexed current)
func (cashierPayout *CashierPayout) UnpackFeeAddressChangedEvent(log *types.Log) (*CashierPayoutFeeAddressChanged, error) {
	event := "FeeAddressChanged"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != cashierPayout.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(CashierPayoutFeeAddressChanged)
	if len(log.Data) > 0 {
		if err := cashierPayout.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range cashierPayout.abi.Events[event].Inputs {
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

// CashierPayoutNativeReceived represents a NativeReceived event raised by the CashierPayout contract.
type CashierPayoutNativeReceived struct {
	From   common.Address
	Amount *big.Int
	Raw    *types.Log // Blockchain specific contextual infos
}

const CashierPayoutNativeReceivedEventName = "NativeReceived"

// ContractEventName returns the user-defined event name.
func (CashierPayoutNativeReceived) ContractEventName() string {
	return CashierPayoutNativeReceivedEventName
}

// UnpackNativeReceivedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event NativeReceived(address indexed from, uint256 amount)
func (cashierPayout *CashierPayout) UnpackNativeReceivedEvent(log *types.Log) (*CashierPayoutNativeReceived, error) {
	event := "NativeReceived"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != cashierPayout.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(CashierPayoutNativeReceived)
	if len(log.Data) > 0 {
		if err := cashierPayout.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range cashierPayout.abi.Events[event].Inputs {
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

// CashierPayoutNativeWithdrawn represents a NativeWithdrawn event raised by the CashierPayout contract.
type CashierPayoutNativeWithdrawn struct {
	To     common.Address
	Amount *big.Int
	Raw    *types.Log // Blockchain specific contextual infos
}

const CashierPayoutNativeWithdrawnEventName = "NativeWithdrawn"

// ContractEventName returns the user-defined event name.
func (CashierPayoutNativeWithdrawn) ContractEventName() string {
	return CashierPayoutNativeWithdrawnEventName
}

// UnpackNativeWithdrawnEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event NativeWithdrawn(address indexed to, uint256 amount)
func (cashierPayout *CashierPayout) UnpackNativeWithdrawnEvent(log *types.Log) (*CashierPayoutNativeWithdrawn, error) {
	event := "NativeWithdrawn"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != cashierPayout.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(CashierPayoutNativeWithdrawn)
	if len(log.Data) > 0 {
		if err := cashierPayout.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range cashierPayout.abi.Events[event].Inputs {
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

// CashierPayoutOwnershipTransferStarted represents a OwnershipTransferStarted event raised by the CashierPayout contract.
type CashierPayoutOwnershipTransferStarted struct {
	PreviousOwner common.Address
	NewOwner      common.Address
	Raw           *types.Log // Blockchain specific contextual infos
}

const CashierPayoutOwnershipTransferStartedEventName = "OwnershipTransferStarted"

// ContractEventName returns the user-defined event name.
func (CashierPayoutOwnershipTransferStarted) ContractEventName() string {
	return CashierPayoutOwnershipTransferStartedEventName
}

// UnpackOwnershipTransferStartedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event OwnershipTransferStarted(address indexed previousOwner, address indexed newOwner)
func (cashierPayout *CashierPayout) UnpackOwnershipTransferStartedEvent(log *types.Log) (*CashierPayoutOwnershipTransferStarted, error) {
	event := "OwnershipTransferStarted"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != cashierPayout.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(CashierPayoutOwnershipTransferStarted)
	if len(log.Data) > 0 {
		if err := cashierPayout.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range cashierPayout.abi.Events[event].Inputs {
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

// CashierPayoutOwnershipTransferred represents a OwnershipTransferred event raised by the CashierPayout contract.
type CashierPayoutOwnershipTransferred struct {
	PreviousOwner common.Address
	NewOwner      common.Address
	Raw           *types.Log // Blockchain specific contextual infos
}

const CashierPayoutOwnershipTransferredEventName = "OwnershipTransferred"

// ContractEventName returns the user-defined event name.
func (CashierPayoutOwnershipTransferred) ContractEventName() string {
	return CashierPayoutOwnershipTransferredEventName
}

// UnpackOwnershipTransferredEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)
func (cashierPayout *CashierPayout) UnpackOwnershipTransferredEvent(log *types.Log) (*CashierPayoutOwnershipTransferred, error) {
	event := "OwnershipTransferred"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != cashierPayout.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(CashierPayoutOwnershipTransferred)
	if len(log.Data) > 0 {
		if err := cashierPayout.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range cashierPayout.abi.Events[event].Inputs {
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

// CashierPayoutPayoutTransfer represents a PayoutTransfer event raised by the CashierPayout contract.
type CashierPayoutPayoutTransfer struct {
	Nonce     *big.Int
	Index     *big.Int
	Recipient common.Address
	Amount    *big.Int
	Raw       *types.Log // Blockchain specific contextual infos
}

const CashierPayoutPayoutTransferEventName = "PayoutTransfer"

// ContractEventName returns the user-defined event name.
func (CashierPayoutPayoutTransfer) ContractEventName() string {
	return CashierPayoutPayoutTransferEventName
}

// UnpackPayoutTransferEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event PayoutTransfer(uint256 indexed nonce, uint256 index, address indexed recipient, uint256 amount)
func (cashierPayout *CashierPayout) UnpackPayoutTransferEvent(log *types.Log) (*CashierPayoutPayoutTransfer, error) {
	event := "PayoutTransfer"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != cashierPayout.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(CashierPayoutPayoutTransfer)
	if len(log.Data) > 0 {
		if err := cashierPayout.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range cashierPayout.abi.Events[event].Inputs {
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

// CashierPayoutSignatureWindowChanged represents a SignatureWindowChanged event raised by the CashierPayout contract.
type CashierPayoutSignatureWindowChanged struct {
	Previous *big.Int
	Current  *big.Int
	Raw      *types.Log // Blockchain specific contextual infos
}

const CashierPayoutSignatureWindowChangedEventName = "SignatureWindowChanged"

// ContractEventName returns the user-defined event name.
func (CashierPayoutSignatureWindowChanged) ContractEventName() string {
	return CashierPayoutSignatureWindowChangedEventName
}

// UnpackSignatureWindowChangedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event SignatureWindowChanged(uint256 previous, uint256 current)
func (cashierPayout *CashierPayout) UnpackSignatureWindowChangedEvent(log *types.Log) (*CashierPayoutSignatureWindowChanged, error) {
	event := "SignatureWindowChanged"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != cashierPayout.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(CashierPayoutSignatureWindowChanged)
	if len(log.Data) > 0 {
		if err := cashierPayout.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range cashierPayout.abi.Events[event].Inputs {
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

// CashierPayoutSignerChanged represents a SignerChanged event raised by the CashierPayout contract.
type CashierPayoutSignerChanged struct {
	Previous common.Address
	Current  common.Address
	Raw      *types.Log // Blockchain specific contextual infos
}

const CashierPayoutSignerChangedEventName = "SignerChanged"

// ContractEventName returns the user-defined event name.
func (CashierPayoutSignerChanged) ContractEventName() string {
	return CashierPayoutSignerChangedEventName
}

// UnpackSignerChangedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event SignerChanged(address indexed previous, address indexed current)
func (cashierPayout *CashierPayout) UnpackSignerChangedEvent(log *types.Log) (*CashierPayoutSignerChanged, error) {
	event := "SignerChanged"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != cashierPayout.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(CashierPayoutSignerChanged)
	if len(log.Data) > 0 {
		if err := cashierPayout.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range cashierPayout.abi.Events[event].Inputs {
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

// CashierPayoutWhitelistModeChanged represents a WhitelistModeChanged event raised by the CashierPayout contract.
type CashierPayoutWhitelistModeChanged struct {
	BalanceMode   bool
	AllowanceMode bool
	Raw           *types.Log // Blockchain specific contextual infos
}

const CashierPayoutWhitelistModeChangedEventName = "WhitelistModeChanged"

// ContractEventName returns the user-defined event name.
func (CashierPayoutWhitelistModeChanged) ContractEventName() string {
	return CashierPayoutWhitelistModeChangedEventName
}

// UnpackWhitelistModeChangedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event WhitelistModeChanged(bool balanceMode, bool allowanceMode)
func (cashierPayout *CashierPayout) UnpackWhitelistModeChangedEvent(log *types.Log) (*CashierPayoutWhitelistModeChanged, error) {
	event := "WhitelistModeChanged"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != cashierPayout.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(CashierPayoutWhitelistModeChanged)
	if len(log.Data) > 0 {
		if err := cashierPayout.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range cashierPayout.abi.Events[event].Inputs {
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

// CashierPayoutWhitelistUpdated represents a WhitelistUpdated event raised by the CashierPayout contract.
type CashierPayoutWhitelistUpdated struct {
	Account common.Address
	Allowed bool
	Raw     *types.Log // Blockchain specific contextual infos
}

const CashierPayoutWhitelistUpdatedEventName = "WhitelistUpdated"

// ContractEventName returns the user-defined event name.
func (CashierPayoutWhitelistUpdated) ContractEventName() string {
	return CashierPayoutWhitelistUpdatedEventName
}

// UnpackWhitelistUpdatedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event WhitelistUpdated(address indexed account, bool allowed)
func (cashierPayout *CashierPayout) UnpackWhitelistUpdatedEvent(log *types.Log) (*CashierPayoutWhitelistUpdated, error) {
	event := "WhitelistUpdated"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != cashierPayout.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(CashierPayoutWhitelistUpdated)
	if len(log.Data) > 0 {
		if err := cashierPayout.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range cashierPayout.abi.Events[event].Inputs {
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

// CashierPayoutWithdrawn represents a Withdrawn event raised by the CashierPayout contract.
type CashierPayoutWithdrawn struct {
	Token  common.Address
	To     common.Address
	Amount *big.Int
	Raw    *types.Log // Blockchain specific contextual infos
}

const CashierPayoutWithdrawnEventName = "Withdrawn"

// ContractEventName returns the user-defined event name.
func (CashierPayoutWithdrawn) ContractEventName() string {
	return CashierPayoutWithdrawnEventName
}

// UnpackWithdrawnEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Withdrawn(address indexed token, address indexed to, uint256 amount)
func (cashierPayout *CashierPayout) UnpackWithdrawnEvent(log *types.Log) (*CashierPayoutWithdrawn, error) {
	event := "Withdrawn"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != cashierPayout.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(CashierPayoutWithdrawn)
	if len(log.Data) > 0 {
		if err := cashierPayout.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range cashierPayout.abi.Events[event].Inputs {
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
func (cashierPayout *CashierPayout) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], cashierPayout.abi.Errors["EmptyBatch"].ID.Bytes()[:4]) {
		return cashierPayout.UnpackEmptyBatchError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashierPayout.abi.Errors["InsufficientAllowance"].ID.Bytes()[:4]) {
		return cashierPayout.UnpackInsufficientAllowanceError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashierPayout.abi.Errors["InsufficientContractBalance"].ID.Bytes()[:4]) {
		return cashierPayout.UnpackInsufficientContractBalanceError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashierPayout.abi.Errors["InsufficientFromBalance"].ID.Bytes()[:4]) {
		return cashierPayout.UnpackInsufficientFromBalanceError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashierPayout.abi.Errors["InvalidFeeAddress"].ID.Bytes()[:4]) {
		return cashierPayout.UnpackInvalidFeeAddressError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashierPayout.abi.Errors["InvalidFrom"].ID.Bytes()[:4]) {
		return cashierPayout.UnpackInvalidFromError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashierPayout.abi.Errors["InvalidRecipient"].ID.Bytes()[:4]) {
		return cashierPayout.UnpackInvalidRecipientError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashierPayout.abi.Errors["InvalidSignature"].ID.Bytes()[:4]) {
		return cashierPayout.UnpackInvalidSignatureError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashierPayout.abi.Errors["InvalidSignatureWindow"].ID.Bytes()[:4]) {
		return cashierPayout.UnpackInvalidSignatureWindowError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashierPayout.abi.Errors["LengthMismatch"].ID.Bytes()[:4]) {
		return cashierPayout.UnpackLengthMismatchError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashierPayout.abi.Errors["NativeTransferFailed"].ID.Bytes()[:4]) {
		return cashierPayout.UnpackNativeTransferFailedError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashierPayout.abi.Errors["NonceUsed"].ID.Bytes()[:4]) {
		return cashierPayout.UnpackNonceUsedError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashierPayout.abi.Errors["NotExecutor"].ID.Bytes()[:4]) {
		return cashierPayout.UnpackNotExecutorError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashierPayout.abi.Errors["NotOwner"].ID.Bytes()[:4]) {
		return cashierPayout.UnpackNotOwnerError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashierPayout.abi.Errors["NotPendingOwner"].ID.Bytes()[:4]) {
		return cashierPayout.UnpackNotPendingOwnerError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashierPayout.abi.Errors["RecipientNotWhitelisted"].ID.Bytes()[:4]) {
		return cashierPayout.UnpackRecipientNotWhitelistedError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashierPayout.abi.Errors["SignatureExpired"].ID.Bytes()[:4]) {
		return cashierPayout.UnpackSignatureExpiredError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashierPayout.abi.Errors["TimestampInFuture"].ID.Bytes()[:4]) {
		return cashierPayout.UnpackTimestampInFutureError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashierPayout.abi.Errors["TokenNotContract"].ID.Bytes()[:4]) {
		return cashierPayout.UnpackTokenNotContractError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashierPayout.abi.Errors["TokenTransferFailed"].ID.Bytes()[:4]) {
		return cashierPayout.UnpackTokenTransferFailedError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashierPayout.abi.Errors["TooManyRecipients"].ID.Bytes()[:4]) {
		return cashierPayout.UnpackTooManyRecipientsError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashierPayout.abi.Errors["TransferNotVerified"].ID.Bytes()[:4]) {
		return cashierPayout.UnpackTransferNotVerifiedError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashierPayout.abi.Errors["ZeroAddress"].ID.Bytes()[:4]) {
		return cashierPayout.UnpackZeroAddressError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashierPayout.abi.Errors["ZeroAmount"].ID.Bytes()[:4]) {
		return cashierPayout.UnpackZeroAmountError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// CashierPayoutEmptyBatch represents a EmptyBatch error raised by the CashierPayout contract.
type CashierPayoutEmptyBatch struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error EmptyBatch()
func CashierPayoutEmptyBatchErrorID() common.Hash {
	return common.HexToHash("0xc2e5347df6cf8d1bf68f8a9651642312bd381b900d857d97cd665976180d6ae0")
}

// UnpackEmptyBatchError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error EmptyBatch()
func (cashierPayout *CashierPayout) UnpackEmptyBatchError(raw []byte) (*CashierPayoutEmptyBatch, error) {
	out := new(CashierPayoutEmptyBatch)
	if err := cashierPayout.abi.UnpackIntoInterface(out, "EmptyBatch", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashierPayoutInsufficientAllowance represents a InsufficientAllowance error raised by the CashierPayout contract.
type CashierPayoutInsufficientAllowance struct {
	From      common.Address
	Available *big.Int
	Required  *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InsufficientAllowance(address from, uint256 available, uint256 required)
func CashierPayoutInsufficientAllowanceErrorID() common.Hash {
	return common.HexToHash("0x192b9e4ebc4a4fb7dd02b679453572cd28ba5c859d02dc04b21a8c00bc0a41f0")
}

// UnpackInsufficientAllowanceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InsufficientAllowance(address from, uint256 available, uint256 required)
func (cashierPayout *CashierPayout) UnpackInsufficientAllowanceError(raw []byte) (*CashierPayoutInsufficientAllowance, error) {
	out := new(CashierPayoutInsufficientAllowance)
	if err := cashierPayout.abi.UnpackIntoInterface(out, "InsufficientAllowance", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashierPayoutInsufficientContractBalance represents a InsufficientContractBalance error raised by the CashierPayout contract.
type CashierPayoutInsufficientContractBalance struct {
	Available *big.Int
	Required  *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InsufficientContractBalance(uint256 available, uint256 required)
func CashierPayoutInsufficientContractBalanceErrorID() common.Hash {
	return common.HexToHash("0xb7ddd88bc8149dee9da0b902aeff1c6e8b4f366fb96c3bba8a91548ee08d73ce")
}

// UnpackInsufficientContractBalanceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InsufficientContractBalance(uint256 available, uint256 required)
func (cashierPayout *CashierPayout) UnpackInsufficientContractBalanceError(raw []byte) (*CashierPayoutInsufficientContractBalance, error) {
	out := new(CashierPayoutInsufficientContractBalance)
	if err := cashierPayout.abi.UnpackIntoInterface(out, "InsufficientContractBalance", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashierPayoutInsufficientFromBalance represents a InsufficientFromBalance error raised by the CashierPayout contract.
type CashierPayoutInsufficientFromBalance struct {
	From      common.Address
	Available *big.Int
	Required  *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InsufficientFromBalance(address from, uint256 available, uint256 required)
func CashierPayoutInsufficientFromBalanceErrorID() common.Hash {
	return common.HexToHash("0xd8b01f5ec63159ed32e39daa6f1594a96d8de190e26c39b11128ac0f21b51059")
}

// UnpackInsufficientFromBalanceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InsufficientFromBalance(address from, uint256 available, uint256 required)
func (cashierPayout *CashierPayout) UnpackInsufficientFromBalanceError(raw []byte) (*CashierPayoutInsufficientFromBalance, error) {
	out := new(CashierPayoutInsufficientFromBalance)
	if err := cashierPayout.abi.UnpackIntoInterface(out, "InsufficientFromBalance", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashierPayoutInvalidFeeAddress represents a InvalidFeeAddress error raised by the CashierPayout contract.
type CashierPayoutInvalidFeeAddress struct {
	FeeAddress common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidFeeAddress(address feeAddress)
func CashierPayoutInvalidFeeAddressErrorID() common.Hash {
	return common.HexToHash("0xe59c3871fa30f6679235a513af8230789a56f5a34dd09bb4e71310370dbd3930")
}

// UnpackInvalidFeeAddressError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidFeeAddress(address feeAddress)
func (cashierPayout *CashierPayout) UnpackInvalidFeeAddressError(raw []byte) (*CashierPayoutInvalidFeeAddress, error) {
	out := new(CashierPayoutInvalidFeeAddress)
	if err := cashierPayout.abi.UnpackIntoInterface(out, "InvalidFeeAddress", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashierPayoutInvalidFrom represents a InvalidFrom error raised by the CashierPayout contract.
type CashierPayoutInvalidFrom struct {
	From common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidFrom(address from)
func CashierPayoutInvalidFromErrorID() common.Hash {
	return common.HexToHash("0x65b6181850c26fdd61717515b88aba688bcbdbabd6e69ccaeda92484f768b75c")
}

// UnpackInvalidFromError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidFrom(address from)
func (cashierPayout *CashierPayout) UnpackInvalidFromError(raw []byte) (*CashierPayoutInvalidFrom, error) {
	out := new(CashierPayoutInvalidFrom)
	if err := cashierPayout.abi.UnpackIntoInterface(out, "InvalidFrom", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashierPayoutInvalidRecipient represents a InvalidRecipient error raised by the CashierPayout contract.
type CashierPayoutInvalidRecipient struct {
	Index     *big.Int
	Recipient common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidRecipient(uint256 index, address recipient)
func CashierPayoutInvalidRecipientErrorID() common.Hash {
	return common.HexToHash("0x563f086f8c9b445526eaede2ed4759778993f0672833ad9d8eea756ebed74c0c")
}

// UnpackInvalidRecipientError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidRecipient(uint256 index, address recipient)
func (cashierPayout *CashierPayout) UnpackInvalidRecipientError(raw []byte) (*CashierPayoutInvalidRecipient, error) {
	out := new(CashierPayoutInvalidRecipient)
	if err := cashierPayout.abi.UnpackIntoInterface(out, "InvalidRecipient", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashierPayoutInvalidSignature represents a InvalidSignature error raised by the CashierPayout contract.
type CashierPayoutInvalidSignature struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidSignature()
func CashierPayoutInvalidSignatureErrorID() common.Hash {
	return common.HexToHash("0x8baa579fce362245063d36f11747a89dd489c54795634fc673cc0e0db51fedc5")
}

// UnpackInvalidSignatureError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidSignature()
func (cashierPayout *CashierPayout) UnpackInvalidSignatureError(raw []byte) (*CashierPayoutInvalidSignature, error) {
	out := new(CashierPayoutInvalidSignature)
	if err := cashierPayout.abi.UnpackIntoInterface(out, "InvalidSignature", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashierPayoutInvalidSignatureWindow represents a InvalidSignatureWindow error raised by the CashierPayout contract.
type CashierPayoutInvalidSignatureWindow struct {
	Window *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidSignatureWindow(uint256 window)
func CashierPayoutInvalidSignatureWindowErrorID() common.Hash {
	return common.HexToHash("0x3a1850adf544c02d276974dbd9507506887f9916e4fbb6146e0d240d8be281a5")
}

// UnpackInvalidSignatureWindowError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidSignatureWindow(uint256 window)
func (cashierPayout *CashierPayout) UnpackInvalidSignatureWindowError(raw []byte) (*CashierPayoutInvalidSignatureWindow, error) {
	out := new(CashierPayoutInvalidSignatureWindow)
	if err := cashierPayout.abi.UnpackIntoInterface(out, "InvalidSignatureWindow", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashierPayoutLengthMismatch represents a LengthMismatch error raised by the CashierPayout contract.
type CashierPayoutLengthMismatch struct {
	Recipients *big.Int
	Amounts    *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error LengthMismatch(uint256 recipients, uint256 amounts)
func CashierPayoutLengthMismatchErrorID() common.Hash {
	return common.HexToHash("0xab8b67c6893c59617ef3ba4b4b942e9791f2572db2fdb32028356532f3b7396a")
}

// UnpackLengthMismatchError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error LengthMismatch(uint256 recipients, uint256 amounts)
func (cashierPayout *CashierPayout) UnpackLengthMismatchError(raw []byte) (*CashierPayoutLengthMismatch, error) {
	out := new(CashierPayoutLengthMismatch)
	if err := cashierPayout.abi.UnpackIntoInterface(out, "LengthMismatch", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashierPayoutNativeTransferFailed represents a NativeTransferFailed error raised by the CashierPayout contract.
type CashierPayoutNativeTransferFailed struct {
	To     common.Address
	Amount *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NativeTransferFailed(address to, uint256 amount)
func CashierPayoutNativeTransferFailedErrorID() common.Hash {
	return common.HexToHash("0xa5b05eec8040da65485bf3ab248b47c42271aa50a9234ed8f116e568dc285cc6")
}

// UnpackNativeTransferFailedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NativeTransferFailed(address to, uint256 amount)
func (cashierPayout *CashierPayout) UnpackNativeTransferFailedError(raw []byte) (*CashierPayoutNativeTransferFailed, error) {
	out := new(CashierPayoutNativeTransferFailed)
	if err := cashierPayout.abi.UnpackIntoInterface(out, "NativeTransferFailed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashierPayoutNonceUsed represents a NonceUsed error raised by the CashierPayout contract.
type CashierPayoutNonceUsed struct {
	Nonce *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NonceUsed(uint256 nonce)
func CashierPayoutNonceUsedErrorID() common.Hash {
	return common.HexToHash("0x1be5cb2f29a4876ca6fdf1177257bc6f2671bc7e036db0815016a6b766ecd115")
}

// UnpackNonceUsedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NonceUsed(uint256 nonce)
func (cashierPayout *CashierPayout) UnpackNonceUsedError(raw []byte) (*CashierPayoutNonceUsed, error) {
	out := new(CashierPayoutNonceUsed)
	if err := cashierPayout.abi.UnpackIntoInterface(out, "NonceUsed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashierPayoutNotExecutor represents a NotExecutor error raised by the CashierPayout contract.
type CashierPayoutNotExecutor struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotExecutor()
func CashierPayoutNotExecutorErrorID() common.Hash {
	return common.HexToHash("0xc32d1d764229d81292df6f25b9d1e0888374ee366ac172b5c5162f2d6fcf3ce2")
}

// UnpackNotExecutorError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotExecutor()
func (cashierPayout *CashierPayout) UnpackNotExecutorError(raw []byte) (*CashierPayoutNotExecutor, error) {
	out := new(CashierPayoutNotExecutor)
	if err := cashierPayout.abi.UnpackIntoInterface(out, "NotExecutor", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashierPayoutNotOwner represents a NotOwner error raised by the CashierPayout contract.
type CashierPayoutNotOwner struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotOwner()
func CashierPayoutNotOwnerErrorID() common.Hash {
	return common.HexToHash("0x30cd74712f59d478562d48e2d35de830db72c60a63dd08ae59199eec990b5bc4")
}

// UnpackNotOwnerError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotOwner()
func (cashierPayout *CashierPayout) UnpackNotOwnerError(raw []byte) (*CashierPayoutNotOwner, error) {
	out := new(CashierPayoutNotOwner)
	if err := cashierPayout.abi.UnpackIntoInterface(out, "NotOwner", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashierPayoutNotPendingOwner represents a NotPendingOwner error raised by the CashierPayout contract.
type CashierPayoutNotPendingOwner struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotPendingOwner()
func CashierPayoutNotPendingOwnerErrorID() common.Hash {
	return common.HexToHash("0x1853971cac2844d8fedc34d0d65cff78483e8a606ad8448df68a3af766d8a29d")
}

// UnpackNotPendingOwnerError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotPendingOwner()
func (cashierPayout *CashierPayout) UnpackNotPendingOwnerError(raw []byte) (*CashierPayoutNotPendingOwner, error) {
	out := new(CashierPayoutNotPendingOwner)
	if err := cashierPayout.abi.UnpackIntoInterface(out, "NotPendingOwner", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashierPayoutRecipientNotWhitelisted represents a RecipientNotWhitelisted error raised by the CashierPayout contract.
type CashierPayoutRecipientNotWhitelisted struct {
	Index     *big.Int
	Recipient common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error RecipientNotWhitelisted(uint256 index, address recipient)
func CashierPayoutRecipientNotWhitelistedErrorID() common.Hash {
	return common.HexToHash("0x95cba429c78425e911b3c806f221f1820ba6c90ec7769ea80385d97b3a3c4a9d")
}

// UnpackRecipientNotWhitelistedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error RecipientNotWhitelisted(uint256 index, address recipient)
func (cashierPayout *CashierPayout) UnpackRecipientNotWhitelistedError(raw []byte) (*CashierPayoutRecipientNotWhitelisted, error) {
	out := new(CashierPayoutRecipientNotWhitelisted)
	if err := cashierPayout.abi.UnpackIntoInterface(out, "RecipientNotWhitelisted", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashierPayoutSignatureExpired represents a SignatureExpired error raised by the CashierPayout contract.
type CashierPayoutSignatureExpired struct {
	Timestamp *big.Int
	BlockTime *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error SignatureExpired(uint256 timestamp, uint256 blockTime)
func CashierPayoutSignatureExpiredErrorID() common.Hash {
	return common.HexToHash("0xf88f049083a0890cb69bf0c7edbb1077a93679504997c26fadbfea86435ab250")
}

// UnpackSignatureExpiredError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error SignatureExpired(uint256 timestamp, uint256 blockTime)
func (cashierPayout *CashierPayout) UnpackSignatureExpiredError(raw []byte) (*CashierPayoutSignatureExpired, error) {
	out := new(CashierPayoutSignatureExpired)
	if err := cashierPayout.abi.UnpackIntoInterface(out, "SignatureExpired", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashierPayoutTimestampInFuture represents a TimestampInFuture error raised by the CashierPayout contract.
type CashierPayoutTimestampInFuture struct {
	Timestamp *big.Int
	BlockTime *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error TimestampInFuture(uint256 timestamp, uint256 blockTime)
func CashierPayoutTimestampInFutureErrorID() common.Hash {
	return common.HexToHash("0x45e2dc22dfc7234b1fdfffd11cbab76b8f00e4413f0cc661396d860734daca25")
}

// UnpackTimestampInFutureError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error TimestampInFuture(uint256 timestamp, uint256 blockTime)
func (cashierPayout *CashierPayout) UnpackTimestampInFutureError(raw []byte) (*CashierPayoutTimestampInFuture, error) {
	out := new(CashierPayoutTimestampInFuture)
	if err := cashierPayout.abi.UnpackIntoInterface(out, "TimestampInFuture", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashierPayoutTokenNotContract represents a TokenNotContract error raised by the CashierPayout contract.
type CashierPayoutTokenNotContract struct {
	Token common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error TokenNotContract(address token)
func CashierPayoutTokenNotContractErrorID() common.Hash {
	return common.HexToHash("0x18aca2db5ad7f58d190bcfca6057e0c3c4f96f5a59687991879ede9d1189e1cf")
}

// UnpackTokenNotContractError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error TokenNotContract(address token)
func (cashierPayout *CashierPayout) UnpackTokenNotContractError(raw []byte) (*CashierPayoutTokenNotContract, error) {
	out := new(CashierPayoutTokenNotContract)
	if err := cashierPayout.abi.UnpackIntoInterface(out, "TokenNotContract", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashierPayoutTokenTransferFailed represents a TokenTransferFailed error raised by the CashierPayout contract.
type CashierPayoutTokenTransferFailed struct {
	Token  common.Address
	To     common.Address
	Amount *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error TokenTransferFailed(address token, address to, uint256 amount)
func CashierPayoutTokenTransferFailedErrorID() common.Hash {
	return common.HexToHash("0xc87767983e580cd51a7614924de0506ff919e5220d94509794cd03bb6564b0bf")
}

// UnpackTokenTransferFailedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error TokenTransferFailed(address token, address to, uint256 amount)
func (cashierPayout *CashierPayout) UnpackTokenTransferFailedError(raw []byte) (*CashierPayoutTokenTransferFailed, error) {
	out := new(CashierPayoutTokenTransferFailed)
	if err := cashierPayout.abi.UnpackIntoInterface(out, "TokenTransferFailed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashierPayoutTooManyRecipients represents a TooManyRecipients error raised by the CashierPayout contract.
type CashierPayoutTooManyRecipients struct {
	Count *big.Int
	Max   *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error TooManyRecipients(uint256 count, uint256 max)
func CashierPayoutTooManyRecipientsErrorID() common.Hash {
	return common.HexToHash("0x3971ddf83f69e22a8d403a27649c1c0abb39151e93867ff29acf458a49ec0261")
}

// UnpackTooManyRecipientsError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error TooManyRecipients(uint256 count, uint256 max)
func (cashierPayout *CashierPayout) UnpackTooManyRecipientsError(raw []byte) (*CashierPayoutTooManyRecipients, error) {
	out := new(CashierPayoutTooManyRecipients)
	if err := cashierPayout.abi.UnpackIntoInterface(out, "TooManyRecipients", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashierPayoutTransferNotVerified represents a TransferNotVerified error raised by the CashierPayout contract.
type CashierPayoutTransferNotVerified struct {
	Token         common.Address
	ExpectedDebit *big.Int
	ActualDebit   *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error TransferNotVerified(address token, uint256 expectedDebit, uint256 actualDebit)
func CashierPayoutTransferNotVerifiedErrorID() common.Hash {
	return common.HexToHash("0xc922583a7abe02835eca246ca5187f7c7a6ac3fadf33e39bd8086daa9ac66e03")
}

// UnpackTransferNotVerifiedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error TransferNotVerified(address token, uint256 expectedDebit, uint256 actualDebit)
func (cashierPayout *CashierPayout) UnpackTransferNotVerifiedError(raw []byte) (*CashierPayoutTransferNotVerified, error) {
	out := new(CashierPayoutTransferNotVerified)
	if err := cashierPayout.abi.UnpackIntoInterface(out, "TransferNotVerified", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashierPayoutZeroAddress represents a ZeroAddress error raised by the CashierPayout contract.
type CashierPayoutZeroAddress struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ZeroAddress()
func CashierPayoutZeroAddressErrorID() common.Hash {
	return common.HexToHash("0xd92e233df2717d4a40030e20904abd27b68fcbeede117eaaccbbdac9618c8c73")
}

// UnpackZeroAddressError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ZeroAddress()
func (cashierPayout *CashierPayout) UnpackZeroAddressError(raw []byte) (*CashierPayoutZeroAddress, error) {
	out := new(CashierPayoutZeroAddress)
	if err := cashierPayout.abi.UnpackIntoInterface(out, "ZeroAddress", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashierPayoutZeroAmount represents a ZeroAmount error raised by the CashierPayout contract.
type CashierPayoutZeroAmount struct {
	Index *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ZeroAmount(uint256 index)
func CashierPayoutZeroAmountErrorID() common.Hash {
	return common.HexToHash("0x9af70448f03e697a0542549b515057a9502b3fec56818d5c1c5fb7664682dc7b")
}

// UnpackZeroAmountError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ZeroAmount(uint256 index)
func (cashierPayout *CashierPayout) UnpackZeroAmountError(raw []byte) (*CashierPayoutZeroAmount, error) {
	out := new(CashierPayoutZeroAmount)
	if err := cashierPayout.abi.UnpackIntoInterface(out, "ZeroAmount", raw); err != nil {
		return nil, err
	}
	return out, nil
}
