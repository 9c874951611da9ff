package tronnode

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/holiman/uint256"

	"github.com/stablecashier/cashier/tron"
)

type broadcastJSON struct {
	Result  bool   `json:"result,omitempty"`
	Code    string `json:"code"`
	Message string `json:"message,omitempty"`
	TxID    string `json:"txid"`
}

// rawDataIn is raw_data as clients submit it.
type rawDataIn struct {
	Contract []struct {
		Parameter struct {
			Value   json.RawMessage `json:"value"`
			TypeURL string          `json:"type_url"`
		} `json:"parameter"`
		Type         string `json:"type"`
		PermissionID int32  `json:"Permission_id"`
	} `json:"contract"`
	RefBlockBytes string `json:"ref_block_bytes"`
	RefBlockNum   int64  `json:"ref_block_num"`
	RefBlockHash  string `json:"ref_block_hash"`
	Expiration    int64  `json:"expiration"`
	Timestamp     int64  `json:"timestamp"`
	FeeLimit      int64  `json:"fee_limit"`
	Data          string `json:"data"`
}

type triggerIn struct {
	Data            string `json:"data"`
	OwnerAddress    string `json:"owner_address"`
	ContractAddress string `json:"contract_address"`
	CallValue       int64  `json:"call_value"`
	CallTokenValue  int64  `json:"call_token_value"`
	TokenID         int64  `json:"token_id"`
}

// parseRawData re-encodes submitted raw_data JSON into protobuf, as the
// node does before it hashes and verifies anything: raw_data_hex and txID
// from the client are ignored.
func parseRawData(j json.RawMessage, visible bool) ([]byte, error) {
	var in rawDataIn
	if err := json.Unmarshal(j, &in); err != nil {
		return nil, err
	}
	if len(in.Contract) != 1 {
		return nil, errors.New(msgNoContract)
	}
	c := in.Contract[0]
	var raw *tron.RawData
	var err error
	switch c.Type {
	case tron.TriggerSmartContract.String():
		raw, err = triggerRaw(c.Parameter.Value, visible)
	case tron.TransferContract.String():
		raw, err = transferRaw(c.Parameter.Value, visible)
	default:
		err = fmt.Errorf("contract type %s is not supported by this node", c.Type)
	}
	if err != nil {
		return nil, err
	}
	raw.Contract.TypeURL = c.Parameter.TypeURL
	raw.Contract.PermissionID = c.PermissionID
	if raw.RefBlockBytes, err = hex.DecodeString(in.RefBlockBytes); err != nil {
		return nil, err
	}
	if raw.RefBlockHash, err = hex.DecodeString(in.RefBlockHash); err != nil {
		return nil, err
	}
	if visible {
		raw.Data = []byte(in.Data)
	} else if raw.Data, err = hex.DecodeString(in.Data); err != nil {
		return nil, err
	}
	raw.RefBlockNum, raw.Expiration, raw.Timestamp, raw.FeeLimit = in.RefBlockNum, in.Expiration, in.Timestamp, in.FeeLimit
	return raw.Marshal(), nil
}

// triggerRaw reads the parameter value of a TriggerSmartContract.
func triggerRaw(value json.RawMessage, visible bool) (*tron.RawData, error) {
	var tv triggerIn
	if err := json.Unmarshal(value, &tv); err != nil {
		return nil, err
	}
	if tv.CallTokenValue != 0 || tv.TokenID != 0 {
		return nil, errors.New("TRC-10 tokens are not supported by this node")
	}
	owner, err := parseAddr(tv.OwnerAddress, visible)
	if err != nil {
		return nil, err
	}
	contract, err := parseAddr(tv.ContractAddress, visible)
	if err != nil {
		return nil, err
	}
	data, err := hex.DecodeString(tv.Data)
	if err != nil {
		return nil, err
	}
	return tron.NewTriggerRaw(&tron.TriggerCall{Owner: owner, Contract: contract, CallValue: tv.CallValue, Data: data}), nil
}

