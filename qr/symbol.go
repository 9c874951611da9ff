package qr

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
