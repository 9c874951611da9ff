package tronnode

import (
	"encoding/hex"

	"github.com/stablecashier/cashier/tron"
)

// The JSON shapes below follow java-tron's HTTP output: proto field names,
// default values omitted, bytes as hex, addresses as 41… hex or, when the
// request said "visible": true, base58check.

type view struct{ visible bool }

func (v view) addr(a tron.Address) string {
	if v.visible {
		return a.String()
	}
	return a.Hex()
}

// logAddr is the 20-byte form java-tron leaves in log.address unless
// visible asks for base58.
func (v view) logAddr(a tron.Address) string {
	if v.visible {
		return a.String()
	}
	return hex.EncodeToString(a[:])
}

// text is a bytes field that holds text: hex, or the text when visible.
func (v view) text(b []byte) string {
	if v.visible {
		return string(b)
	}
	return hex.EncodeToString(b)
}

type returnJSON struct {
	Result  bool   `json:"result,omitempty"`
	Code    string `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
}

type txJSON struct {
	Ret        []retJSON   `json:"ret,omitempty"`
	Signature  []string    `json:"signature,omitempty"`
	Visible    *bool       `json:"visible,omitempty"`
	TxID       string      `json:"txID"`
	RawData    rawDataJSON `json:"raw_data"`
	RawDataHex string      `json:"raw_data_hex"`
}

type retJSON struct {
	Ret         string `json:"ret,omitempty"`
	ContractRet string `json:"contractRet,omitempty"`
}

type rawDataJSON struct {
	Contract      []contractJSON `json:"contract"`
	RefBlockBytes string         `json:"ref_block_bytes"`
	RefBlockHash  string         `json:"ref_block_hash"`
	Expiration    int64          `json:"expiration"`
	FeeLimit      int64          `json:"fee_limit,omitempty"`
	Timestamp     int64          `json:"timestamp,omitempty"`
	Data          string         `json:"data,omitempty"`
}

type contractJSON struct {
	Parameter struct {
		Value   any    `json:"value"`
		TypeURL string `json:"type_url"`
	} `json:"parameter"`
	Type         string `json:"type"`
	PermissionID int32  `json:"Permission_id,omitempty"`
}

type triggerJSON struct {
	Data            string `json:"data,omitempty"`
	OwnerAddress    string `json:"owner_address"`
	ContractAddress string `json:"contract_address"`
	CallValue       int64  `json:"call_value,omitempty"`
}

type createJSON struct {
	OwnerAddress string `json:"owner_address"`
	NewContract  struct {
		Bytecode                   string `json:"bytecode"`
		ConsumeUserResourcePercent int64  `json:"consume_user_resource_percent"`
		Name                       string `json:"name,omitempty"`
		OriginAddress              string `json:"origin_address"`
		OriginEnergyLimit          int64  `json:"origin_energy_limit"`
	} `json:"new_contract"`
}

func (v view) tx(t *txRecord) txJSON {
	j := txJSON{
		TxID:       hex.EncodeToString(t.id[:]),
		RawDataHex: hex.EncodeToString(t.rawPB),
		RawData: rawDataJSON{
			RefBlockBytes: hex.EncodeToString(t.raw.RefBlockBytes),
			RefBlockHash:  hex.EncodeToString(t.raw.RefBlockHash),
			Expiration:    t.raw.Expiration,
			FeeLimit:      t.raw.FeeLimit,
			Timestamp:     t.raw.Timestamp,
			Data:          v.text(t.raw.Data),
		},
	}
	for _, s := range t.sigs {
		j.Signature = append(j.Signature, hex.EncodeToString(s))
	}
	var c contractJSON
	c.Type = t.kind.String()
	c.Parameter.TypeURL = t.raw.Contract.TypeURL
	c.PermissionID = t.raw.Contract.PermissionID
	if t.kind == tron.CreateSmartContract {
		var cj createJSON
		cj.OwnerAddress = v.addr(t.owner)
		cj.NewContract.Bytecode = hex.EncodeToString(t.data)
		cj.NewContract.ConsumeUserResourcePercent = 100
		cj.NewContract.Name = t.name
		cj.NewContract.OriginAddress = v.addr(t.owner)
		cj.NewContract.OriginEnergyLimit = systemEnergy
		c.Parameter.Value = cj
	} else if t.kind == tron.TransferContract {
		c.Parameter.Value = transferJSON{Amount: t.callValue, OwnerAddress: v.addr(t.owner), ToAddress: v.addr(t.contract)}
	} else {
		c.Parameter.Value = triggerJSON{
			Data:            hex.EncodeToString(t.data),
			OwnerAddress:    v.addr(t.owner),
			ContractAddress: v.addr(t.contract),
			CallValue:       t.callValue,
		}
	}
	j.RawData.Contract = []contractJSON{c}
	return j
}

type blockJSON struct {
	BlockID     string `json:"blockID"`
	BlockHeader struct {
		RawData struct {
			Number         uint64 `json:"number,omitempty"`
			TxTrieRoot     string `json:"txTrieRoot"`
			WitnessAddress string `json:"witness_address"`
			ParentHash     string `json:"parentHash"`
			Version        int    `json:"version"`
			Timestamp      int64  `json:"timestamp,omitempty"`
		} `json:"raw_data"`
		WitnessSignature string `json:"witness_signature"`
	} `json:"block_header"`
	Transactions []txJSON `json:"transactions,omitempty"`
}

func (v view) block(b *block) blockJSON {
	var j blockJSON
	j.BlockID = hex.EncodeToString(b.id[:])
	r := &j.BlockHeader.RawData
	r.Number = b.number
	r.TxTrieRoot = hex.EncodeToString(b.txRoot[:])
	r.WitnessAddress = v.addr(b.witness)
	r.ParentHash = hex.EncodeToString(b.parent[:])
	r.Version = blockVersion
	r.Timestamp = b.time
	j.BlockHeader.WitnessSignature = hex.EncodeToString(b.signature)
	for i, t := range b.txs {
		tj := v.tx(t)
		tj.Ret = []retJSON{{ContractRet: b.infos[i].result}}
		j.Transactions = append(j.Transactions, tj)
	}
	return j
}

type infoJSON struct {
	ID              string      `json:"id"`
	Fee             int64       `json:"fee,omitempty"`
	BlockNumber     uint64      `json:"blockNumber"`
	BlockTimeStamp  int64       `json:"blockTimeStamp"`
	ContractResult  []string    `json:"contractResult"`
	ContractAddress string      `json:"contract_address,omitempty"`
	Receipt         receiptJSON `json:"receipt"`
	Log             []logJSON   `json:"log,omitempty"`
	Result          string      `json:"result,omitempty"`
	ResMessage      string      `json:"resMessage,omitempty"`
}

type receiptJSON struct {
	EnergyUsage      int64  `json:"energy_usage,omitempty"`
	EnergyFee        int64  `json:"energy_fee,omitempty"`
	EnergyUsageTotal int64  `json:"energy_usage_total,omitempty"`
	NetUsage         int64  `json:"net_usage,omitempty"`
	NetFee           int64  `json:"net_fee,omitempty"`
	Result           string `json:"result,omitempty"`
}

type logJSON struct {
	Address string   `json:"address"`
	Topics  []string `json:"topics,omitempty"`
	Data    string   `json:"data,omitempty"`
}

func (v view) info(i *txInfo) infoJSON {
	j := infoJSON{
		ID:             hex.EncodeToString(i.id[:]),
		Fee:            i.fee,
		BlockNumber:    i.blockNumber,
		BlockTimeStamp: i.blockTime,
		ContractResult: []string{hex.EncodeToString(i.contractResult)},
		Receipt: receiptJSON{
			EnergyUsage:      i.energyUsage,
			EnergyFee:        i.energyFee,
			EnergyUsageTotal: i.energyTotal,
			NetUsage:         i.netUsage,
			NetFee:           i.netFee,
			Result:           i.result,
		},
	}
	if !i.contract.IsZero() {
		j.ContractAddress = v.addr(i.contract)
	}
	if i.failed {
		j.Result = "FAILED"
		j.ResMessage = v.text([]byte(i.resMessage))
	}
	for _, l := range i.logs {
		lj := logJSON{Address: v.logAddr(l.address), Data: hex.EncodeToString(l.data)}
		for _, t := range l.topics {
			lj.Topics = append(lj.Topics, hex.EncodeToString(t[:]))
		}
		j.Log = append(j.Log, lj)
	}
	return j
}
