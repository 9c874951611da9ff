package qr

import (
	"crypto/subtle"
	"sync"
)

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
