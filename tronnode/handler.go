package tronnode

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/holiman/uint256"

	"github.com/stablecashier/cashier/tron"
)

const maxRequest = 4 << 20

// msgNoContract is java-tron's message for raw_data without one contract.
const msgNoContract = "No contract!"

// request holds the parameters of every endpoint served; java-tron names
// them the same across endpoints.
type request struct {
	Visible          bool            `json:"visible"`
	Num              int64           `json:"num"`
	Value            string          `json:"value"`
	Address          string          `json:"address"`
	OwnerAddress     string          `json:"owner_address"`
	ContractAddress  string          `json:"contract_address"`
	FunctionSelector string          `json:"function_selector"`
	Parameter        string          `json:"parameter"`
	Data             string          `json:"data"`
	CallValue        int64           `json:"call_value"`
	FeeLimit         int64           `json:"fee_limit"`
	CallTokenValue   int64           `json:"call_token_value"`
	TokenID          int64           `json:"token_id"`
	PermissionID     int32           `json:"Permission_id"`
	RawData          json.RawMessage `json:"raw_data"`
	Signature        []string        `json:"signature"`
	ToAddress        string          `json:"to_address"`
	Amount           int64           `json:"amount"`
}

// Handler serves the node's HTTP API.
func (n *Node) Handler() http.Handler {
	mux := http.NewServeMux()
	for path, h := range map[string]func(*request) (any, error){
		"/wallet/getnowblock":                  n.getNowBlock,
		"/wallet/getblockbynum":                n.getBlockByNum,
		"/wallet/gettransactionbyid":           n.getTransactionByID,
		"/wallet/gettransactioninfobyid":       n.getTransactionInfoByID,
		"/wallet/gettransactioninfobyblocknum": n.getTransactionInfoByBlockNum,
		"/wallet/triggersmartcontract":         n.triggerSmartContract,
		"/wallet/triggerconstantcontract":      n.triggerConstantContract,
		"/wallet/broadcasttransaction":         n.broadcastTransaction,
		"/wallet/createtransaction":            n.createTransaction,
		"/wallet/getaccount":                   n.getAccount,
		"/wallet/getcontractinfo":              n.getContractInfo,
		"/wallet/getaccountresource":           n.getAccountResource,
		"/wallet/getchainparameters":           n.getChainParameters,
	} {
		mux.Handle(path, endpoint(h))
	}
	return mux
}

// ListenAndServe serves the API on addr (e.g. 127.0.0.1:8090) until the
// listener fails; use Handler for more control.
func (n *Node) ListenAndServe(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return http.Serve(ln, n.Handler())
}

