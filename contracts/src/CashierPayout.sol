// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Owned} from "./Owned.sol";
import {
    TOKEN_ANSWERED_FALSE,
    TOKEN_FAILED,
    tokenAllowance,
    tokenBalanceOf,
    tokenTransfer,
    tokenTransferFrom
} from "./TokenCalls.sol";

/// @title CashierPayout
/// @notice One merchant's payout contract (interface contract version
/// 5.8.0). The service's executor account (the "packer") submits batches of
/// payouts, each authorized by an EIP-712 signature of the service's signer
/// key over every argument, a single-use nonce and a recent timestamp.
///
/// Balance mode pays from tokens held by this contract; allowance mode pulls
/// them with transferFrom from any authorizing address that approved this
/// contract. The fee of a batch goes to the fee address from the same
/// source. Every transfer emits PayoutTransfer(nonce, index, ...), so the
/// service maps (nonce, index) back to the order it signed for.
contract CashierPayout is Owned {
    string public constant VERSION = "5.8.0";

    /// @notice Upper bound of recipients per batch: keeps a batch well under
    /// block gas limits on every supported chain.
    uint256 public constant MAX_RECIPIENTS = 200;

    /// @notice How far a signed timestamp may lie ahead of the block time, to
    /// absorb clock skew between the signer and block producers.
    uint256 public constant MAX_FUTURE_SKEW = 60;

    /// @notice Bounds of the owner-settable signature validity window.
    uint256 public constant MIN_SIGNATURE_WINDOW = 60;
    uint256 public constant MAX_SIGNATURE_WINDOW = 7 days;

    /// @notice The signed batch carries its (recipient, amount) pairs as an
    /// array of Transfer structs rather than as two arrays of a primitive
    /// type: every standard EIP-712 signer formats struct arrays, while some
    /// (go-ethereum's Clef) cannot display address[] or uint256[].
    bytes32 public constant TRANSFER_TYPEHASH = keccak256("Transfer(address to,uint256 amount)");
    bytes32 public constant BALANCE_TYPEHASH = keccak256(
        "PayoutWithBalance(address token,Transfer[] transfers,uint256 totalFee,uint256 nonce,uint256 timestamp)Transfer(address to,uint256 amount)"
    );
    bytes32 public constant ALLOWANCE_TYPEHASH = keccak256(
        "PayoutWithAllowance(address token,address from,Transfer[] transfers,uint256 totalFee,uint256 nonce,uint256 timestamp)Transfer(address to,uint256 amount)"
    );
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");

    // secp256k1n / 2: larger s values are the malleable twin of a valid signature.
    uint256 private constant MAX_S = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0;

    uint256 private immutable _cachedChainId;
    bytes32 private immutable _cachedDomainSeparator;

    address public executor;
    address public signer;
    address public feeAddress;
    uint256 public signatureWindow = 10 minutes;

    bool public balanceWhitelistEnabled;
    bool public allowanceWhitelistEnabled;
    mapping(address => bool) public whitelisted;

    mapping(uint256 => bool) public nonceUsed;

    event BatchPayoutWithBalance(
        address indexed token,
        uint256 totalAmount,
        uint256 totalFee,
        uint256 recipientCount,
        uint256 nonce,
        uint256 timestamp,
        address indexed operator
    );
    event BatchPayoutWithAllowance(
        address indexed token,
        address indexed from,
        uint256 totalAmount,
        uint256 totalFee,
        uint256 recipientCount,
        uint256 nonce,
        uint256 timestamp,
        address indexed operator
    );
    event PayoutTransfer(uint256 indexed nonce, uint256 index, address indexed recipient, uint256 amount);

    event ExecutorChanged(address indexed previous, address indexed current);
    event SignerChanged(address indexed previous, address indexed current);
    event FeeAddressChanged(address indexed previous, address indexed current);
    event SignatureWindowChanged(uint256 previous, uint256 current);
    event WhitelistModeChanged(bool balanceMode, bool allowanceMode);
    event WhitelistUpdated(address indexed account, bool allowed);
    event Withdrawn(address indexed token, address indexed to, uint256 amount);
    event NativeReceived(address indexed from, uint256 amount);
    event NativeWithdrawn(address indexed to, uint256 amount);

    error NotExecutor();
    error InvalidSignature();
    error NonceUsed(uint256 nonce);
    error SignatureExpired(uint256 timestamp, uint256 blockTime);
    error TimestampInFuture(uint256 timestamp, uint256 blockTime);
    error EmptyBatch();
    error LengthMismatch(uint256 recipients, uint256 amounts);
    error TooManyRecipients(uint256 count, uint256 max);
    error InvalidRecipient(uint256 index, address recipient);
    error ZeroAmount(uint256 index);
    error RecipientNotWhitelisted(uint256 index, address recipient);
    error InvalidFrom(address from);
    error InvalidFeeAddress(address feeAddress);
    error InvalidSignatureWindow(uint256 window);
    error TokenNotContract(address token);
    error InsufficientContractBalance(uint256 available, uint256 required);
    error InsufficientFromBalance(address from, uint256 available, uint256 required);
    error InsufficientAllowance(address from, uint256 available, uint256 required);
    error TokenTransferFailed(address token, address to, uint256 amount);
    error TransferNotVerified(address token, uint256 expectedDebit, uint256 actualDebit);
    error NativeTransferFailed(address to, uint256 amount);

    modifier onlyExecutor() {
        if (msg.sender != executor) revert NotExecutor();
        _;
    }

    constructor(address owner_, address executor_, address signer_, address feeAddress_) Owned(owner_) {
        if (executor_ == address(0) || signer_ == address(0)) revert ZeroAddress();
        if (feeAddress_ == address(0) || feeAddress_ == address(this)) revert InvalidFeeAddress(feeAddress_);
        executor = executor_;
        signer = signer_;
        feeAddress = feeAddress_;
        _cachedChainId = block.chainid;
        _cachedDomainSeparator = _buildDomainSeparator();
        emit ExecutorChanged(address(0), executor_);
        emit SignerChanged(address(0), signer_);
        emit FeeAddressChanged(address(0), feeAddress_);
    }

    // ---------------------------------------------------------------- payouts

    /// @notice Pays recipients[i] amounts[i] of token from this contract's
    /// balance and totalFee to the fee address.
    function payoutWithBalance(
        address token,
        address[] calldata recipients,
        uint256[] calldata amounts,
        uint256 totalFee,
        bytes calldata signature,
        uint256 nonce,
        uint256 timestamp
    ) external onlyExecutor {
        uint256 total = _checkBatch(recipients, amounts, address(this), balanceWhitelistEnabled);
        _authorize(balancePayoutDigest(token, recipients, amounts, totalFee, nonce, timestamp), signature, nonce, timestamp);

        uint256 required = total + totalFee;
        (bool ok, uint256 before) = tokenBalanceOf(token, address(this));
        if (!ok || token.code.length == 0) revert TokenNotContract(token);
        if (before < required) revert InsufficientContractBalance(before, required);

        bool answeredFalse;
        for (uint256 i; i < recipients.length; ++i) {
            answeredFalse = _send(token, recipients[i], amounts[i]) || answeredFalse;
            emit PayoutTransfer(nonce, i, recipients[i], amounts[i]);
        }
        if (totalFee != 0) answeredFalse = _send(token, feeAddress, totalFee) || answeredFalse;
        if (answeredFalse) _verifyDebit(token, address(this), before, required);

        emit BatchPayoutWithBalance(token, total, totalFee, recipients.length, nonce, timestamp, msg.sender);
    }

    /// @notice Pays recipients[i] amounts[i] of token from `from`, which must
    /// have approved this contract, and totalFee from `from` to the fee
    /// address.
    function payoutWithAllowance(
        address token,
        address from,
        address[] calldata recipients,
        uint256[] calldata amounts,
        uint256 totalFee,
        bytes calldata signature,
        uint256 nonce,
        uint256 timestamp
    ) external onlyExecutor {
        // A from equal to the fee address or this contract would make the
        // balance-delta proof below meaningless.
        if (from == address(0) || from == address(this) || from == feeAddress) revert InvalidFrom(from);
        uint256 total = _checkBatch(recipients, amounts, from, allowanceWhitelistEnabled);
        _authorize(
            allowancePayoutDigest(token, from, recipients, amounts, totalFee, nonce, timestamp), signature, nonce, timestamp
        );

        uint256 required = total + totalFee;
        (bool ok, uint256 before) = tokenBalanceOf(token, from);
        if (!ok || token.code.length == 0) revert TokenNotContract(token);
        if (before < required) revert InsufficientFromBalance(from, before, required);
        (, uint256 allowed) = tokenAllowance(token, from, address(this));
        if (allowed < required) revert InsufficientAllowance(from, allowed, required);

        bool answeredFalse;
        for (uint256 i; i < recipients.length; ++i) {
            answeredFalse = _pull(token, from, recipients[i], amounts[i]) || answeredFalse;
            emit PayoutTransfer(nonce, i, recipients[i], amounts[i]);
        }
        if (totalFee != 0) answeredFalse = _pull(token, from, feeAddress, totalFee) || answeredFalse;
        if (answeredFalse) _verifyDebit(token, from, before, required);

        emit BatchPayoutWithAllowance(token, from, total, totalFee, recipients.length, nonce, timestamp, msg.sender);
    }

    // ------------------------------------------------------------ signatures

    /// @notice EIP-712 domain separator: name "CashierPayout", version
    /// "5.8.0", the current chain id and this contract's address.
    function domainSeparator() public view returns (bytes32) {
        return block.chainid == _cachedChainId ? _cachedDomainSeparator : _buildDomainSeparator();
    }

    /// @notice The digest the signer signs for payoutWithBalance.
    function balancePayoutDigest(
        address token,
        address[] calldata recipients,
        uint256[] calldata amounts,
        uint256 totalFee,
        uint256 nonce,
        uint256 timestamp
    ) public view returns (bytes32) {
        bytes32 structHash = keccak256(
            abi.encode(
                BALANCE_TYPEHASH,
                token,
                _transfersHash(recipients, amounts),
                totalFee,
                nonce,
                timestamp
            )
        );
        return keccak256(abi.encodePacked("\x19\x01", domainSeparator(), structHash));
    }

    /// @notice The digest the signer signs for payoutWithAllowance.
    function allowancePayoutDigest(
        address token,
        address from,
        address[] calldata recipients,
        uint256[] calldata amounts,
        uint256 totalFee,
        uint256 nonce,
        uint256 timestamp
    ) public view returns (bytes32) {
        bytes32 structHash = keccak256(
            abi.encode(
                ALLOWANCE_TYPEHASH,
                token,
                from,
                _transfersHash(recipients, amounts),
                totalFee,
                nonce,
                timestamp
            )
        );
        return keccak256(abi.encodePacked("\x19\x01", domainSeparator(), structHash));
    }

    /// @dev EIP-712's encoding of Transfer[]: keccak256 of the concatenated
    /// struct hashes keccak256(abi.encode(TRANSFER_TYPEHASH, to, amount)).
    /// Written in assembly over one scratch area, so a recipient costs a
    /// hash of 96 bytes and no fresh memory. The digest functions are public
    /// views, so the lengths are checked here too (a batch call has checked
    /// them already).
    function _transfersHash(address[] calldata recipients, uint256[] calldata amounts)
        private
        pure
        returns (bytes32 h)
    {
        uint256 n = recipients.length;
        if (n != amounts.length) revert LengthMismatch(n, amounts.length);
        bytes32 typeHash = TRANSFER_TYPEHASH;
        assembly ("memory-safe") {
            let hashes := mload(0x40)
            let s := add(hashes, shl(5, n))
            mstore(s, typeHash)
            for { let i := 0 } lt(i, n) { i := add(i, 1) } {
                mstore(add(s, 0x20), and(calldataload(add(recipients.offset, shl(5, i))), 0xffffffffffffffffffffffffffffffffffffffff))
                mstore(add(s, 0x40), calldataload(add(amounts.offset, shl(5, i))))
                mstore(add(hashes, shl(5, i)), keccak256(s, 0x60))
            }
            h := keccak256(hashes, shl(5, n))
        }
    }

    // ------------------------------------------------------------------ admin

    function setExecutor(address executor_) external onlyOwner {
        if (executor_ == address(0)) revert ZeroAddress();
        emit ExecutorChanged(executor, executor_);
        executor = executor_;
    }

    function setSigner(address signer_) external onlyOwner {
        if (signer_ == address(0)) revert ZeroAddress();
        emit SignerChanged(signer, signer_);
        signer = signer_;
    }

    function setFeeAddress(address feeAddress_) external onlyOwner {
        if (feeAddress_ == address(0) || feeAddress_ == address(this)) revert InvalidFeeAddress(feeAddress_);
        emit FeeAddressChanged(feeAddress, feeAddress_);
        feeAddress = feeAddress_;
    }

    /// @notice Sets how old (in seconds) a signed timestamp may be.
    function setSignatureWindow(uint256 window) external onlyOwner {
        if (window < MIN_SIGNATURE_WINDOW || window > MAX_SIGNATURE_WINDOW) revert InvalidSignatureWindow(window);
        emit SignatureWindowChanged(signatureWindow, window);
        signatureWindow = window;
    }

    /// @notice Turns the recipient whitelist on or off, separately for the
    /// two payout modes.
    function setWhitelistMode(bool balanceMode, bool allowanceMode) external onlyOwner {
        balanceWhitelistEnabled = balanceMode;
        allowanceWhitelistEnabled = allowanceMode;
        emit WhitelistModeChanged(balanceMode, allowanceMode);
    }

    function addToWhitelist(address[] calldata accounts) external onlyOwner {
        for (uint256 i; i < accounts.length; ++i) {
            whitelisted[accounts[i]] = true;
            emit WhitelistUpdated(accounts[i], true);
        }
    }

    function removeFromWhitelist(address[] calldata accounts) external onlyOwner {
        for (uint256 i; i < accounts.length; ++i) {
            whitelisted[accounts[i]] = false;
            emit WhitelistUpdated(accounts[i], false);
        }
    }

    /// @notice Moves amount of token held by this contract to `to`.
    function withdraw(address token, address to, uint256 amount) external onlyOwner {
        if (to == address(0) || to == address(this)) revert InvalidRecipient(0, to);
        (bool ok, uint256 before) = tokenBalanceOf(token, address(this));
        if (!ok || token.code.length == 0) revert TokenNotContract(token);
        if (before < amount) revert InsufficientContractBalance(before, amount);
        if (_send(token, to, amount)) _verifyDebit(token, address(this), before, amount);
        emit Withdrawn(token, to, amount);
    }

    /// @notice Native coin (ETH, TRX) swept here from deposit addresses that
    /// received it by mistake. Payouts never spend it; only the owner moves it.
    receive() external payable {
        emit NativeReceived(msg.sender, msg.value);
    }

    /// @notice Moves amount of the native coin held by this contract to `to`
    /// (back to the customer who sent it, or to the merchant).
    function withdrawNative(address payable to, uint256 amount) external onlyOwner {
        if (to == address(0) || to == address(this)) revert InvalidRecipient(0, to);
        if (address(this).balance < amount) revert InsufficientContractBalance(address(this).balance, amount);
        (bool ok,) = to.call{value: amount}("");
        if (!ok) revert NativeTransferFailed(to, amount);
        emit NativeWithdrawn(to, amount);
    }

    // --------------------------------------------------------------- internal

    /// @dev Validates the batch shape and returns the sum of amounts. source
    /// (this contract or the from address) may not be a recipient, since a
    /// self-transfer would both be pointless and defeat the debit check.
    function _checkBatch(address[] calldata recipients, uint256[] calldata amounts, address source, bool whitelist)
        private
        view
        returns (uint256 total)
    {
        uint256 n = recipients.length;
        if (n == 0) revert EmptyBatch();
        if (n != amounts.length) revert LengthMismatch(n, amounts.length);
        if (n > MAX_RECIPIENTS) revert TooManyRecipients(n, MAX_RECIPIENTS);
        for (uint256 i; i < n; ++i) {
            address r = recipients[i];
            if (r == address(0) || r == address(this) || r == source) revert InvalidRecipient(i, r);
            if (amounts[i] == 0) revert ZeroAmount(i);
            if (whitelist && !whitelisted[r]) revert RecipientNotWhitelisted(i, r);
            total += amounts[i];
        }
    }

    /// @dev Checks the timestamp window, burns the nonce and checks the
    /// signature. The nonce is burnt before any token call, so a reentrant
    /// call could not reuse it (and only the executor may call at all).
    function _authorize(bytes32 digest, bytes calldata signature, uint256 nonce, uint256 timestamp) private {
        if (timestamp > block.timestamp + MAX_FUTURE_SKEW) revert TimestampInFuture(timestamp, block.timestamp);
        // Cannot overflow after the check above. Written without a
        // short-circuit so the window is read on every call: otherwise a gas
        // estimate taken in the signing second would miss that cold read
        // and come out too low for the block that includes the call.
        if (timestamp + signatureWindow < block.timestamp) revert SignatureExpired(timestamp, block.timestamp);
        if (nonceUsed[nonce]) revert NonceUsed(nonce);
        nonceUsed[nonce] = true;
        if (_recover(digest, signature) != signer) revert InvalidSignature();
    }

    /// @dev Recovers the signer of a 65-byte r||s||v signature, v 27 or 28;
    /// returns address(0) for anything malformed.
    function _recover(bytes32 digest, bytes calldata signature) private pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (uint256(s) > MAX_S || (v != 27 && v != 28)) return address(0);
        return ecrecover(digest, v, r, s);
    }

    /// @dev Transfers from this contract; returns whether the token answered
    /// false, which the caller must then disprove by the balance change.
    function _send(address token, address to, uint256 amount) private returns (bool answeredFalse) {
        uint256 outcome = tokenTransfer(token, to, amount);
        if (outcome == TOKEN_FAILED) revert TokenTransferFailed(token, to, amount);
        return outcome == TOKEN_ANSWERED_FALSE;
    }

    function _pull(address token, address from, address to, uint256 amount) private returns (bool answeredFalse) {
        uint256 outcome = tokenTransferFrom(token, from, to, amount);
        if (outcome == TOKEN_FAILED) revert TokenTransferFailed(token, to, amount);
        return outcome == TOKEN_ANSWERED_FALSE;
    }

    /// @dev Requires the source balance to have dropped by exactly `required`
    /// since `before`. Only run when a token answered false, so well-behaved
    /// tokens pay one balanceOf per batch and no more.
    function _verifyDebit(address token, address source, uint256 before, uint256 required) private view {
        (, uint256 afterBalance) = tokenBalanceOf(token, source);
        uint256 debit = before > afterBalance ? before - afterBalance : 0;
        if (debit != required) revert TransferNotVerified(token, required, debit);
    }

    function _buildDomainSeparator() private view returns (bytes32) {
        return keccak256(
            abi.encode(DOMAIN_TYPEHASH, keccak256("CashierPayout"), keccak256("5.8.0"), block.chainid, address(this))
        );
    }
}
