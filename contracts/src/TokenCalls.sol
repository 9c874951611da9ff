// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Token calls that work with the stablecoins as deployed, not as
// specified: Ethereum USDT returns no data from transfer and transferFrom,
// and TRON USDT's transfer returns false although it moved the tokens.
//
// A call counts as accepted when it did not revert and returned either no
// data or a word equal to 1. A returned word equal to 0 is reported to the
// caller as "answered false": the caller must then prove the transfer by
// the balance change of the paying account. Any other outcome (revert,
// short or garbage return data) is a failure.

// Outcomes of tokenTransfer and tokenTransferFrom.
uint256 constant TOKEN_OK = 0;
uint256 constant TOKEN_ANSWERED_FALSE = 1;
uint256 constant TOKEN_FAILED = 2;

// The calldata is written past the free memory pointer, which is
// not advanced: a batch of transfers then costs no memory growth.
function tokenTransfer(address token, address to, uint256 amount) returns (uint256 outcome) {
    assembly ("memory-safe") {
        let m := mload(0x40)
        mstore(m, shl(224, 0xa9059cbb))
        mstore(add(m, 0x04), and(to, 0xffffffffffffffffffffffffffffffffffffffff))
        mstore(add(m, 0x24), amount)
        outcome := callOutcome(call(gas(), token, 0, m, 0x44, 0x00, 0x20))

        function callOutcome(ok) -> o {
            o := 2
            if ok {
                switch returndatasize()
                case 0 { o := 0 }
                default {
                    if iszero(lt(returndatasize(), 0x20)) {
                        let word := mload(0x00)
                        if eq(word, 1) { o := 0 }
                        if iszero(word) { o := 1 }
                    }
                }
            }
        }
    }
}

function tokenTransferFrom(address token, address from, address to, uint256 amount) returns (uint256 outcome) {
    assembly ("memory-safe") {
        let m := mload(0x40)
        mstore(m, shl(224, 0x23b872dd))
        mstore(add(m, 0x04), and(from, 0xffffffffffffffffffffffffffffffffffffffff))
        mstore(add(m, 0x24), and(to, 0xffffffffffffffffffffffffffffffffffffffff))
        mstore(add(m, 0x44), amount)
        outcome := callOutcome(call(gas(), token, 0, m, 0x64, 0x00, 0x20))

        function callOutcome(ok) -> o {
            o := 2
            if ok {
                switch returndatasize()
                case 0 { o := 0 }
                default {
                    if iszero(lt(returndatasize(), 0x20)) {
                        let word := mload(0x00)
                        if eq(word, 1) { o := 0 }
                        if iszero(word) { o := 1 }
                    }
                }
            }
        }
    }
}

// token.balanceOf(account); ok is false when the call failed or
// returned less than a word, e.g. because token has no code.
function tokenBalanceOf(address token, address account) view returns (bool ok, uint256 value) {
    assembly ("memory-safe") {
        let m := mload(0x40)
        mstore(m, shl(224, 0x70a08231))
        mstore(add(m, 0x04), and(account, 0xffffffffffffffffffffffffffffffffffffffff))
        // Two statements: Yul evaluates arguments right to left, so a
        // single and(staticcall(..), returndatasize()..) would read the
        // size left over from the previous call.
        ok := staticcall(gas(), token, m, 0x24, 0x00, 0x20)
        ok := and(ok, iszero(lt(returndatasize(), 0x20)))
        value := mload(0x00)
    }
}

// token.allowance(holder, spender), with ok as in balanceOf.
function tokenAllowance(address token, address holder, address spender) view returns (bool ok, uint256 value) {
    assembly ("memory-safe") {
        let m := mload(0x40)
        mstore(m, shl(224, 0xdd62ed3e))
        mstore(add(m, 0x04), and(holder, 0xffffffffffffffffffffffffffffffffffffffff))
        mstore(add(m, 0x24), and(spender, 0xffffffffffffffffffffffffffffffffffffffff))
        ok := staticcall(gas(), token, m, 0x44, 0x00, 0x20)
        ok := and(ok, iszero(lt(returndatasize(), 0x20)))
        value := mload(0x00)
    }
}
