// Clef rules for the cashier: approve only EIP-712 payout batches for the
// payout contracts listed below, and only the executor's payout calls to
// them. Everything else is rejected (never left to a manual prompt).
//
// Fill in PAYOUT_CONTRACTS ("CHAINID:0xaddress", lower case, one line per
// payout contract and network), then attest the file's hash:
// `clef attest HASH` (sha256sum of this file). Any edit needs a new
// attestation (docs/keys.md).

var PAYOUT_CONTRACTS = {
  // "1:0x0000000000000000000000000000000000000000": true,
};

// The payout contract's EIP-712 domain (payoutcontract.DomainName and
// DomainVersion) and its two batch types.
var DOMAIN_NAME = "CashierPayout";
var DOMAIN_VERSION = "5.8.0";
var PAYOUT_TYPES = { "PayoutWithBalance": true, "PayoutWithAllowance": true };

// The executor calls nothing but payoutWithBalance and payoutWithAllowance.
var PAYOUT_SELECTORS = { "0x07a0cd01": true, "0xb67317a7": true };

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

function listed(chain, contract) {
  return PAYOUT_CONTRACTS[chain + ":" + String(contract).toLowerCase()] === true;
}

function ApproveSignData(r) {
  if (r.content_type !== "data/typed" || !r.messages || r.messages.length !== 2) return "Reject";
  var domain = r.messages[0], batch = r.messages[1];
  if (domain.name !== "EIP712Domain" || !PAYOUT_TYPES[batch.name]) return "Reject";
  if (field(domain.value, "name") !== DOMAIN_NAME || field(domain.value, "version") !== DOMAIN_VERSION) return "Reject";
  var contract = field(domain.value, "verifyingContract");
  var chain = field(domain.value, "chainId");
  if (!contract || !chain) return "Reject";
  if (!listed(decimal(chain), contract)) return "Reject";
  return "Approve";
}

function ApproveTx(r) {
  var tx = r.transaction;
  if (!tx || !tx.to || !tx.chainId) return "Reject";
  if (!listed(String(parseInt(tx.chainId, 16)), tx.to)) return "Reject";
  if (tx.value && tx.value !== "0x0") return "Reject"; // payouts move tokens, never coin
  var input = String(tx.input || tx.data || "").toLowerCase();
  if (!PAYOUT_SELECTORS[input.slice(0, 10)]) return "Reject";
  return "Approve";
}

// Listing: the service asks for its accounts; nothing else is answered.
function ApproveListing() { return "Approve"; }
function ApproveNewAccount() { return "Reject"; }
function OnApprovedTx() {}
function OnSignerStartup() {}
