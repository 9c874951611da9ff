// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TestTokenBase} from "./TestTokenBase.sol";

/// @title TestPegToken
/// @notice Behaves like BNB Smart Chain's Binance-Peg USDT and USDC (BEP-20):
/// transfer and transferFrom return true, and amounts have 18 decimals.
contract TestPegToken is TestTokenBase {
    constructor(string memory name_, string memory symbol_) TestTokenBase(name_, symbol_) {}

    function decimals() external pure override returns (uint8) {
        return 18;
    }

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
