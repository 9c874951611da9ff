package http

import (
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/sign"
)

// call is what authentication hands a handler: the merchant (nil on public
// routes) and the request parameters exactly as they were verified.
type call struct {
	merchant *cashier.Merchant
	params   sign.Params
	signed   bool // the time and signature checked out, not just the key
}

// authenticate identifies the merchant and, on signed routes, verifies the
// request time and signature over the parsed parameters before anything
// else reads the request. Handlers decode only c.params, so what was
// verified is what is acted on.
func (s *server) authenticate(w http.ResponseWriter, r *http.Request, mode authMode) (*call, error) {
	c := &call{}
	if mode == authPublic {
		p, err := queryParams(r.URL.RawQuery)
		c.params = p
		return c, err
	}

	key := r.Header.Get(s.hdr.APIKey)
	if key == "" {
		return nil, cashier.Errorf(cashier.EAPIKeyRequired, "the %s header is required", s.hdr.APIKey)
	}
	m, err := s.store.MerchantByAPIKey(r.Context(), key)
	switch cashier.ErrorCode(err) {
	case "":
	case cashier.ENotFound, cashier.EUnauthorized:
		return nil, cashier.Errorf(cashier.EUnauthorized, "the API key in %s is not valid", s.hdr.APIKey)
	default:
		return nil, err
	}
	if m.Status != cashier.MerchantActive {
		return nil, cashier.Errorf(cashier.EUnauthorized, "the API key in %s is disabled", s.hdr.APIKey)
	}
	if !m.KeyValid(s.clock.Now()) {
		return nil, cashier.Errorf(cashier.EUnauthorized, "the API key in %s was replaced and its grace period ended", s.hdr.APIKey)
	}
	info(r).merchant = m.ID
	c.merchant = m

	if r.Method == http.MethodPost {
		body, err := s.readBody(w, r)
		if err != nil {
			return nil, err
		}
		p, err := sign.ParseJSONObject(body)
		if err != nil {
			return nil, cashier.Errorf(cashier.EInvalid, "request body must be one JSON object: %v", err)
		}
		c.params = p
	} else if c.params, err = queryParams(r.URL.RawQuery); err != nil {
		return nil, err
	}
	if mode == authKey && r.Header.Get(s.hdr.SignatureV2) == "" {
		// Key only: the key is public (widget URLs carry it), so this
		// proves nothing beyond knowing it; see keyOnlyChecks.
		return c, nil
	}

	ts := r.Header.Get(s.hdr.RequestTime)
	if err := s.cfg.Window.CheckTime(s.clock.Now(), ts, r.Header.Get(s.hdr.RecvWindow)); err != nil {
		return nil, cashier.Errorf(cashier.EStaleRequest, "%s", timeMessage(s.hdr, err))
	}
	sig := r.Header.Get(s.hdr.SignatureV2)
	if sig == "" {
		return nil, cashier.Errorf(cashier.EBadSignature, "the %s header is required", s.hdr.SignatureV2)
	}
	if err := sign.VerifyRequest(m.SecretKey, c.params, ts, sig, s.cfg.Encodings...); err != nil {
		if errors.Is(err, sign.ErrBadSignature) {
			return nil, cashier.Errorf(cashier.EBadSignature,
				"signature verification failed: %s must be the HMAC-SHA256 (lowercase hex, secret key) of the parameters sorted by key as key=value joined by & followed by &time=<%s>",
				s.hdr.SignatureV2, s.hdr.RequestTime)
		}
		return nil, cashier.Errorf(cashier.EInvalid, "%v", err)
	}
	if v, ok := c.params[sign.SignField]; ok && v != nil {
		bodySig, isString := v.(string)
		if !isString {
			return nil, cashier.Errorf(cashier.EInvalidType, "sign must be a JSON string")
		}
		if s.cfg.SignField != SignFieldIgnore && !sign.Equal(bodySig, sig) {
			return nil, cashier.Errorf(cashier.EBadSignature, "body field sign does not equal the %s header", s.hdr.SignatureV2)
		}
	}
	c.signed = true
	return c, nil
}

// timeMessage names the header and says exactly what is wrong with it.
func timeMessage(h sign.Headers, err error) string {
	switch {
	case errors.Is(err, sign.ErrTimeMissing):
		return fmt.Sprintf("the %s header is required (Unix milliseconds)", h.RequestTime)
	case errors.Is(err, sign.ErrTimeSeconds):
		return fmt.Sprintf("%s looks like Unix seconds; send Unix milliseconds", h.RequestTime)
	case errors.Is(err, sign.ErrWindowInvalid):
		return fmt.Sprintf("%s: %v", h.RecvWindow, err)
	}
	return fmt.Sprintf("%s: %v", h.RequestTime, err)
}

// readBody reads at most MaxBodyBytes of the body.
func (s *server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	tooLarge := cashier.Errorf(cashier.ETooLarge, "request body is larger than %d bytes", s.cfg.MaxBodyBytes)
	if r.ContentLength > s.cfg.MaxBodyBytes {
		return nil, tooLarge
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return nil, tooLarge
	case err != nil:
		return nil, cashier.Errorf(cashier.EInvalid, "reading the request body failed: %v", err)
	}
	// Reading waits on the client; computing on the body needs a CPU slot.
	if ri := info(r); ri != nil && ri.slot != nil {
		ri.slot.Take()
	}
	return body, nil
}
