package qr

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"math/big"
	"math/rand/v2"
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
// module gives back the encoder's matrix, inside a white quiet zone.
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
	if b := img.Bounds(); b.Dx() != 300 || b.Dy() != 300 {
		t.Fatalf("size %v", b)
	}
	sym, err := encode(text)
	if err != nil {
		t.Fatal(err)
	}
	n := sym.size + 8
	scale := 300 / n
	off := (300 - n*scale) / 2
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			want := x >= 4 && y >= 4 && x < n-4 && y < n-4 && sym.Dark(x-4, y-4)
			for _, p := range [][2]int{{0, 0}, {scale - 1, scale - 1}} {
				r, _, _, _ := img.At(off+x*scale+p[0], off+y*scale+p[1]).RGBA()
				if dark := r < 0x8000; dark != want {
					t.Fatalf("module (%d,%d): dark=%v, want %v", x, y, dark, want)
				}
			}
		}
	}
	for _, p := range [][2]int{{0, 0}, {299, 299}, {off - 1, 150}} {
		if r, _, _, _ := img.At(p[0], p[1]).RGBA(); r < 0x8000 {
			t.Fatalf("margin pixel %v is not white", p)
		}
	}
	if _, err := PNG(text, 10); err == nil {
		t.Fatal("a 10-pixel image cannot hold the symbol")
	}
	if _, err := PNG(strings.Repeat("x", 2400), 4000); err == nil {
		t.Fatal("text beyond version 40 accepted")
	}
}

// The penalty rules score what the standard says: a symbol whose modules
// are all light has runs along every row and column, 2×2 blocks
// everywhere and a 50% dark-share deviation, and no finder-like pattern.
func TestPenaltyRules(t *testing.T) {
	s := &symbol{size: 21, mod: make([]byte, 21*21)}
	const n = 21
	want := 2*n*(3+n-5) + 3*(n-1)*(n-1) + 10*10
	if got := s.penalty(); got != want {
		t.Fatalf("all light: penalty %d, want %d", got, want)
	}
	// One finder-like row pattern 1011101 followed by four light modules
	// adds 40 (and changes runs, blocks and the dark share).
	for i, d := range []byte{1, 0, 1, 1, 1, 0, 1} {
		s.mod[5*n+i] = d
	}
	base := &symbol{size: n, mod: append([]byte(nil), s.mod...)}
	base.mod[5*n+6] = 0 // same modules but no longer finder-like
	if s.penalty() <= base.penalty()+20 {
		t.Fatalf("finder-like pattern not penalised: %d vs %d", s.penalty(), base.penalty())
	}
}

const benchText = "ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer?address=0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed&uint256=25500000"

// BenchmarkDataURI is the cost of the QR code of one collection order.
func BenchmarkDataURI(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DataURI(benchText); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDataURIGeneral is the same image through a general-purpose
// encoder and image/png, the way codes were rendered before; kept to
// compare against.
func BenchmarkDataURIGeneral(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		q, err := qrcode.New(benchText, qrcode.Medium)
		if err != nil {
			b.Fatal(err)
		}
		bm := q.Bitmap()
		n := len(bm)
		scale := DefaultSize / n
		off := (DefaultSize - n*scale) / 2
		img := image.NewPaletted(image.Rect(0, 0, DefaultSize, DefaultSize), color.Palette{color.White, color.Black})
		for y, row := range bm {
			for x, d := range row {
				if d {
					for py := off + y*scale; py < off+(y+1)*scale; py++ {
						for px := off + x*scale; px < off+(x+1)*scale; px++ {
							img.Pix[py*img.Stride+px] = 1
						}
					}
				}
			}
		}
		var buf bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
			b.Fatal(err)
		}
		_ = base64.StdEncoding.EncodeToString(buf.Bytes())
	}
}

