package qr

import (
	"errors"
	"math/bits"
	"sync"
)

// This file and its neighbours (reedsolomon.go, symbol.go, mask.go) are a
// QR code encoder (ISO/IEC 18004) reduced to what payment
// codes need: byte mode, error correction level M, versions 1–40. Payment
// codes are versions up to 9, whose rows and columns fit a 64-bit word:
// those are built as words (the data modules' order and the function
// patterns precomputed per version) and all eight masks are scored with
// the standard penalty rules a few word operations per line. Larger
// versions keep one byte per module. The Reed–Solomon codewords come from
// the generator's products with every field element, precomputed.

// blockGroup is one group of Reed–Solomon blocks of a version at level M:
// count blocks of total codewords each, data of them data codewords.
type blockGroup struct{ count, total, data int }

// levelM lists the block structure of every version (index version-1) at
// error correction level M.
var levelM = [40][]blockGroup{
	{{1, 26, 16}},                // 1
	{{1, 44, 28}},                // 2
	{{1, 70, 44}},                // 3
	{{2, 50, 32}},                // 4
	{{2, 67, 43}},                // 5
	{{4, 43, 27}},                // 6
	{{4, 49, 31}},                // 7
	{{2, 60, 38}, {2, 61, 39}},   // 8
	{{3, 58, 36}, {2, 59, 37}},   // 9
	{{4, 69, 43}, {1, 70, 44}},   // 10
	{{1, 80, 50}, {4, 81, 51}},   // 11
	{{6, 58, 36}, {2, 59, 37}},   // 12
	{{8, 59, 37}, {1, 60, 38}},   // 13
	{{4, 64, 40}, {5, 65, 41}},   // 14
	{{5, 65, 41}, {5, 66, 42}},   // 15
	{{7, 73, 45}, {3, 74, 46}},   // 16
	{{10, 74, 46}, {1, 75, 47}},  // 17
	{{9, 69, 43}, {4, 70, 44}},   // 18
	{{3, 70, 44}, {11, 71, 45}},  // 19
	{{3, 67, 41}, {13, 68, 42}},  // 20
	{{17, 68, 42}},               // 21
	{{17, 74, 46}},               // 22
	{{4, 75, 47}, {14, 76, 48}},  // 23
	{{6, 73, 45}, {14, 74, 46}},  // 24
	{{8, 75, 47}, {13, 76, 48}},  // 25
	{{19, 74, 46}, {4, 75, 47}},  // 26
	{{22, 73, 45}, {3, 74, 46}},  // 27
	{{3, 73, 45}, {23, 74, 46}},  // 28
	{{21, 73, 45}, {7, 74, 46}},  // 29
	{{19, 75, 47}, {10, 76, 48}}, // 30
	{{2, 74, 46}, {29, 75, 47}},  // 31
	{{10, 74, 46}, {23, 75, 47}}, // 32
	{{14, 74, 46}, {21, 75, 47}}, // 33
	{{14, 74, 46}, {23, 75, 47}}, // 34
	{{12, 75, 47}, {26, 76, 48}}, // 35
	{{6, 75, 47}, {34, 76, 48}},  // 36
	{{29, 74, 46}, {14, 75, 47}}, // 37
	{{13, 74, 46}, {32, 75, 47}}, // 38
	{{40, 75, 47}, {7, 76, 48}},  // 39
	{{18, 75, 47}, {31, 76, 48}}, // 40
}

// errTooLong is returned for text beyond the capacity of version 40-M.
var errTooLong = errors.New("qr: text too long for a QR code")

// encode builds the QR symbol of text at level M: smallest version that
// holds it, best mask by the standard penalty rules.
func encode(text string) (*symbol, error) {
	version, dataLen := 0, 0
	for v := 1; v <= 40; v++ {
		n := 0
		for _, g := range levelM[v-1] {
			n += g.count * g.data
		}
		countBits := 8
		if v >= 10 {
			countBits = 16
		}
		if 4+countBits+8*len(text) <= 8*n {
			version, dataLen = v, n
			break
		}
	}
	if version == 0 {
		return nil, errTooLong
	}
	codewords := interleave(version, dataCodewords(text, version, dataLen))
	l := layoutOf(version)
	if version <= maxWordVersion {
		return encodeWords(l, codewords), nil
	}
	s := &symbol{size: l.size, mod: append([]byte(nil), l.mod...)}
	s.placeData(l, codewords)
	s.applyBestMask(l.masks)
	return s, nil
}

// encodeWords is encode for versions up to maxWordVersion: the data bits
// go straight into row and column words over the layout's function
// patterns, the masks are scored on words, and the symbol is the rows
// under the best mask.
func encodeWords(l *layout, codewords []byte) *symbol {
	n := l.size
	var rows, cols [4*maxWordVersion + 17]uint64
	copy(rows[:], l.baseRows)
	copy(cols[:], l.baseCols)
	for j, c := range codewords {
		for c != 0 {
			b := bits.LeadingZeros8(c)
			c &^= 0x80 >> b
			if i := j*8 + b; i < len(l.order) {
				pl := l.order[i]
				rows[pl.y] |= 1 << pl.x
				cols[pl.x] |= 1 << pl.y
			}
		}
	}
	m := bestMaskWords(l, rows[:n], cols[:n])
	out := make([]uint64, n)
	for y := range out {
		out[y] = rows[y] ^ l.rowXor[m][y]
	}
	return &symbol{size: n, rows: out}
}

