package qr

import (
	"crypto/subtle"
	"errors"
	"math/bits"
	"sync"
)

// This file is a QR code encoder (ISO/IEC 18004) reduced to what payment
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

// alignCenters lists the row/column coordinates of alignment pattern
// centres per version (index version-1).
var alignCenters = [40][]int{
	{}, {6, 18}, {6, 22}, {6, 26}, {6, 30}, {6, 34},
	{6, 22, 38}, {6, 24, 42}, {6, 26, 46}, {6, 28, 50}, {6, 30, 54}, {6, 32, 58}, {6, 34, 62},
	{6, 26, 46, 66}, {6, 26, 48, 70}, {6, 26, 50, 74}, {6, 30, 54, 78}, {6, 30, 56, 82}, {6, 30, 58, 86}, {6, 34, 62, 90},
	{6, 28, 50, 72, 94}, {6, 26, 50, 74, 98}, {6, 30, 54, 78, 102}, {6, 28, 54, 80, 106}, {6, 32, 58, 84, 110}, {6, 30, 58, 86, 114}, {6, 34, 62, 90, 118},
	{6, 26, 50, 74, 98, 122}, {6, 30, 54, 78, 102, 126}, {6, 26, 52, 78, 104, 130}, {6, 30, 56, 82, 108, 134}, {6, 34, 60, 86, 112, 138}, {6, 30, 58, 86, 114, 142}, {6, 34, 62, 90, 118, 146},
	{6, 30, 54, 78, 102, 126, 150}, {6, 24, 50, 76, 102, 128, 154}, {6, 28, 54, 80, 106, 132, 158}, {6, 32, 58, 84, 110, 136, 162}, {6, 26, 54, 82, 110, 138, 166}, {6, 30, 58, 86, 114, 142, 170},
}

// errTooLong is returned for text beyond the capacity of version 40-M.
var errTooLong = errors.New("qr: text too long for a QR code")

// Module flags of a symbol: dark, and part of a function pattern (finder,
// timing, alignment, format, version), which masks leave alone.
const (
	dark     = 1
	function = 2
)

// symbol is a QR code matrix: one byte per module, row by row, or for
// versions up to maxWordVersion one word per row (bit x of rows[y] set
// when the module is dark), which is how the encoder builds those.
type symbol struct {
	size int
	mod  []byte
	rows []uint64
}

func (s *symbol) set(x, y int, isDark bool) {
	v := byte(function)
	if isDark {
		v |= dark
	}
	s.mod[y*s.size+x] = v
}

// Dark reports whether the module at column x, row y is dark.
func (s *symbol) Dark(x, y int) bool {
	if s.rows != nil {
		return s.rows[y]>>x&1 != 0
	}
	return s.mod[y*s.size+x]&dark != 0
}

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

// GF(256) with the QR polynomial x^8+x^4+x^3+x^2+1.
var gfExp, gfLog = func() (e [512]byte, l [256]byte) {
	x := 1
	for i := 0; i < 255; i++ {
		e[i] = byte(x)
		l[x] = byte(i)
		x <<= 1
		if x&0x100 != 0 {
			x ^= 0x11D
		}
	}
	for i := 255; i < 512; i++ {
		e[i] = e[i-255]
	}
	return
}()

func gfMul(a, b byte) byte {
	if a == 0 || b == 0 {
		return 0
	}
	return gfExp[int(gfLog[a])+int(gfLog[b])]
}

var generators sync.Map // degree → []byte

// generator returns the products of the Reed–Solomon generator polynomial
// of the given degree with every field element f, at f*degree: its
// coefficients from x^(degree-1) down to x^0 (the leading 1 left out)
// times f.
func generator(degree int) []byte {
	if g, ok := generators.Load(degree); ok {
		return g.([]byte)
	}
	g := make([]byte, degree)
	g[degree-1] = 1
	root := byte(1)
	for i := 0; i < degree; i++ {
		for j := 0; j < degree; j++ {
			g[j] = gfMul(g[j], root)
			if j+1 < degree {
				g[j] ^= g[j+1]
			}
		}
		root = gfMul(root, 2)
	}
	products := make([]byte, 256*degree)
	for f := 1; f < 256; f++ {
		for i, c := range g {
			products[f*degree+i] = gfMul(c, byte(f))
		}
	}
	generators.Store(degree, products)
	return products
}

// rsRemainder writes data's error correction codewords (the remainder of
// data·x^len(out) divided by the generator, given as its products) to out.
func rsRemainder(data, products, out []byte) {
	clear(out)
	d := len(out)
	for _, b := range data {
		factor := int(b ^ out[0])
		copy(out, out[1:])
		out[d-1] = 0
		subtle.XORBytes(out, out, products[factor*d:factor*d+d])
	}
}

