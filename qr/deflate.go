package qr

import (
	"container/heap"
	"encoding/binary"
	"errors"
	"sync"
)

// This file writes the zlib stream of a QR image's pixel rows (RFC 1950,
// RFC 1951) without a general-purpose compressor. A QR image is made of
// few distinct rows: every pixel row of a module row repeats the first, and
// PNG's "Up" filter turns a repeat into a filter byte and zeros. So the
// stream is one dynamic-Huffman block whose codes are computed once per
// image geometry (edge length and version) from the byte values that
// geometry can produce; each image then costs a table lookup per byte of
// its distinct rows and a few matches per run of repeats.

// Deflate's length and distance codes (RFC 1951 §3.2.5).
var (
	lengthBase  = [29]int{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lengthExtra = [29]uint{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	distBase    = [30]int{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	distExtra   = [30]uint{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
	// The order in which the code-length code's lengths are sent.
	clenOrder = [19]int{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}
)

const (
	maxMatch  = 258
	endOfData = 256
	adlerMod  = 65521
)

// lengthCodes maps a match length (3 to 258) to its length code.
var lengthCodes = func() (t [maxMatch + 1]uint8) {
	for l := 3; l <= maxMatch; l++ {
		for c := range lengthBase {
			if lengthBase[c] <= l {
				t[l] = uint8(c)
			}
		}
	}
	return
}()

func lengthCode(l int) int { return int(lengthCodes[l]) }

func distCode(d int) int {
	c := 0
	for c+1 < len(distBase) && distBase[c+1] <= d {
		c++
	}
	return c
}

// hcode is a Huffman code ready for deflate's LSB-first bit order.
type hcode struct {
	bits uint64 // the code with its bits reversed
	n    uint
}

// bitWriter packs deflate's bits, least significant first.
type bitWriter struct {
	out []byte
	acc uint64
	n   uint
}

// put appends the low n bits of v; n is at most 32.
func (w *bitWriter) put(v uint64, n uint) {
	w.acc |= v << w.n
	w.n += n
	if w.n >= 32 {
		w.out = binary.LittleEndian.AppendUint32(w.out, uint32(w.acc))
		w.acc >>= 32
		w.n -= 32
	}
}

func (w *bitWriter) code(c hcode) { w.put(c.bits, c.n) }

// flush writes the bits left, the last byte padded with zeros.
func (w *bitWriter) flush() {
	for w.n > 0 {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
		w.n = uint(max(int(w.n)-8, 0))
	}
	w.acc, w.n = 0, 0
}

// pngPlan is what every image of one edge length and version shares: the
// pixel geometry, the Huffman codes and the block header sent with them.
type pngPlan struct {
	size, scale, quiet, modules int
	stride                      int // bytes of packed pixels per row
	white                       []byte
	quads                       []quad // the module columns four by four
	lit                         [286]hcode
	dist                        [30]hcode
	upDist                      int // the distance of a whole filtered row
	upDistCode                  int
	header                      bitWriter
}

// quad is how four adjacent module columns draw into a pixel row: for
// each of their 16 dark/light patterns, the bits to clear in the bytes
// from first on (width bytes per pattern).
type quad struct {
	first, width int
	clear        []byte
}

var pngPlans sync.Map // [4]int{size, scale, off, modules} → *pngPlan

// planFor returns the plan of a size×size image of a symbol of the given
// module count, scale and quiet offset. Plans are kept: codes are
// rendered at fixed sizes (DefaultSize), so there are at most 40 per size.
func planFor(size, scale, off, modules int) *pngPlan {
	key := [4]int{size, scale, off, modules}
	if p, ok := pngPlans.Load(key); ok {
		return p.(*pngPlan)
	}
	p := newPlan(size, scale, off, modules)
	pngPlans.Store(key, p)
	return p
}

func newPlan(size, scale, off, modules int) *pngPlan {
	p := &pngPlan{size: size, scale: scale, quiet: off + 4*scale, modules: modules, stride: (size + 7) / 8}
	p.upDist = p.stride + 1
	p.upDistCode = distCode(p.upDist)
	p.white = make([]byte, p.stride)
	for i := range p.white {
		p.white[i] = 0xFF
	}
	for x0 := 0; x0 < modules; x0 += 4 {
		x1 := min(x0+4, modules)
		first := (p.quiet + x0*scale) >> 3
		q := quad{first: first, width: (p.quiet+x1*scale-1)>>3 - first + 1}
		q.clear = make([]byte, 16*q.width)
		for pattern := range 16 {
			for x := x0; x < x1; x++ {
				if pattern>>(x-x0)&1 == 0 {
					continue
				}
				for px := p.quiet + x*scale; px < p.quiet+(x+1)*scale; px++ {
					q.clear[pattern*q.width+px>>3-first] |= 0x80 >> (px & 7)
				}
			}
		}
		p.quads = append(p.quads, q)
	}

	// Symbol frequencies as an image of this geometry uses them: every
	// distinct row (one per module row, about) sends a filter byte and
	// stride bytes, each byte any combination of the modules it covers;
	// every run of repeated rows sends a "2", a 0, a short match and
	// matches of whole rows.
	var litFreq [286]int
	var distFreq [30]int
	rows := modules + 2
	for i := 0; i < p.stride; i++ {
		var cover []int // the modules byte i shows, one per pixel bit
		for b := 0; b < 8; b++ {
			px := i*8 + b
			x := -1
			if px >= p.quiet && px < p.quiet+modules*scale {
				x = (px - p.quiet) / scale
			}
			cover = append(cover, x)
		}
		var distinct []int
		for _, x := range cover {
			if x >= 0 && (len(distinct) == 0 || distinct[len(distinct)-1] != x) {
				distinct = append(distinct, x)
			}
		}
		k := len(distinct)
		for c := 0; c < 1<<k; c++ {
			v := byte(0xFF)
			for b, x := range cover {
				for j, d := range distinct {
					if d == x && c>>j&1 != 0 {
						v &^= 0x80 >> b
					}
				}
			}
			litFreq[v] += rows << (8 - k)
		}
	}
	litFreq[0] += 2 * rows << 8 // filter "None", and the first zero of an "Up" row
	litFreq[2] += rows << 8     // filter "Up"
	for c := range lengthBase {
		litFreq[257+c] += rows << 2 // any tail of a run of rows
	}
	litFreq[257+lengthCode(p.stride-1)] += rows << 8
	litFreq[257+lengthCode(maxMatch)] += rows << 8
	litFreq[endOfData] = 1
	distFreq[0] = rows << 8
	distFreq[distCode(p.upDist)] += rows << 8

	litLens := huffmanLengths(litFreq[:], 15)
	distLens := huffmanLengths(distFreq[:], 15)
	canonical(litLens, p.lit[:])
	canonical(distLens, p.dist[:])
	p.header = dynamicHeader(litLens, distLens)
	return p
}

// dynamicHeader is the start of a final dynamic-Huffman block with the
// given code lengths (RFC 1951 §3.2.7), the lengths run-length coded.
func dynamicHeader(litLens, distLens []uint8) bitWriter {
	hlit, hdist := 257, 1
	for i, l := range litLens {
		if l > 0 {
			hlit = max(hlit, i+1)
		}
	}
	for i, l := range distLens {
		if l > 0 {
			hdist = max(hdist, i+1)
		}
	}
	all := append(append([]uint8(nil), litLens[:hlit]...), distLens[:hdist]...)
	type rl struct {
		sym   int
		extra uint64
		n     uint
	}
	var seq []rl
	for i := 0; i < len(all); {
		v, run := all[i], 1
		for i+run < len(all) && all[i+run] == v {
			run++
		}
		i += run
		if v == 0 {
			for run >= 11 {
				r := min(run, 138)
				seq = append(seq, rl{18, uint64(r - 11), 7})
				run -= r
			}
			if run >= 3 {
				seq = append(seq, rl{17, uint64(run - 3), 3})
				run = 0
			}
		} else {
			seq = append(seq, rl{int(v), 0, 0})
			run--
			for run >= 3 {
				r := min(run, 6)
				seq = append(seq, rl{16, uint64(r - 3), 2})
				run -= r
			}
		}
		for ; run > 0; run-- {
			seq = append(seq, rl{int(v), 0, 0})
		}
	}
	var clenFreq [19]int
	for _, s := range seq {
		clenFreq[s.sym]++
	}
	clenLens := huffmanLengths(clenFreq[:], 7)
	var clen [19]hcode
	canonical(clenLens, clen[:])
	hclen := 4
	for i, s := range clenOrder {
		if clenLens[s] > 0 {
			hclen = max(hclen, i+1)
		}
	}

	var w bitWriter
	w.put(1, 1) // final block
	w.put(2, 2) // dynamic Huffman codes
	w.put(uint64(hlit-257), 5)
	w.put(uint64(hdist-1), 5)
	w.put(uint64(hclen-4), 4)
	for _, s := range clenOrder[:hclen] {
		w.put(uint64(clenLens[s]), 3)
	}
	for _, s := range seq {
		w.code(clen[s.sym])
		if s.n > 0 {
			w.put(s.extra, s.n)
		}
	}
	return w
}

// huffmanLengths returns the code lengths of a Huffman code for freq (zero
// for unused symbols), none longer than limit: where the optimal code is
// deeper, the frequencies are flattened until it is not. At least two
// symbols get a code, so that the code is complete.
func huffmanLengths(freq []int, limit int) []uint8 {
	f := append([]int(nil), freq...)
	used := 0
	for _, v := range f {
		if v > 0 {
			used++
		}
	}
	for i := 0; used < 2; i++ {
		if f[i] == 0 {
			f[i] = 1
			used++
		}
	}
	for {
		lens := huffmanDepths(f)
		deepest := uint8(0)
		for _, l := range lens {
			deepest = max(deepest, l)
		}
		if int(deepest) <= limit {
			return lens
		}
		for i, v := range f {
			if v > 0 {
				f[i] = v/2 + 1
			}
		}
	}
}

type hnode struct {
	weight      int
	left, right int // children, -1 for a leaf
	sym         int
}

type nodeHeap struct {
	nodes []hnode
	idx   []int
}

func (h *nodeHeap) Len() int           { return len(h.idx) }
func (h *nodeHeap) Less(i, j int) bool { return h.nodes[h.idx[i]].weight < h.nodes[h.idx[j]].weight }
func (h *nodeHeap) Swap(i, j int)      { h.idx[i], h.idx[j] = h.idx[j], h.idx[i] }
func (h *nodeHeap) Push(x any)         { h.idx = append(h.idx, x.(int)) }
func (h *nodeHeap) Pop() any {
	x := h.idx[len(h.idx)-1]
	h.idx = h.idx[:len(h.idx)-1]
	return x
}

// huffmanDepths is the depth of every used symbol in a Huffman tree of f.
func huffmanDepths(f []int) []uint8 {
	h := &nodeHeap{}
	for s, v := range f {
		if v > 0 {
			h.nodes = append(h.nodes, hnode{v, -1, -1, s})
			h.idx = append(h.idx, len(h.nodes)-1)
		}
	}
	heap.Init(h)
	for h.Len() > 1 {
		a, b := heap.Pop(h).(int), heap.Pop(h).(int)
		h.nodes = append(h.nodes, hnode{h.nodes[a].weight + h.nodes[b].weight, a, b, -1})
		heap.Push(h, len(h.nodes)-1)
	}
	lens := make([]uint8, len(f))
	var walk func(n int, depth uint8)
	walk = func(n int, depth uint8) {
		if h.nodes[n].left < 0 {
			lens[h.nodes[n].sym] = depth
			return
		}
		walk(h.nodes[n].left, depth+1)
		walk(h.nodes[n].right, depth+1)
	}
	walk(h.idx[0], 0)
	return lens
}

// canonical assigns deflate's canonical codes to lens (RFC 1951 §3.2.2).
func canonical(lens []uint8, out []hcode) {
	var count [16]int
	for _, l := range lens {
		count[l]++
	}
	count[0] = 0
	var next [16]int
	code := 0
	for bits := 1; bits < 16; bits++ {
		code = (code + count[bits-1]) << 1
		next[bits] = code
	}
	for s, l := range lens {
		if l == 0 {
			continue
		}
		c := next[l]
		next[l]++
		rev := uint64(0)
		for i := uint8(0); i < l; i++ {
			rev = rev<<1 | uint64(c>>i&1)
		}
		out[s] = hcode{rev, uint(l)}
	}
}

var errNoCode = errors.New("qr: a pixel byte has no code in the image's table")

// zlibRows returns the zlib stream of s's pixel rows as p lays them out.
func (p *pngPlan) zlibRows(dst []byte, s *symbol) ([]byte, error) {
	w := p.header
	w.out = append(dst, 0x78, 0x01) // deflate, 32 KiB window, no dictionary
	w.out = append(w.out, p.header.out...)
	a, b := uint64(1), uint64(0) // Adler-32
	line := make([]byte, p.stride)
	prev := make([]byte, p.stride)
	up := 0 // repeated rows not yet sent
	flushUp := func() {
		if up == 0 {
			return
		}
		// The first as a literal "2", a literal 0 and a match of the
		// zeros before (a symbol's image is at least 29 pixels wide, so
		// the match is at least 3 long); the rest as copies of the row
		// before them.
		w.code(p.lit[2])
		w.code(p.lit[0])
		p.match(&w, p.stride-1, 1)
		for rest := (up - 1) * p.upDist; rest > 0; {
			n := min(rest, maxMatch)
			if rest-n > 0 && rest-n < 3 {
				n = rest - 3
			}
			p.match(&w, n, p.upDist)
			rest -= n
		}
		for range up {
			a = (a + 2) % adlerMod
			b = (b + a*uint64(p.upDist)) % adlerMod
		}
		up = 0
	}
	lastKey := -2
	for y := 0; y < p.size; y++ {
		key := -1 // white
		if y >= p.quiet && y < p.quiet+p.modules*p.scale {
			key = (y - p.quiet) / p.scale
		}
		if key == lastKey {
			up++
			continue
		}
		lastKey = key
		copy(line, p.white)
		if key >= 0 {
			for i, q := range p.quads {
				pattern := 0
				if s.rows != nil {
					pattern = int(s.rows[key] >> (4 * i) & 0xF)
				} else {
					row := s.mod[key*s.size : (key+1)*s.size]
					for j, v := range row[4*i : min(4*i+4, len(row))] {
						pattern |= int(v&dark) << j
					}
				}
				if pattern == 0 {
					continue
				}
				for k, c := range q.clear[pattern*q.width : (pattern+1)*q.width] {
					line[q.first+k] &^= c
				}
			}
		}
		if y > 0 && string(line) == string(prev) {
			up++
			continue
		}
		flushUp()
		w.code(p.lit[0])
		b = (b + a) % adlerMod // the filter byte adds 0 to a
		for _, v := range line {
			c := p.lit[v]
			if c.n == 0 {
				return nil, errNoCode
			}
			w.code(c)
			a += uint64(v)
			b += a
		}
		a %= adlerMod
		b %= adlerMod
		line, prev = prev, line
	}
	flushUp()
	w.code(p.lit[endOfData])
	w.flush()
	return binary.BigEndian.AppendUint32(w.out, uint32(b<<16|a)), nil
}

// match sends a copy of n bytes from dist back; dist is 1 or p.upDist.
func (p *pngPlan) match(w *bitWriter, n, dist int) {
	lc := lengthCode(n)
	w.code(p.lit[257+lc])
	if e := lengthExtra[lc]; e > 0 {
		w.put(uint64(n-lengthBase[lc]), e)
	}
	dc := 0
	if dist == p.upDist {
		dc = p.upDistCode
	}
	w.code(p.dist[dc])
	if e := distExtra[dc]; e > 0 {
		w.put(uint64(dist-distBase[dc]), e)
	}
}
