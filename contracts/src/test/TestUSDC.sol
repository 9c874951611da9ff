// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TestTokenBase} from "./TestTokenBase.sol";

/// @title TestUSDC
/// @notice Standard ERC20: transfer and transferFrom return true.
contract TestUSDC is TestTokenBase {
    constructor(string memory name_, string memory symbol_) TestTokenBase(name_, symbol_) {}

    function transfer(address to, uint256 amount) external returns (bool) {
        _transfer(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        _spendAllowance(from, amount);
        _transfer(from, to, amount);
        return true;
    }
}
