// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {DepositForwarder} from "./DepositForwarder.sol";
import {Owned} from "./Owned.sol";
import {tokenBalanceOf} from "./TokenCalls.sol";

/// @title DepositFactory
/// @notice Gives every collection order its own deposit address without a
/// private key per address: the address is the CREATE2 address of an
/// EIP-1167 proxy of DepositForwarder for salt = keccak256(order id). It can
/// be computed off chain and receive tokens before anything is deployed;
/// sweep deploys the proxy when needed and moves its balance to the vault.
///
/// CREATE2 addresses are keccak256(prefix ++ factory ++ salt ++
/// keccak256(initCode)), where the prefix byte is 0xff on EVM chains and
/// 0x41 on TRON's TVM. The chain's prefix is fixed at construction so that
/// addressOf agrees with the address the chain's CREATE2 really produces.
contract DepositFactory is Owned {
    /// @notice The forwarder implementation all deposit proxies delegate to.
    address public immutable implementation;
    /// @notice keccak256 of the proxy's creation code.
    bytes32 public immutable proxyCodeHash;
    /// @notice CREATE2 address prefix of this chain: 0xff, or 0x41 on TRON.
    bytes1 public immutable create2Prefix;

    address public sweeper;
    address public vault;

    event Swept(
        address indexed token, bytes32 indexed salt, address indexed depositAddress, address vault, uint256 amount
    );
    event SweptNative(bytes32 indexed salt, address indexed depositAddress, address vault, uint256 amount);
    event SweeperChanged(address indexed previous, address indexed current);
    event VaultChanged(address indexed previous, address indexed current);

    error NotSweeper();
    error InvalidPrefix(bytes1 prefix);
    error DeployFailed(bytes32 salt);

    modifier onlySweeper() {
        if (msg.sender != sweeper) revert NotSweeper();
        _;
    }

    constructor(address owner_, address sweeper_, address vault_, bytes1 create2Prefix_) Owned(owner_) {
        if (sweeper_ == address(0) || vault_ == address(0)) revert ZeroAddress();
        if (create2Prefix_ != 0xff && create2Prefix_ != 0x41) revert InvalidPrefix(create2Prefix_);
        implementation = address(new DepositForwarder());
        proxyCodeHash = keccak256(_proxyCode(implementation));
        create2Prefix = create2Prefix_;
        sweeper = sweeper_;
        vault = vault_;
        emit SweeperChanged(address(0), sweeper_);
        emit VaultChanged(address(0), vault_);
    }

    /// @notice The deposit address for salt, deployed or not.
    function addressOf(bytes32 salt) public view returns (address) {
        return address(uint160(uint256(keccak256(abi.encodePacked(create2Prefix, address(this), salt, proxyCodeHash)))));
    }

    /// @notice Moves token from the deposit address of every salt to the
    /// vault, deploying proxies as needed. Addresses with a zero balance are
    /// skipped without deploying. Returns the total amount moved.
    function sweep(address token, bytes32[] calldata salts) external onlySweeper returns (uint256 total) {
        address to = vault;
        for (uint256 i; i < salts.length; ++i) {
            address deposit = addressOf(salts[i]);
            (, uint256 balance) = tokenBalanceOf(token, deposit);
            if (balance == 0) continue;
            if (deposit.code.length == 0) _deploy(salts[i], deposit);
            uint256 moved = DepositForwarder(payable(deposit)).flush(token, to);
            total += moved;
            emit Swept(token, salts[i], deposit, to, moved);
        }
    }

    /// @notice Moves the native coin (ETH, TRX) sent by mistake to the deposit
    /// address of every salt to the vault, deploying proxies as needed.
    /// Only ever to the vault: a leaked sweeper key cannot redirect it, and
    /// the vault's owner can return it (CashierPayout.withdrawNative).
    function sweepNative(bytes32[] calldata salts) external onlySweeper returns (uint256 total) {
        address payable to = payable(vault);
        for (uint256 i; i < salts.length; ++i) {
            address deposit = addressOf(salts[i]);
            if (deposit.balance == 0) continue;
            if (deposit.code.length == 0) _deploy(salts[i], deposit);
            uint256 moved = DepositForwarder(payable(deposit)).flushNative(to);
            total += moved;
            emit SweptNative(salts[i], deposit, to, moved);
        }
    }

    function setSweeper(address sweeper_) external onlyOwner {
        if (sweeper_ == address(0)) revert ZeroAddress();
        emit SweeperChanged(sweeper, sweeper_);
        sweeper = sweeper_;
    }

    function setVault(address vault_) external onlyOwner {
        if (vault_ == address(0)) revert ZeroAddress();
        emit VaultChanged(vault, vault_);
        vault = vault_;
    }

    function _deploy(bytes32 salt, address expected) private {
        bytes memory code = _proxyCode(implementation);
        address deployed;
        assembly ("memory-safe") {
            deployed := create2(0, add(code, 0x20), mload(code), salt)
        }
        if (deployed != expected) revert DeployFailed(salt);
    }

    /// @dev EIP-1167 minimal proxy creation code for impl (55 bytes).
    function _proxyCode(address impl) private pure returns (bytes memory) {
        return abi.encodePacked(
            hex"3d602d80600a3d3981f3363d3d373d3d3d363d73", impl, hex"5af43d82803e903d91602b57fd5bf3"
        );
    }
}