// layout is what every symbol of a version shares: the function patterns
// with the format areas reserved, per module a byte whose bit m says
// whether mask m inverts it (zero on function modules), and the data
// modules in the order the data bits fill them.
type layout struct {
	symbol
	masks []byte
	order []placement
	// For versions up to maxWordVersion, the function patterns (with mask
	// 0's format information) as row and column words.
	baseRows, baseCols []uint64
	// For versions up to maxWordVersion, per mask the XOR that turns the
	// symbol drawn with mask 0's format information into the symbol under
	// mask m: rows (bit x of row y) and columns (bit y of column x).
	rowXor, colXor [8][]uint64
}

// maxWordVersion is the largest version whose lines fit, with four light
// modules on either side, in one 64-bit word (53 modules).
const maxWordVersion = 9

var (
	layoutOnce [40]sync.Once
	layouts    [40]*layout
)

func layoutOf(version int) *layout {
	layoutOnce[version-1].Do(func() {
		s := newSymbol(version)
		masks := make([]byte, len(s.mod))
		for y := 0; y < s.size; y++ {
			for x := 0; x < s.size; x++ {
				if s.mod[y*s.size+x]&function != 0 {
					continue
				}
				for m := 0; m < 8; m++ {
					if masked(m, x, y) {
						masks[y*s.size+x] |= 1 << m
					}
				}
			}
		}
		l := &layout{symbol: *s, masks: masks, order: dataOrder(s)}
		if version <= maxWordVersion {
			l.baseRows, l.baseCols = make([]uint64, s.size), make([]uint64, s.size)
			for y := 0; y < s.size; y++ {
				for x := 0; x < s.size; x++ {
					if s.Dark(x, y) {
						l.baseRows[y] |= 1 << x
						l.baseCols[x] |= 1 << y
					}
				}
			}
			f0 := &symbol{size: s.size, mod: append([]byte(nil), s.mod...)}
			f0.format(0)
			for m := 0; m < 8; m++ {
				fm := &symbol{size: s.size, mod: append([]byte(nil), s.mod...)}
				fm.format(m)
				l.rowXor[m], l.colXor[m] = make([]uint64, s.size), make([]uint64, s.size)
				for y := 0; y < s.size; y++ {
					for x := 0; x < s.size; x++ {
						i := y*s.size + x
						if (masks[i]>>m)&1 != 0 || (f0.mod[i]^fm.mod[i])&dark != 0 {
							l.rowXor[m][y] |= 1 << x
							l.colXor[m][x] |= 1 << y
						}
					}
				}
			}
		}
		layouts[version-1] = l
	})
	return layouts[version-1]
}

// dataCodewords is text in byte mode with terminator and padding, dataLen
// bytes long.
func dataCodewords(text string, version, dataLen int) []byte {
	out := make([]byte, 0, dataLen)
	n := len(text)
	if version < 10 {
		// 0100 mode, 8-bit count, then the bytes shifted by four bits.
		out = append(out, 0x40|byte(n>>4))
		prev := byte(n)
		for i := 0; i < n; i++ {
			out = append(out, prev<<4|text[i]>>4)
			prev = text[i]
		}
		out = append(out, prev<<4) // last nibble and a 4-bit terminator
	} else {
		out = append(out, 0x40|byte(n>>12), byte(n>>4))
		prev := byte(n)
		for i := 0; i < n; i++ {
			out = append(out, prev<<4|text[i]>>4)
			prev = text[i]
		}
		out = append(out, prev<<4)
	}
	// The terminator may be cut short at capacity: the last byte above is
	// then the one that does not fit, and the symbol is full without it.
	if len(out) > dataLen {
		out = out[:dataLen]
	}
	for pad := byte(0xEC); len(out) < dataLen; pad ^= 0xEC ^ 0x11 {
		out = append(out, pad)
	}
	return out
}

// interleave splits data into the version's blocks, appends each block's
// error correction codewords and interleaves them as the standard places
// them.
func interleave(version int, data []byte) []byte {
	groups := levelM[version-1]
	var blocks [][]byte
	eccLen := groups[0].total - groups[0].data
	total := 0
	for _, g := range groups {
		for i := 0; i < g.count; i++ {
			blocks = append(blocks, data[:g.data])
			data = data[g.data:]
			total += g.total
		}
	}
	gen := generator(eccLen)
	ecc := make([]byte, len(blocks)*eccLen)
	for i, b := range blocks {
		rsRemainder(b, gen, ecc[i*eccLen:(i+1)*eccLen])
	}
	out := make([]byte, 0, total)
	maxData := groups[len(groups)-1].data
	for i := 0; i < maxData; i++ {
		for _, b := range blocks {
			if i < len(b) {
				out = append(out, b[i])
			}
		}
	}
	for i := 0; i < eccLen; i++ {
		for j := range blocks {
			out = append(out, ecc[j*eccLen+i])
		}
	}
	return out
}
