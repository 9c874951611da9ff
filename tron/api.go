package tron

import (
	"encoding/hex"
	"encoding/json"
	"unicode/utf8"
)

// Wire shapes of the java-tron HTTP API with "visible": false: addresses as
// 41… hex, byte fields as bare hex, log addresses as 20-byte hex. Only the
// fields the client reads are declared.

type apiReturn struct {
	Result  bool   `json:"result"`
	Code    string `json:"code"`
	Message string `json:"message"` // hex of UTF-8 text when visible is false
}

type apiTransaction struct {
	Visible    bool            `json:"visible"`
	TxID       string          `json:"txID"`
	RawData    json.RawMessage `json:"raw_data"`
	RawDataHex string          `json:"raw_data_hex"`
	Signature  []string        `json:"signature,omitempty"`
	// Ret marks a failed constant call: [{"ret": "FAILED"}].
	Ret []struct {
		Ret string `json:"ret,omitempty"`
	} `json:"ret,omitempty"`
}

// apiTxExtension is api.TransactionExtention (sic), the answer of the
// trigger endpoints.
type apiTxExtension struct {
	Result         apiReturn       `json:"result"`
	Transaction    *apiTransaction `json:"transaction"`
	ConstantResult []string        `json:"constant_result"`
	EnergyUsed     int64           `json:"energy_used"`
}

type apiRawData struct {
	Contract []struct {
		Parameter struct {
			Value struct {
				Data            string `json:"data"`
				OwnerAddress    string `json:"owner_address"`
				ContractAddress string `json:"contract_address"`
				CallValue       int64  `json:"call_value"`
			} `json:"value"`
			TypeURL string `json:"type_url"`
		} `json:"parameter"`
		Type string `json:"type"`
	} `json:"contract"`
	RefBlockBytes string `json:"ref_block_bytes"`
	RefBlockHash  string `json:"ref_block_hash"`
	Expiration    int64  `json:"expiration"`
	FeeLimit      int64  `json:"fee_limit"`
	Timestamp     int64  `json:"timestamp"`
	Data          string `json:"data"`
}

type apiBroadcastResult struct {
	Result  bool   `json:"result"`
	Code    string `json:"code"`
	Message string `json:"message"`
	TxID    string `json:"txid"`
}

type apiBlock struct {
	BlockID     string `json:"blockID"`
	BlockHeader struct {
		RawData struct {
			Number     uint64 `json:"number"`
			Timestamp  int64  `json:"timestamp"`
			ParentHash string `json:"parentHash"`
		} `json:"raw_data"`
	} `json:"block_header"`
	// Transactions are counted against the block's transaction infos:
	// a node behind the block answers those as an empty list.
	Transactions []struct {
		TxID string `json:"txID"`
	} `json:"transactions"`
}

type apiLog struct {
	Address string   `json:"address"`
	Topics  []string `json:"topics"`
	Data    string   `json:"data"`
}

type apiTxInfo struct {
	ID              string   `json:"id"`
	Fee             int64    `json:"fee"`
	BlockNumber     uint64   `json:"blockNumber"`
	BlockTimeStamp  int64    `json:"blockTimeStamp"`
	ContractResult  []string `json:"contractResult"`
	ContractAddress string   `json:"contract_address"`
	Receipt         struct {
		EnergyUsage      int64  `json:"energy_usage"`
		EnergyFee        int64  `json:"energy_fee"`
		EnergyUsageTotal int64  `json:"energy_usage_total"`
		NetUsage         int64  `json:"net_usage"`
		NetFee           int64  `json:"net_fee"`
		Result           string `json:"result"`
	} `json:"receipt"`
	Log        []apiLog `json:"log"`
	Result     string   `json:"result"`
	ResMessage string   `json:"resMessage"`
}

// succeeded follows the node's own rule: the info's result is FAILED for a
// failed transaction, and a contract call's receipt says SUCCESS.
func (i *apiTxInfo) succeeded() bool {
	return i.Result != "FAILED" && (i.Receipt.Result == "" || i.Receipt.Result == "SUCCESS")
}

type apiAccountResource struct {
	FreeNetUsed  int64 `json:"freeNetUsed"`
	FreeNetLimit int64 `json:"freeNetLimit"`
	NetUsed      int64 `json:"NetUsed"`
	NetLimit     int64 `json:"NetLimit"`
	EnergyUsed   int64 `json:"EnergyUsed"`
	EnergyLimit  int64 `json:"EnergyLimit"`
}

type apiAccount struct {
	Address string `json:"address"`
	Balance int64  `json:"balance"`
}

type apiChainParameters struct {
	ChainParameter []struct {
		Key   string `json:"key"`
		Value int64  `json:"value"`
	} `json:"chainParameter"`
}

// nodeMessage turns a hex-encoded message back into text; a message that
// is not hex (visible=true nodes, proxies) is returned as it is.
func nodeMessage(m string) string {
	b, err := hex.DecodeString(m)
	if err != nil || !utf8.Valid(b) {
		return m
	}
	return string(b)
}
