package tronnode

import (
	"encoding/hex"

	"github.com/stablecashier/cashier/tron"
)

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
