package qr

import (
	"math/bits"
)

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
