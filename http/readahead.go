package http

import (
	"bytes"
	"io"
	"net/http"
)

// readAhead reads a request's body before the request is admitted. A
// client that sends its body slowly then waits on its own connection (up
// to the listener's read timeout) and holds no place among the requests in
// progress, nor a CPU slot: otherwise a few dozen slow clients could fill
// the in-flight limit and have everyone else refused for as long as they
// keep sending. The body is bounded by MaxBodyBytes; a longer one keeps its
// rest unread, for readBody to refuse as too large. It returns what it
// read (admission names a write by it).
func (s *server) readAhead(r *http.Request) []byte {
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength > s.cfg.MaxBodyBytes {
		return nil // nothing to read, or refused by its length unread (readBody)
	}
	s.reading.Add(1)
	data, err := io.ReadAll(io.LimitReader(r.Body, s.cfg.MaxBodyBytes+1))
	s.reading.Add(-1)
	var body io.Reader = bytes.NewReader(data)
	switch {
	case err != nil:
		body = io.MultiReader(body, errReader{err}) // reported where the body is read
	case int64(len(data)) > s.cfg.MaxBodyBytes:
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
