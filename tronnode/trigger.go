package tronnode

import (
	"encoding/hex"
	"strings"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/stablecashier/cashier/tron"
)

// callInput resolves the call of a trigger request: data, or
// function_selector plus parameter.
func callInput(r *request) ([]byte, error) {
	if r.Data != "" {
		return hex.DecodeString(strings.TrimPrefix(r.Data, "0x"))
	}
	param, err := hex.DecodeString(r.Parameter)
	if err != nil {
		return nil, err
	}
	if r.FunctionSelector == "" {
		return param, nil
	}
	return append(crypto.Keccak256([]byte(r.FunctionSelector))[:4], param...), nil
}

// extension is api.TransactionExtention.
type extension struct {
	Result         returnJSON `json:"result"`
	EnergyUsed     int64      `json:"energy_used,omitempty"`
	ConstantResult []string   `json:"constant_result,omitempty"`
	Transaction    *txJSON    `json:"transaction,omitempty"`
}

func failure(v view, code, msg string) extension {
	return extension{Result: returnJSON{Code: code, Message: v.text([]byte(msg))}}
}

// triggerTx checks a trigger request and builds its transaction.
func (n *Node) triggerTx(r *request, feeLimit int64) (*txRecord, *extension) {
	v := view{r.Visible}
	if r.OwnerAddress == "" || r.ContractAddress == "" {
		f := failure(v, "OTHER_ERROR", "class java.security.InvalidParameterException : owner_address or contract_address isn't set.")
		return nil, &f
	}
	owner, err := parseAddr(r.OwnerAddress, r.Visible)
	if err != nil {
		f := failure(v, "OTHER_ERROR", err.Error())
		return nil, &f
	}
	contract, err := parseAddr(r.ContractAddress, r.Visible)
	if err != nil {
		f := failure(v, "OTHER_ERROR", err.Error())
		return nil, &f
	}
	data, err := callInput(r)
	if err != nil {
		f := failure(v, "OTHER_ERROR", err.Error())
		return nil, &f
	}
	if r.CallTokenValue != 0 || r.TokenID != 0 || r.PermissionID != 0 {
		f := failure(v, "CONTRACT_VALIDATE_ERROR", "TRC-10 tokens and permissions are not supported by this node")
		return nil, &f
	}
	if len(n.st.GetCode(contract.EVM())) == 0 {
		f := failure(v, "CONTRACT_VALIDATE_ERROR", "No contract or not a valid smart contract")
		return nil, &f
	}
	call := &tron.TriggerCall{Owner: owner, Contract: contract, CallValue: r.CallValue, Data: data}
	raw := n.newRaw(tron.NewTriggerRaw(call).Contract, feeLimit)
	t, err := decodeTx(raw.Marshal(), nil, false)
	if err != nil {
		f := failure(v, "OTHER_ERROR", err.Error())
		return nil, &f
	}
	return t, nil
}

func (n *Node) triggerSmartContract(r *request) (any, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	t, f := n.triggerTx(r, r.FeeLimit)
	if f != nil {
		return f, nil
	}
	v := view{r.Visible}
	tj := v.tx(t)
	tj.Visible = &r.Visible
	return extension{Result: returnJSON{Result: true}, Transaction: &tj}, nil
}

func (n *Node) triggerConstantContract(r *request) (any, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	v := view{r.Visible}
	t, f := n.triggerTx(r, 0)
	if f != nil {
		if f.Result.Code == "CONTRACT_VALIDATE_ERROR" && strings.HasPrefix(string(mustUnhex(f.Result.Message, r.Visible)), "No contract") {
			*f = failure(v, "CONTRACT_VALIDATE_ERROR", "Smart contract is not exist.")
		}
		return f, nil
	}
	res := n.constant(t.owner, t.contract, t.data, t.callValue)
	tj := v.tx(t)
	tj.Visible = &r.Visible
	ext := extension{Result: returnJSON{Result: true}, EnergyUsed: res.used, Transaction: &tj}
	ext.ConstantResult = []string{hex.EncodeToString(res.ret)}
	tj.Ret = []retJSON{{}}
	if res.err != nil {
		// Execution failures keep result.result=true and mark the
		// transaction, as java-tron does.
		msg := res.err.Error()
		if res.status() == "REVERT" {
			msg = "REVERT opcode executed"
		}
		ext.Result.Message = v.text([]byte(msg))
		tj.Ret = []retJSON{{Ret: "FAILED"}}
	}
	return ext, nil
}

func mustUnhex(s string, visible bool) []byte {
	if visible {
		return []byte(s)
	}
	b, _ := hex.DecodeString(s)
	return b
}