// endpoint decodes a POST body or GET query into a request and writes the
// answer as JSON. Like java-tron, malformed requests get HTTP 200 with
// {"Error": "..."}.
func endpoint(h func(*request) (any, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req := new(request)
		var err error
		switch r.Method {
		case http.MethodPost:
			var body []byte
			body, err = io.ReadAll(http.MaxBytesReader(w, r.Body, maxRequest))
			if err == nil && len(strings.TrimSpace(string(body))) > 0 {
				err = json.Unmarshal(body, req)
			}
		case http.MethodGet:
			q := r.URL.Query()
			req.Visible = q.Get("visible") == "true"
			req.Value, req.Address = q.Get("value"), q.Get("address")
			if s := q.Get("num"); s != "" {
				req.Num, err = strconv.ParseInt(s, 10, 64)
			}
		default:
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		var out any
		if err == nil {
			out, err = h(req)
		}
		if err != nil {
			out = map[string]string{"Error": "class java.lang.IllegalArgumentException : " + err.Error()}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(out)
	})
}

// parseAddr reads an address in the form visible selects.
func parseAddr(s string, visible bool) (tron.Address, error) {
	if visible != (len(s) == 34) {
		return tron.Address{}, fmt.Errorf("address %q does not match visible=%v", s, visible)
	}
	return tron.ParseAddress(s)
}

func empty() any { return struct{}{} }

func (n *Node) getNowBlock(r *request) (any, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return view{r.Visible}.block(n.head()), nil
}

func (n *Node) getBlockByNum(r *request) (any, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if r.Num < 0 || r.Num >= int64(len(n.blocks)) {
		return empty(), nil
	}
	return view{r.Visible}.block(n.blocks[r.Num]), nil
}

func (n *Node) lookup(value string) (*block, int, bool) {
	id, err := hex.DecodeString(value)
	if err != nil || len(id) != 32 {
		return nil, 0, false
	}
	loc, ok := n.txs[[32]byte(id)]
	if !ok {
		return nil, 0, false
	}
	return n.blocks[loc.block], loc.index, true
}

func (n *Node) getTransactionByID(r *request) (any, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	b, i, ok := n.lookup(r.Value)
	if !ok {
		return empty(), nil
	}
	j := view{r.Visible}.tx(b.txs[i])
	j.Ret = []retJSON{{ContractRet: b.infos[i].result}}
	return j, nil
}

func (n *Node) getTransactionInfoByID(r *request) (any, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	b, i, ok := n.lookup(r.Value)
	if !ok {
		return empty(), nil
	}
	return view{r.Visible}.info(b.infos[i]), nil
}

func (n *Node) getTransactionInfoByBlockNum(r *request) (any, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if r.Num <= 0 {
		return empty(), nil
	}
	out := []infoJSON{}
	if r.Num < int64(len(n.blocks)) {
		for _, i := range n.blocks[r.Num].infos {
			out = append(out, view{r.Visible}.info(i))
		}
	}
	return out, nil
}

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

// freeNet is the free bandwidth addr has left today.
func (n *Node) freeNet(addr tron.Address) int64 {
	use := n.netUsed[addr]
	if use.day != n.chainTime()/maxExpiration {
		return n.opts.FreeBandwidth
	}
	return max(0, n.opts.FreeBandwidth-use.used)
}

func (n *Node) getAccount(r *request) (any, error) {
	a, err := parseAddr(r.Address, r.Visible)
	if err != nil {
		return nil, err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	created, ok := n.accounts[a]
	if !ok {
		return empty(), nil
	}
	return struct {
		Address    string `json:"address"`
		Balance    int64  `json:"balance,omitempty"`
		CreateTime int64  `json:"create_time"`
	}{view{r.Visible}.addr(a), n.st.GetBalance(a.EVM()).ToBig().Int64(), created}, nil
}

// getContractInfo answers like java-tron: the contract's runtime code as
// "runtimecode" (hex) beside its metadata, {} for an address without code.
// The metadata holds only the address; the stand-in keeps no ABI or name.
func (n *Node) getContractInfo(r *request) (any, error) {
	a, err := parseAddr(r.Value, r.Visible)
	if err != nil {
		return nil, err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	code := n.st.GetCode(a.EVM())
	if len(code) == 0 {
		return empty(), nil
	}
	type smartContract struct {
		ContractAddress string `json:"contract_address"`
	}
	return struct {
		SmartContract smartContract `json:"smart_contract"`
		RuntimeCode   string        `json:"runtimecode"`
	}{smartContract{view{r.Visible}.addr(a)}, hex.EncodeToString(code)}, nil
}

func (n *Node) getAccountResource(r *request) (any, error) {
	a, err := parseAddr(r.Address, r.Visible)
	if err != nil {
		return nil, err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if _, ok := n.accounts[a]; !ok {
		return empty(), nil
	}
	return struct {
		FreeNetUsed       int64 `json:"freeNetUsed,omitempty"`
		FreeNetLimit      int64 `json:"freeNetLimit"`
		TotalNetLimit     int64 `json:"TotalNetLimit"`
		TotalNetWeight    int64 `json:"TotalNetWeight"`
		TotalEnergyLimit  int64 `json:"TotalEnergyLimit"`
		TotalEnergyWeight int64 `json:"TotalEnergyWeight"`
	}{n.opts.FreeBandwidth - n.freeNet(a), n.opts.FreeBandwidth, 43_200_000_000, 1, 180_000_000_000, 1}, nil
}

func (n *Node) getChainParameters(*request) (any, error) {
	type kv struct {
		Key   string `json:"key"`
		Value int64  `json:"value,omitempty"`
	}
	return struct {
		ChainParameter []kv `json:"chainParameter"`
	}{[]kv{
		{"getMaintenanceTimeInterval", 21_600_000},
		{"getTransactionFee", n.opts.BandwidthPrice},
		{"getEnergyFee", n.opts.EnergyPrice},
		{"getFreeNetLimit", n.opts.FreeBandwidth},
		{"getMaxFeeLimit", tron.MaxFeeLimit},
		{"getAllowTvmTransferTrc10", 0},
	}}, nil
}
