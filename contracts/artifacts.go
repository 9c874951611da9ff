// Package contracts embeds the committed artifacts of the deployable
// contracts, so the service can tell whether an address holds exactly the
// code built from contracts/src.
package contracts

import (
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
)

//go:embed build/CashierPayout.json build/DepositFactory.json
var artifacts embed.FS

// DeployedCode returns the committed runtime code (deployedBin) of the
// named contract, immutables left as solc writes them: 32 zero bytes each.
func DeployedCode(name string) ([]byte, error) {
	b, err := artifacts.ReadFile("build/" + name + ".json")
	if err != nil {
		return nil, fmt.Errorf("contracts: no artifact %s", name)
	}
	var a struct {
		DeployedBin string `json:"deployedBin"`
	}
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, fmt.Errorf("contracts: artifact %s: %w", name, err)
	}
	return hex.DecodeString(strings.TrimPrefix(a.DeployedBin, "0x"))
}
