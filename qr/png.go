package qr

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"sync"
)

// writePNG writes s as a 1-bit greyscale PNG of size×size pixels, each
// module scale×scale pixels at offset off from the top left, quiet zone
// and margin white. Pixel rows are packed eight to a byte straight from the
// modules; every repeated row of a module row is sent with PNG's "Up"
// filter, which makes it all zeros, so deflate has almost nothing to do.
func writePNG(buf *bytes.Buffer, s *symbol, size, scale, off int) error {
	buf.Write([]byte("\x89PNG\r\n\x1a\n"))
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(size))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(size))
	ihdr[8] = 1 // bit depth; colour type 0 (greyscale), deflate, no interlace
	writeChunk(buf, "IHDR", ihdr[:])

	z := deflaters.Get().(*deflater)
	defer deflaters.Put(z)
	z.out.Reset()
	z.w.Reset(&z.out)

	stride := (size + 7) / 8
	if cap(z.row) < 1+stride {
		z.row = make([]byte, 1+stride)
	}
	line := z.row[:1+stride]
	up := z.up[:0]
	up = append(up, 2) // filter "Up"
	up = append(up, make([]byte, stride)...)
	z.up = up

	white := func() {
		line[0] = 0
		for i := 1; i < len(line); i++ {
			line[i] = 0xFF
		}
	}
	white()
	quiet := off + 4*scale // the symbol's first dark-capable pixel
	rows := 0
	emit := func(b []byte) error {
		rows++
		_, err := z.w.Write(b)
		return err
	}
	// Top margin and quiet zone: one white row, then copies.
	if err := emit(line); err != nil {
		return err
	}
	for rows < quiet {
		if err := emit(up); err != nil {
			return err
		}
	}
	for y := 0; y < s.size; y++ {
		white()
		for x := 0; x < s.size; x++ {
			if !s.Dark(x, y) {
				continue
			}
			for px := quiet + x*scale; px < quiet+(x+1)*scale; px++ {
				line[1+px>>3] &^= 0x80 >> (px & 7)
			}
		}
		if err := emit(line); err != nil {
			return err
		}
		for i := 1; i < scale; i++ {
			if err := emit(up); err != nil {
				return err
			}
		}
	}
	white()
	if rows < size {
		if err := emit(line); err != nil {
			return err
		}
	}
	for rows < size {
		if err := emit(up); err != nil {
			return err
		}
	}
	if err := z.w.Close(); err != nil {
		return err
	}
	writeChunk(buf, "IDAT", z.out.Bytes())
	writeChunk(buf, "IEND", nil)
	return nil
}

// deflater is a reusable zlib writer with its output buffer and row
// scratch space; a fresh compressor per image costs more than the image.
type deflater struct {
	w   *zlib.Writer
	out bytes.Buffer
	row []byte
	up  []byte
}

var deflaters = sync.Pool{New: func() any {
	d := &deflater{}
	d.w, _ = zlib.NewWriterLevel(&d.out, zlib.BestSpeed)
	return d
}}

func writeChunk(buf *bytes.Buffer, kind string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	buf.Write(n[:])
	start := buf.Len()
	buf.WriteString(kind)
	buf.Write(data)
	crc := crc32.ChecksumIEEE(buf.Bytes()[start:])
	binary.BigEndian.PutUint32(n[:], crc)
	buf.Write(n[:])
}
