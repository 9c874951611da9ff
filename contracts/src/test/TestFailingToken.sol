// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TestTokenBase} from "./TestTokenBase.sol";

/// @title TestFailingToken
/// @notice A token whose transfer and transferFrom return false without
/// moving anything: indistinguishable from TRON USDT by return value, so it
/// proves that callers check the balance change rather than trusting it.
contract TestFailingToken is TestTokenBase {
    constructor(string memory name_, string memory symbol_) TestTokenBase(name_, symbol_) {}

    function transfer(address, uint256) external pure returns (bool) {
        return false;
    }

    function transferFrom(address, address, uint256) external pure returns (bool) {
        return false;
    }
}
