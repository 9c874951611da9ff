package shed

import (
	"bytes"
	"io"
	"net/http"
	"sync/atomic"
)

// ReadAhead reads a request's body before the request is admitted. A
// client that sends its body slowly then waits on its own connection (up
// to the listener's read timeout) and holds no place among the requests in
// progress, nor a CPU slot: otherwise a few dozen slow clients could fill
// the in-flight limit and have everyone else refused for as long as they
// keep sending. The body is bounded by maxBytes (the server's MaxBodyBytes); a longer one keeps its
// rest unread, for the handler's body reader to refuse as too large. It counts the bodies being read in reading and returns what it
// read (admission names a write by it).
func ReadAhead(r *http.Request, maxBytes int64, reading *atomic.Int64) []byte {
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength > maxBytes {
		return nil // nothing to read, or refused by its length unread (readBody)
	}
	reading.Add(1)
	data, err := io.ReadAll(io.LimitReader(r.Body, maxBytes+1))
	reading.Add(-1)
	var body io.Reader = bytes.NewReader(data)
	switch {
	case err != nil:
		body = io.MultiReader(body, errReader{err}) // reported where the body is read
	case int64(len(data)) > maxBytes:
		body = io.MultiReader(body, r.Body)
	}
	r.Body = struct {
		io.Reader
		io.Closer
	}{body, r.Body}
	return data
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
