package qr

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"math/big"
	"strings"
	"testing"

	qrcode "github.com/skip2/go-qrcode"

	"github.com/stablecashier/cashier"
)

func TestPaymentTextEVMIsEIP681(t *testing.T) {
	n := cashier.Network{Chain: cashier.ChainARB, EVMChainID: 42161}
	tok := cashier.Token{Symbol: "USDT", ContractAddress: "0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9", Decimals: 6}
	got, err := PaymentText(n, tok, "0x1111111111111111111111111111111111111111", big.NewInt(100_500_000))
	if err != nil {
		t.Fatal(err)
	}
	want := "ethereum:0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9@42161/transfer?address=0x1111111111111111111111111111111111111111&uint256=100500000"
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if _, err := PaymentText(cashier.Network{Chain: cashier.ChainETH}, tok, "0x1", big.NewInt(1)); err == nil {
		t.Fatal("EVM network without chain id accepted")
	}
}

func TestPaymentTextTRONIsAddress(t *testing.T) {
	n := cashier.Network{Chain: cashier.ChainTRON}
	got, err := PaymentText(n, cashier.Token{Symbol: "USDT"}, "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7", big.NewInt(1))
	if err != nil || got != "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7" {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestDataURIIsSquarePNG(t *testing.T) {
	uri, err := DataURI("ethereum:0xabc@1/transfer?address=0xdef&uint256=1")
	if err != nil {
		t.Fatal(err)
	}
	const prefix = "data:image/png;base64,"
	if !strings.HasPrefix(uri, prefix) {
		t.Fatalf("prefix: %.40s", uri)
	}
	raw, err := base64.StdEncoding.DecodeString(uri[len(prefix):])
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != DefaultSize || b.Dy() != DefaultSize {
		t.Fatalf("size %v", b)
	}
	// A QR code has dark modules: the top-left finder pattern is dark a
	// few pixels inside the quiet zone.
	dark := 0
	for y := 0; y < DefaultSize; y += 4 {
		for x := 0; x < DefaultSize; x += 4 {
			if r, _, _, _ := img.At(x, y).RGBA(); r < 0x8000 {
				dark++
			}
		}
	}
	if dark == 0 {
		t.Fatal("image has no dark modules")
	}
}

// The PNG carries exactly the QR symbol: sampling the centre of every
// module gives back the encoder's bitmap, with a white margin around it.
func TestPNGModulesMatchSymbol(t *testing.T) {
	const text = "ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer?address=0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed&uint256=25500000"
	raw, err := PNG(text, 300)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	q, err := qrcode.New(text, qrcode.Medium)
	if err != nil {
		t.Fatal(err)
	}
	bm := q.Bitmap()
	n := len(bm)
	scale := 300 / n
	off := (300 - n*scale) / 2
	for y := range bm {
		for x := range bm[y] {
			r, _, _, _ := img.At(off+x*scale+scale/2, off+y*scale+scale/2).RGBA()
			if dark := r < 0x8000; dark != bm[y][x] {
				t.Fatalf("module (%d,%d): dark=%v, want %v", x, y, dark, bm[y][x])
			}
		}
	}
	if r, _, _, _ := img.At(0, 0).RGBA(); r < 0x8000 {
		t.Fatal("margin is not white")
	}
	if _, err := PNG(text, 10); err == nil {
		t.Fatal("a 10-pixel image cannot hold the symbol")
	}
}
