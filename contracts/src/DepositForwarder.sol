// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TOKEN_ANSWERED_FALSE, TOKEN_FAILED, tokenBalanceOf, tokenTransfer} from "./TokenCalls.sol";

/// @title DepositForwarder
/// @notice Implementation behind every collection deposit address. Each
/// deposit address is an EIP-1167 minimal proxy of this contract, deployed
/// by its DepositFactory with CREATE2 only when there is something to sweep.
/// It holds no state: the factory address is an immutable of this
/// implementation's code, which every proxy executes by delegatecall.
contract DepositForwarder {
    address public immutable factory;

    error NotFactory();
    error TokenNotContract(address token);
    error TokenTransferFailed(address token, address to, uint256 amount);
    error TransferNotVerified(address token, uint256 remaining);
    error NativeTransferFailed(address to, uint256 amount);

    constructor() {
        factory = msg.sender;
    }

    /// @notice Moves this address's whole balance of token to `to` and
    /// returns the amount moved.
    function flush(address token, address to) external returns (uint256 amount) {
        if (msg.sender != factory) revert NotFactory();
        bool ok;
        (ok, amount) = tokenBalanceOf(token, address(this));
        if (!ok || token.code.length == 0) revert TokenNotContract(token);
        if (amount == 0) return 0;
        uint256 outcome = tokenTransfer(token, to, amount);
        if (outcome == TOKEN_FAILED) revert TokenTransferFailed(token, to, amount);
        if (outcome == TOKEN_ANSWERED_FALSE) {
            // The token said false: accept only if the balance is really gone.
            (, uint256 remaining) = tokenBalanceOf(token, address(this));
            if (remaining != 0) revert TransferNotVerified(token, remaining);
        }
    }

    /// @notice A deployed deposit address still accepts the native coin a
    /// customer sends by mistake, as an undeployed one does; flushNative
    /// moves it on.
    receive() external payable {}

    /// @notice Moves this address's whole native-coin balance to `to` and
    /// returns the amount moved.
    function flushNative(address payable to) external returns (uint256 amount) {
        if (msg.sender != factory) revert NotFactory();
        amount = address(this).balance;
        if (amount == 0) return 0;
        (bool ok,) = to.call{value: amount}("");
        if (!ok) revert NativeTransferFailed(to, amount);
    }
}
