// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TestTokenBase} from "./TestTokenBase.sol";

/// @title TestTronUSDT
/// @notice Behaves like TRON's USDT, whose transfer is declared to return a
/// bool but returns false even when the transfer happened. transferFrom
/// returns false as well so that callers are tested on both paths.
contract TestTronUSDT is TestTokenBase {
    constructor(string memory name_, string memory symbol_) TestTokenBase(name_, symbol_) {}

    function transfer(address to, uint256 amount) external returns (bool) {
        _transfer(msg.sender, to, amount);
        return false;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        _spendAllowance(from, amount);
        _transfer(from, to, amount);
        return false;
    }
}
