// Package qr renders the QR codes of collection orders: the payment request
// text a wallet understands, and that text as a PNG data URI.
//
// EVM networks use EIP-681 (ethereum:<token>@<chainId>/transfer?address=
// <to>&uint256=<base units>), which wallets turn into a prefilled token
// transfer. TRON has no payment URI that its wallets agree on (several
// wallets read a bare address, few read any URI scheme), so a TRON code
// holds the deposit address alone and the page shows amount and token
// beside it.
package qr

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math/big"

	"github.com/stablecashier/cashier"
)

// DefaultSize is the edge length in pixels of rendered codes.
const DefaultSize = 256

// PaymentText is the text encoded in the QR code of a payment of amount base
// units of token to deposit on network n.
func PaymentText(n cashier.Network, token cashier.Token, deposit string, amount *big.Int) (string, error) {
	if !n.Chain.IsEVM() {
		return deposit, nil
	}
	if n.EVMChainID <= 0 {
		return "", fmt.Errorf("qr: network %s has no EVM chain id", n.Chain)
	}
	if amount == nil || amount.Sign() < 0 {
		return "", fmt.Errorf("qr: amount must be a non-negative number of base units")
	}
	return fmt.Sprintf("ethereum:%s@%d/transfer?address=%s&uint256=%s",
		token.ContractAddress, n.EVMChainID, deposit, amount.String()), nil
}

// PNG renders text as a QR code PNG of size×size pixels with medium error
// correction (15%), which survives a phone camera and a little glare. Each
// module is a whole number of pixels (crisp edges when scaled), centred on
// a white margin. The image is a 1-bit greyscale PNG written straight from
// the modules (encode.go, png.go): every collection order carries one, so
// its cost is on the hot path of order creation.
func PNG(text string, size int) ([]byte, error) {
	if size <= 0 {
		size = DefaultSize
	}
	sym, err := encode(text)
	if err != nil {
		return nil, err
	}
	n := sym.size + 8 // modules including the 4-module quiet zone
	scale := size / n
	if scale < 1 {
		return nil, fmt.Errorf("qr: %d pixels cannot hold %d modules", size, n)
	}
	off := (size - n*scale) / 2
	var buf bytes.Buffer
	buf.Grow(1024)
	if err := writePNG(&buf, sym, size, scale, off); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// DataURI renders text as a "data:image/png;base64,..." URI, the form of
// the qrCode field of a collection order.
func DataURI(text string) (string, error) {
	png, err := PNG(text, DefaultSize)
	if err != nil {
		return "", err
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(png), nil
}
