// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TestTokenBase} from "./TestTokenBase.sol";

/// @title TestUSDT
/// @notice Behaves like Ethereum's USDT: transfer and transferFrom return no
/// data at all, so callers that insist on a bool return value revert.
contract TestUSDT is TestTokenBase {
    constructor(string memory name_, string memory symbol_) TestTokenBase(name_, symbol_) {}

    function transfer(address to, uint256 amount) external {
        _transfer(msg.sender, to, amount);
    }

    function transferFrom(address from, address to, uint256 amount) external {
        _spendAllowance(from, amount);
        _transfer(from, to, amount);
    }
}
