// Clef rules for the cashier: approve only EIP-712 payout batches for the
// payout contracts listed below, and only executor transactions to them.
// Everything else is rejected (never left to a manual prompt).
//
// Fill in PAYOUT_CONTRACTS ("CHAINID:0xaddress", lower case) and
// EXECUTOR_TARGETS (the same contracts, plus any deposit factory the
// executor may call), then attest the file's hash: `clef attest HASH`
// (sha256sum of this file). Any edit needs a new attestation.

var PAYOUT_CONTRACTS = {
  // "1:0x0000000000000000000000000000000000000000": true,
};
var EXECUTOR_TARGETS = {
  // "1:0x0000000000000000000000000000000000000000": true,
};

var DOMAIN_NAME = "CashierPayout";
var PAYOUT_TYPES = { "PayoutWithBalance": true, "PayoutWithAllowance": true };

function field(list, name) {
  if (!list) return null;
  for (var i = 0; i < list.length; i++) {
    if (list[i].name === name) return list[i].value;
  }
  return null;
}

// uint256 values arrive formatted as "DECIMAL (0xHEX)".
function decimal(v) {
  return String(v).split(" ")[0];
}

function ApproveSignData(r) {
  if (r.content_type !== "data/typed" || !r.messages || r.messages.length !== 2) return "Reject";
  var domain = r.messages[0], batch = r.messages[1];
  if (domain.name !== "EIP712Domain" || !PAYOUT_TYPES[batch.name]) return "Reject";
  if (field(domain.value, "name") !== DOMAIN_NAME) return "Reject";
  var contract = field(domain.value, "verifyingContract");
  var chain = field(domain.value, "chainId");
  if (!contract || !chain) return "Reject";
  if (PAYOUT_CONTRACTS[decimal(chain) + ":" + String(contract).toLowerCase()] !== true) return "Reject";
  return "Approve";
}

function ApproveTx(r) {
  var tx = r.transaction;
  if (!tx || !tx.to || !tx.chainId) return "Reject";
  var chain = String(parseInt(tx.chainId, 16));
  if (EXECUTOR_TARGETS[chain + ":" + String(tx.to).toLowerCase()] !== true) return "Reject";
  if (tx.value && tx.value !== "0x0") return "Reject"; // payouts move tokens, never coin
  return "Approve";
}

// Listing: the service asks for its accounts; nothing else is answered.
function ApproveListing() { return "Approve"; }
function ApproveNewAccount() { return "Reject"; }
function OnApprovedTx() {}
function OnSignerStartup() {}
