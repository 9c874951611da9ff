package tronnode

import (
	"encoding/json"
	"errors"

	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/holiman/uint256"

	"github.com/stablecashier/cashier/tron"
)

// TRX transfers (TransferContract), as a customer's wallet sends them.

// createAccountFee is what java-tron burns, on top of bandwidth, when a
// transfer creates the recipient's account (1 TRX).
const createAccountFee = 1_000_000

type transferIn struct {
	Amount       int64  `json:"amount"`
	OwnerAddress string `json:"owner_address"`
	ToAddress    string `json:"to_address"`
}

type transferJSON struct {
	Amount       int64  `json:"amount"`
	OwnerAddress string `json:"owner_address"`
	ToAddress    string `json:"to_address"`
}

// transferRaw reads the parameter value of a TransferContract.
func transferRaw(value json.RawMessage, visible bool) (*tron.RawData, error) {
	var tv transferIn
	if err := json.Unmarshal(value, &tv); err != nil {
		return nil, err
	}
	owner, err := parseAddr(tv.OwnerAddress, visible)
	if err != nil {
		return nil, err
	}
	to, err := parseAddr(tv.ToAddress, visible)
	if err != nil {
		return nil, err
	}
	return tron.NewTransferRaw(&tron.TransferCall{Owner: owner, To: to, Amount: tv.Amount}), nil
}

// createTransaction is /wallet/createtransaction: an unsigned
// TransferContract, checked the way the node checks it on broadcast.
func (n *Node) createTransaction(r *request) (any, error) {
	owner, err := parseAddr(r.OwnerAddress, r.Visible)
	if err != nil {
		return nil, err
	}
	to, err := parseAddr(r.ToAddress, r.Visible)
	if err != nil {
		return nil, err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if msg := n.checkTransfer(owner, to, r.Amount); msg != "" {
		return nil, errors.New(msg)
	}
	c := tron.Contract{Type: tron.TransferContract, TypeURL: tron.TransferContract.TypeURL(),
		Value: (&tron.TransferCall{Owner: owner, To: to, Amount: r.Amount}).Marshal()}
	t, err := decodeTx(n.newRaw(c, 0).Marshal(), nil, false)
	if err != nil {
		return nil, err
	}
	j := view{r.Visible}.tx(t)
	j.Visible = &r.Visible
	return j, nil
}

// checkTransfer is java-tron's TransferActuator.validate; "" when valid.
func (n *Node) checkTransfer(owner, to tron.Address, amount int64) string {
	if _, ok := n.accounts[owner]; !ok {
		return "Validate TransferContract error, no OwnerAccount."
	}
	if amount <= 0 {
		return "Amount must be greater than 0."
	}
	if owner == to {
		return "Cannot transfer TRX to yourself."
	}
	need := uint64(amount)
	if _, ok := n.accounts[to]; !ok {
		need += createAccountFee
	}
	if n.st.GetBalance(owner.EVM()).Cmp(uint256.NewInt(need)) < 0 {
		return "Validate TransferContract error, balance is not sufficient."
	}
	return ""
}

// executeTransfer moves the TRX of an included transfer (bandwidth is
// charged already), creating the recipient's account when needed.
func (n *Node) executeTransfer(ev env, tx *txRecord, info *txInfo) {
	owner, to := tx.owner.EVM(), tx.contract.EVM()
	fee := uint64(0)
	if _, ok := n.accounts[tx.contract]; !ok {
		fee = createAccountFee
	}
	if tx.callValue <= 0 || n.st.GetBalance(owner).Cmp(uint256.NewInt(uint64(tx.callValue)+fee)) < 0 {
		info.result, info.failed, info.resMessage = "FAILED", true, "balance is not sufficient"
		n.st.Finalise(ev.rules())
		return
	}
	n.st.SubBalance(owner, uint256.NewInt(uint64(tx.callValue)+fee), tracing.BalanceChangeTransfer)
	n.st.AddBalance(to, uint256.NewInt(uint64(tx.callValue)), tracing.BalanceChangeTransfer)
	n.activate(tx.contract)
	info.netFee += int64(fee)
	info.fee = info.netFee
	info.result = "SUCCESS"
	n.st.Finalise(ev.rules())
}
