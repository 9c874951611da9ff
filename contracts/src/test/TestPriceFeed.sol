// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title TestPriceFeed
/// @notice A Chainlink-compatible AggregatorV3 price feed for the dev
/// chains: the answer is whatever its owner last set, with the block time
/// as updatedAt. The service reads decimals() and latestRoundData() only.
contract TestPriceFeed {
    address public immutable owner;
    uint8 public immutable decimals;
    string public description;
    uint256 public constant version = 4;

    uint80 private _round;
    int256 private _answer;
    uint256 private _updatedAt;

    error NotOwner();

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);

    constructor(uint8 decimals_, string memory description_, int256 answer_) {
        owner = msg.sender;
        decimals = decimals_;
        description = description_;
        _set(answer_);
    }

    /// @notice Sets a new answer as a new round (owner only).
    function setAnswer(int256 answer_) external {
        if (msg.sender != owner) revert NotOwner();
        _set(answer_);
    }

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        return (_round, _answer, _updatedAt, _updatedAt, _round);
    }

    function _set(int256 answer_) private {
        _round += 1;
        _answer = answer_;
        _updatedAt = block.timestamp;
        emit AnswerUpdated(answer_, _round, block.timestamp);
    }
}
