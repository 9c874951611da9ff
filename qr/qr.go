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
	"image"
	"image/color"
	"image/png"
	"math/big"
	"sync"

	qrcode "github.com/skip2/go-qrcode"

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
// a white margin; a two-colour palette keeps the file small and the
// encoding fast, which matters because every collection order carries one.
func PNG(text string, size int) ([]byte, error) {
	if size <= 0 {
		size = DefaultSize
	}
	q, err := qrcode.New(text, qrcode.Medium)
	if err != nil {
		return nil, err
	}
	bm := q.Bitmap() // modules including the quiet zone; true is dark
	n := len(bm)
	scale := size / n
	if scale < 1 {
		return nil, fmt.Errorf("qr: %d pixels cannot hold %d modules", size, n)
	}
	off := (size - n*scale) / 2
	img := image.NewPaletted(image.Rect(0, 0, size, size), color.Palette{color.White, color.Black})
	for y, row := range bm {
		for x, dark := range row {
			if !dark {
				continue
			}
			for py := off + y*scale; py < off+(y+1)*scale; py++ {
				line := img.Pix[py*img.Stride:]
				for px := off + x*scale; px < off+(x+1)*scale; px++ {
					line[px] = 1
				}
			}
		}
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: encoderBuffers}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// encoderBuffers reuses the PNG encoder's compressor state between images;
// allocating a fresh deflate writer per image costs more than encoding it.
var encoderBuffers = &bufferPool{}

type bufferPool struct{ p sync.Pool }

func (b *bufferPool) Get() *png.EncoderBuffer {
	e, _ := b.p.Get().(*png.EncoderBuffer)
	return e
}

func (b *bufferPool) Put(e *png.EncoderBuffer) { b.p.Put(e) }

// DataURI renders text as a "data:image/png;base64,..." URI, the form of
// the qrCode field of a collection order.
func DataURI(text string) (string, error) {
	png, err := PNG(text, DefaultSize)
	if err != nil {
		return "", err
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(png), nil
}