func (n *Node) broadcastTransaction(r *request) (any, error) {
	if len(r.RawData) == 0 {
		return nil, errors.New("raw_data is missing")
	}
	rawPB, err := parseRawData(r.RawData, r.Visible)
	if err != nil {
		return broadcastJSON{Code: "CONTRACT_VALIDATE_ERROR", Message: view{r.Visible}.text([]byte(err.Error()))}, nil
	}
	var sigs [][]byte
	for _, s := range r.Signature {
		b, err := hex.DecodeString(s)
		if err != nil {
			return nil, fmt.Errorf("signature %q is not hex", s)
		}
		sigs = append(sigs, b)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	id := sha256.Sum256(rawPB)
	code, msg := n.admit(rawPB, sigs)
	out := broadcastJSON{Code: code, TxID: hex.EncodeToString(id[:])}
	if code == "SUCCESS" {
		out.Result = true
	} else {
		out.Message = view{r.Visible}.text([]byte(msg))
	}
	return out, nil
}

// admit runs java-tron's checks on a submitted transaction, in its order,
// and pools it. It returns the response code and message.
func (n *Node) admit(rawPB []byte, sigs [][]byte) (string, string) {
	if n.closed {
		return "SERVER_BUSY", "node is closed"
	}
	t, err := decodeTx(rawPB, sigs, false)
	if err != nil {
		return "CONTRACT_VALIDATE_ERROR", err.Error()
	}
	if !n.tapos(t.raw) {
		return "TAPOS_ERROR", "Tapos check error"
	}
	if t.size() > maxTxSize {
		return "TOO_BIG_TRANSACTION_ERROR", "too big transaction"
	}
	now := n.chainTime()
	if t.raw.Expiration <= now {
		return "TRANSACTION_EXPIRATION_ERROR", "Transaction expired"
	}
	if t.raw.Expiration > now+maxExpiration {
		return "TRANSACTION_EXPIRATION_ERROR", "expiration is more than 24 hours ahead"
	}
	if _, ok := n.txs[t.id]; ok || n.pendingID[t.id] {
		return "DUP_TRANSACTION_ERROR", "Dup transaction."
	}
	if len(sigs) != 1 {
		return "SIGERROR", fmt.Sprintf("Validate signature error: %d signatures, this node supports exactly 1", len(sigs))
	}
	signer, err := tron.RecoverSigner(t.id, sigs[0])
	if err != nil {
		return "SIGERROR", "Validate signature error: " + err.Error()
	}
	if signer != t.owner {
		return "SIGERROR", fmt.Sprintf("Validate signature error: %s is signed by %s but it is not contained of permission.", hex.EncodeToString(t.id[:]), signer)
	}
	if t.raw.Contract.TypeURL != t.kind.TypeURL() || t.raw.Contract.PermissionID != 0 || (t.kind != tron.TriggerSmartContract && t.kind != tron.TransferContract) {
		return "CONTRACT_VALIDATE_ERROR", "contract type_url or permission not supported"
	}
	if t.kind == tron.TransferContract {
		if msg := n.checkTransfer(t.owner, t.contract, t.callValue); msg != "" {
			return "CONTRACT_VALIDATE_ERROR", msg
		}
		if n.freeNet(t.owner) < t.size() && n.st.GetBalance(t.owner.EVM()).Cmp(uint256.NewInt(uint64(t.callValue+t.size()*n.opts.BandwidthPrice))) < 0 {
			return "BANDWITH_ERROR", fmt.Sprintf("account [%s] does not have enough bandwidth", t.owner)
		}
		n.queue(t)
		return "SUCCESS", ""
	}
	if _, ok := n.accounts[t.owner]; !ok {
		return "CONTRACT_VALIDATE_ERROR", "Validate TriggerSmartContract error, no OwnerAccount."
	}
	if len(n.st.GetCode(t.contract.EVM())) == 0 {
		return "CONTRACT_VALIDATE_ERROR", "No contract or not a valid smart contract"
	}
	if t.raw.FeeLimit < 0 || t.raw.FeeLimit > tron.MaxFeeLimit {
		return "CONTRACT_VALIDATE_ERROR", fmt.Sprintf("feeLimit must be >= 0 and <= %d", int64(tron.MaxFeeLimit))
	}
	balance := n.st.GetBalance(t.owner.EVM())
	if t.callValue < 0 || balance.Cmp(uint256.NewInt(uint64(t.callValue))) < 0 {
		return "CONTRACT_VALIDATE_ERROR", "validateForSmartContract failure, not enough trx"
	}
	if n.freeNet(t.owner) < t.size() && balance.Cmp(uint256.NewInt(uint64(t.size()*n.opts.BandwidthPrice))) < 0 {
		return "BANDWITH_ERROR", fmt.Sprintf("account [%s] does not have enough bandwidth", t.owner)
	}
	n.queue(t)
	return "SUCCESS", ""
}

// tapos checks that the reference block is one of the last 65536 blocks
// of this chain.
func (n *Node) tapos(raw *tron.RawData) bool {
	if len(raw.RefBlockBytes) != 2 || len(raw.RefBlockHash) != 8 {
		return false
	}
	head := n.head().number
	low := uint64(raw.RefBlockBytes[0])<<8 | uint64(raw.RefBlockBytes[1])
	back := (head - low) & 0xffff
	if back > head || back >= tapoBlocks {
		return false
	}
	b := n.blocks[head-back]
	return string(b.id[8:16]) == string(raw.RefBlockHash)
}
