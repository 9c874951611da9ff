package check

import "github.com/stablecashier/cashier/sandbox"

// RecordFile is where Run leaves, in the data directory, what Resumed
// checks after a restart.
const RecordFile = "check.json"

// Record is what one Run made on the sandbox.
type Record struct {
	MerchantID  string       `json:"merchantId"`
	APIKey      string       `json:"apiKey"`
	Collections []Collection `json:"collections"`
	// Paid are the token balances the payout batches created: fresh
	// recipients hold exactly what they were paid.
	Paid []Holding `json:"paid"`
}

// Collection is a collection order the check created and paid.
type Collection struct {
	Chain          string `json:"chain"`
	OrderNo        string `json:"orderNo"`
	DepositAddress string `json:"depositAddress"`
	TxHash         string `json:"txHash"`
}

// Holding is a token balance of one address, in base units.
type Holding struct {
	Chain  string `json:"chain"`
	Token  string `json:"token"`
	Holder string `json:"holder"`
	Amount string `json:"amount"`
}

// ReadRecord loads the record Run wrote.
func ReadRecord(path string) (*Record, error) {
	var r Record
	if err := sandbox.ReadJSON(path, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

func (r *Record) write(path string) error { return sandbox.WriteJSON(path, r) }