// The word-parallel penalty used for small versions agrees with the
// module-by-module rules on random symbols of every size it handles, and
// on real symbols under every mask.
func TestPenaltyWordsMatchesRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for v := 1; v <= maxWordVersion; v++ {
		n := 17 + 4*v
		for trial := 0; trial < 50; trial++ {
			s := &symbol{size: n, mod: make([]byte, n*n)}
			density := rng.IntN(9) + 1
			for i := range s.mod {
				if rng.IntN(10) < density {
					s.mod[i] = dark
				}
			}
			if trial == 0 { // a finder-like row with light on both sides
				clear(s.mod[:n])
				for i, d := range []byte{1, 0, 1, 1, 1, 0, 1} {
					s.mod[n/2-3+i] = d
				}
			}
			rows, cols := make([]uint64, n), make([]uint64, n)
			for y := 0; y < n; y++ {
				for x := 0; x < n; x++ {
					if s.Dark(x, y) {
						rows[y] |= 1 << x
						cols[x] |= 1 << y
					}
				}
			}
			if got, want := penaltyWords(rows, cols), s.penalty(); got != want {
				t.Fatalf("version %d trial %d: words %d, rules %d", v, trial, got, want)
			}
		}
	}
	for _, text := range []string{"a", benchText, strings.Repeat("T9", 80)} {
		sym, err := encode(text)
		if err != nil {
			t.Fatal(err)
		}
		l := layoutOf((sym.size - 17) / 4)
		base := &symbol{size: sym.size, mod: append([]byte(nil), l.mod...)}
		version, dataLen := (sym.size-17)/4, 0
		for _, g := range levelM[version-1] {
			dataLen += g.count * g.data
		}
		base.placeData(l, interleave(version, dataCodewords(text, version, dataLen)))
		best, bestScore := -1, 0
		for m := 0; m < 8; m++ {
			c := &symbol{size: base.size, mod: append([]byte(nil), base.mod...)}
			c.applyMask(l.masks, m)
			if p := c.penalty(); best < 0 || p < bestScore {
				best, bestScore = m, p
			}
		}
		want := &symbol{size: base.size, mod: append([]byte(nil), base.mod...)}
		want.applyMask(l.masks, best)
		if !sameModules(sym, want) {
			t.Fatalf("%.10s: encoder did not pick mask %d, the lowest penalty", text, best)
		}
	}
}

func sameModules(a, b *symbol) bool {
	if a.size != b.size {
		return false
	}
	for y := 0; y < a.size; y++ {
		for x := 0; x < a.size; x++ {
			if a.Dark(x, y) != b.Dark(x, y) {
				return false
			}
		}
	}
	return true
}

// Every pixel of the image is the symbol's: for versions 1 to 40 (the
// word-built symbols and the byte-built ones) and edge lengths that scale
// modules by one pixel up to many, with and without a partial last byte
// per row, the decoded PNG is the symbol scaled, centred on white.
func TestPNGPixelsMatchSymbol(t *testing.T) {
	for v := 1; v <= 40; v++ {
		dataLen, countBits := 0, 8
		for _, g := range levelM[v-1] {
			dataLen += g.count * g.data
		}
		if v >= 10 {
			countBits = 16
		}
		text := strings.Repeat("x", (8*dataLen-4-countBits)/8) // the most version v holds
		sym, err := encode(text)
		if err != nil {
			t.Fatal(err)
		}
		if got := (sym.size - 17) / 4; got != v {
			t.Fatalf("%d bytes: version %d, want %d", len(text), got, v)
		}
		n := sym.size + 8
		for _, size := range []int{n, n + 5, DefaultSize, 3*n + 7} {
			if size < n {
				continue
			}
			raw, err := PNG(text, size)
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(raw))
			if err != nil {
				t.Fatalf("version %d size %d: %v", (sym.size-17)/4, size, err)
			}
			scale := size / n
			quiet := (size-n*scale)/2 + 4*scale
			for y := 0; y < size; y++ {
				for x := 0; x < size; x++ {
					mx, my := (x-quiet)/scale, (y-quiet)/scale
					want := x >= quiet && y >= quiet && mx < sym.size && my < sym.size && sym.Dark(mx, my)
					if r, _, _, _ := img.At(x, y).RGBA(); (r < 0x8000) != want {
						t.Fatalf("version %d size %d: pixel (%d,%d) dark=%v, want %v", (sym.size-17)/4, size, x, y, r < 0x8000, want)
					}
				}
			}
		}
	}
}

// The error correction codewords are the remainder of the polynomial
// division the standard defines: ISO/IEC 18004's worked example
// ("01234567", version 1-M), and random blocks of every degree level M
// uses, checked against long division done one term at a time.
func TestReedSolomon(t *testing.T) {
	data := []byte{0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11}
	want := []byte{0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55}
	got := make([]byte, 10)
	rsRemainder(data, generator(10), got)
	if !bytes.Equal(got, want) {
		t.Fatalf("01234567 1-M: % X, want % X", got, want)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, groups := range levelM {
		degree := groups[0].total - groups[0].data
		gen := []byte{1} // the generator, highest power first, by its definition
		for i := 0; i < degree; i++ {
			root := gfExp[i]
			next := make([]byte, len(gen)+1)
			for j, c := range gen {
				next[j] ^= c
				next[j+1] ^= gfMul(c, root)
			}
			gen = next
		}
		block := make([]byte, groups[0].data)
		for i := range block {
			block[i] = byte(rng.UintN(256))
		}
		rem := append(append([]byte(nil), block...), make([]byte, degree)...)
		for i := range block {
			if f := rem[i]; f != 0 {
				for j, c := range gen {
					rem[i+j] ^= gfMul(c, f)
				}
			}
		}
		got := make([]byte, degree)
		rsRemainder(block, generator(degree), got)
		if !bytes.Equal(got, rem[len(block):]) {
			t.Fatalf("degree %d: % X, want % X", degree, got, rem[len(block):])
		}
	}
}