// newSymbol draws the function patterns of a version and reserves the
// format areas.
func newSymbol(version int) *symbol {
	size := 17 + 4*version
	s := &symbol{size: size, mod: make([]byte, size*size)}
	for i := 8; i < size-8; i++ { // timing patterns
		s.set(6, i, i%2 == 0)
		s.set(i, 6, i%2 == 0)
	}
	s.finder(3, 3)
	s.finder(size-4, 3)
	s.finder(3, size-4)
	cs := alignCenters[version-1]
	last := len(cs) - 1
	for i, cx := range cs {
		for j, cy := range cs {
			if (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0) {
				continue // those corners hold finders
			}
			for dy := -2; dy <= 2; dy++ {
				for dx := -2; dx <= 2; dx++ {
					s.set(cx+dx, cy+dy, max(abs(dx), abs(dy)) != 1)
				}
			}
		}
	}
	s.format(0) // reserves the areas; drawn again with the chosen mask
	if version >= 7 {
		rem := version
		for i := 0; i < 12; i++ {
			rem = rem<<1 ^ (rem>>11)*0x1F25
		}
		bits := version<<12 | rem
		for i := 0; i < 18; i++ {
			a, b := size-11+i%3, i/3
			d := bits>>i&1 != 0
			s.set(a, b, d)
			s.set(b, a, d)
		}
	}
	return s
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// finder draws a finder pattern centred at (cx, cy) with its light
// separator.
func (s *symbol) finder(cx, cy int) {
	for dy := -4; dy <= 4; dy++ {
		for dx := -4; dx <= 4; dx++ {
			x, y := cx+dx, cy+dy
			if x < 0 || y < 0 || x >= s.size || y >= s.size {
				continue
			}
			d := max(abs(dx), abs(dy))
			s.set(x, y, d != 2 && d != 4)
		}
	}
}

// format draws the format information of level M with mask, both copies,
// and the dark module.
func (s *symbol) format(mask int) {
	data := mask // level M is 00
	rem := data
	for i := 0; i < 10; i++ {
		rem = rem<<1 ^ (rem>>9)*0x537
	}
	bits := (data<<10 | rem) ^ 0x5412
	bit := func(i int) bool { return bits>>i&1 != 0 }
	for i := 0; i <= 5; i++ {
		s.set(8, i, bit(i))
	}
	s.set(8, 7, bit(6))
	s.set(8, 8, bit(7))
	s.set(7, 8, bit(8))
	for i := 9; i < 15; i++ {
		s.set(14-i, 8, bit(i))
	}
	for i := 0; i < 8; i++ {
		s.set(s.size-1-i, 8, bit(i))
	}
	for i := 8; i < 15; i++ {
		s.set(8, s.size-15+i, bit(i))
	}
	s.set(8, s.size-8, true)
}

// placement is a data module: its index in a symbol's modules, and its
// column and row.
type placement struct {
	p    uint16
	x, y uint8
}

// dataOrder lists the non-function modules of s in the standard
// two-column zigzag, bottom right first: the order data bits fill them.
func dataOrder(s *symbol) []placement {
	n := s.size
	var order []placement
	for right := n - 1; right >= 1; right -= 2 {
		if right == 6 {
			right = 5
		}
		upward := (right+1)&2 == 0
		for vert := 0; vert < n; vert++ {
			y := vert
			if upward {
				y = n - 1 - vert
			}
			for j := 0; j < 2; j++ {
				x := right - j
				if p := y*n + x; s.mod[p]&function == 0 {
					order = append(order, placement{uint16(p), uint8(x), uint8(y)})
				}
			}
		}
	}
	return order
}

// placeData lays codewords into the data modules of l's version;
// remainder bits stay light.
func (s *symbol) placeData(l *layout, data []byte) {
	for i, pl := range l.order[:min(len(l.order), len(data)*8)] {
		if data[i>>3]>>(7-i&7)&1 != 0 {
			s.mod[pl.p] = dark
		}
	}
}

// masked reports whether mask m inverts the module at column x, row y.
func masked(m, x, y int) bool {
	switch m {
	case 0:
		return (x+y)%2 == 0
	case 1:
		return y%2 == 0
	case 2:
		return x%3 == 0
	case 3:
		return (x+y)%3 == 0
	case 4:
		return (x/3+y/2)%2 == 0
	case 5:
		return x*y%2+x*y%3 == 0
	case 6:
		return (x*y%2+x*y%3)%2 == 0
	default:
		return ((x+y)%2+x*y%3)%2 == 0
	}
}

// applyBestMask tries all eight masks (with their format information, as
// the standard requires), keeps the one with the lowest penalty and leaves
// the symbol masked with it. masks is the version's layout.masks.
func (s *symbol) applyBestMask(masks []byte) {
	best, bestScore := 0, -1
	work := &symbol{size: s.size, mod: make([]byte, len(s.mod))}
	for m := 0; m < 8; m++ {
		for i, v := range s.mod {
			work.mod[i] = v ^ (masks[i]>>m)&1
		}
		work.format(m)
		if score := work.penalty(); bestScore < 0 || score < bestScore {
			best, bestScore = m, score
		}
	}
	s.applyMask(masks, best)
}

// applyMask inverts the data modules mask m selects and draws the format
// information of m.
func (s *symbol) applyMask(masks []byte, m int) {
	for i := range s.mod {
		s.mod[i] ^= (masks[i] >> m) & 1
	}
	s.format(m)
}

// bestMaskWords is applyBestMask's choice computed on 64-bit lines: rows
// and cols are the symbol (drawn with mask 0's format information) as one
// word per row and per column, each mask is then a XOR per line, and
// every rule is a handful of word operations per line.
func bestMaskWords(l *layout, rows, cols []uint64) int {
	n := l.size
	var r, c [4*maxWordVersion + 17]uint64
	best, bestScore := 0, -1
	for m := 0; m < 8; m++ {
		for i := 0; i < n; i++ {
			r[i] = rows[i] ^ l.rowXor[m][i]
			c[i] = cols[i] ^ l.colXor[m][i]
		}
		if score := penaltyWords(r[:n], c[:n]); bestScore < 0 || score < bestScore {
			best, bestScore = m, score
		}
	}
	return best
}

// penaltyWords is penalty for a symbol of at most 53 modules given as row
// and column bit sets (bit i is module i, set when dark).
func penaltyWords(rows, cols []uint64) int {
	n := len(rows)
	valid := uint64(1)<<n - 1
	score, darkCount := 0, 0
	for _, lines := range [2][]uint64{rows, cols} {
		for _, d := range lines {
			score += lineWords(d, n, valid)
		}
	}
	for y := 0; y < n; y++ {
		a := rows[y]
		darkCount += bits.OnesCount64(a)
		if y+1 < n {
			b := rows[y+1]
			vert := ^(a ^ b)     // modules equal to the one below
			horiz := ^(a ^ a>>1) // modules equal to the one to the right
			score += 3 * bits.OnesCount64(vert&(vert>>1)&horiz&(valid>>1))
		}
	}
	total := n * n
	return score + 10*(abs(darkCount*20-total*10)/total)
}

// lineWords is lineScore for one line given as a bit set.
func lineWords(d uint64, n int, valid uint64) int {
	same := ^(d ^ d>>1) & (valid >> 1) // module i equals module i+1
	t4 := same & (same >> 1) & (same >> 2) & (same >> 3)
	score := bits.OnesCount64(t4) + 2*bits.OnesCount64(t4&^(t4<<1))
	// Finder-like patterns, with the line moved four bits up so that the
	// light quiet zone on either side is inside the word.
	dk := d << 4
	lt := ^dk
	core := dk & (lt >> 1) & (dk >> 2) & (dk >> 3) & (dk >> 4) & (lt >> 5) & (dk >> 6)
	after := (lt >> 7) & (lt >> 8) & (lt >> 9) & (lt >> 10)
	before := (lt << 1) & (lt << 2) & (lt << 3) & (lt << 4)
	return score + 40*(bits.OnesCount64(core&after)+bits.OnesCount64(core&before))
}

// Finder-like sequences of the third penalty rule as 11-bit windows: dark
// light dark dark dark light dark with four light modules after or before.
const (
	finderThenLight = 0b10111010000
	lightThenFinder = 0b00001011101
)

// penalty scores the symbol by the four rules of ISO/IEC 18004 §7.8.3:
// runs of five or more same-colour modules in a row or column (3 + excess),
// 2×2 same-colour blocks (3 each), finder-like patterns with four light
// modules on one side (40 each; the quiet zone counts as light), and the
// deviation of the dark share from 50% (10 per 5%). Rows and columns are
// each read once, the finder rule through an 11-bit shift register.
func (s *symbol) penalty() int {
	n := s.size
	score, darkCount := 0, 0
	for i := 0; i < n; i++ {
		score += lineScore(s.mod, i*n, 1, n)
		score += lineScore(s.mod, i, n, n)
	}
	for y := 0; y+1 < n; y++ {
		r0, r1 := s.mod[y*n:(y+1)*n], s.mod[(y+1)*n:(y+2)*n]
		for x := 0; x+1 < n; x++ {
			c := r0[x] & dark
			darkCount += int(c)
			if r0[x+1]&dark == c && r1[x]&dark == c && r1[x+1]&dark == c {
				score += 3
			}
		}
		darkCount += int(r0[n-1] & dark)
	}
	for _, v := range s.mod[(n-1)*n:] {
		darkCount += int(v & dark)
	}
	total := n * n
	score += 10 * (abs(darkCount*20-total*10) / total)
	return score
}

// lineScore is the run and finder-like penalty of the n modules of one
// row or column, starting at index start, step apart.
func lineScore(mod []byte, start, step, n int) int {
	score, run, prev, window := 0, 0, byte(2), 0
	for i, p := 0, start; i < n; i, p = i+1, p+step {
		d := mod[p] & dark
		if d == prev {
			run++
		} else {
			if run >= 5 {
				score += run - 2
			}
			run, prev = 1, d
		}
		window = (window<<1 | int(d)) & 0x7FF
		if i >= 6 && (window == finderThenLight || window == lightThenFinder) {
			score += 40
		}
	}
	if run >= 5 {
		score += run - 2
	}
	for i := 0; i < 4; i++ { // the quiet zone after the line is light
		window = window << 1 & 0x7FF
		if n+i >= 6 && window == finderThenLight {
			score += 40
		}
	}
	return score
}
