package qr

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
)

// writePNG writes s as a 1-bit greyscale PNG of size×size pixels, each
// module scale×scale pixels at offset off from the top left, quiet zone
// and margin white. Pixel rows are packed eight to a byte straight from the
// modules; every repeated row is sent with PNG's "Up" filter, and the
// compressed rows are written as deflate.go describes.
func writePNG(buf *bytes.Buffer, s *symbol, size, scale, off int) error {
	buf.Write([]byte("\x89PNG\r\n\x1a\n"))
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(size))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(size))
	ihdr[8] = 1 // bit depth; colour type 0 (greyscale), deflate, no interlace
	writeChunk(buf, "IHDR", ihdr[:])
	idat, err := planFor(size, scale, off, s.size).zlibRows(make([]byte, 0, 1024), s)
	if err != nil {
		return err
	}
	writeChunk(buf, "IDAT", idat)
	writeChunk(buf, "IEND", nil)
	return nil
}

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
