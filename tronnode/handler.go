package tronnode

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"

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
