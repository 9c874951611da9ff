package sign

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
)

// ParseJSONObject decodes a JSON object body into Params, keeping number
// literals exactly as sent. It refuses anything but a single object, and
// duplicate top-level keys, which would let a signature cover one value while
// the server acted on another.
//
// Every request body passes here, so a well-formed body takes one decode of
// the whole object, and a count of its members shows that no key came
// twice (the map would hold fewer); anything else is parsed again token by
// token (parseJSONTokens), which names what is wrong.
func ParseJSONObject(body []byte) (Params, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var p Params
	if err := dec.Decode(&p); err != nil || p == nil {
		return parseJSONTokens(body)
	}
	if _, err := dec.Token(); err != io.EOF || members(body) != len(p) {
		return parseJSONTokens(body)
	}
	return p, nil
}

// members counts the members of body, a well-formed JSON object: the
// commas outside strings at its top level, plus one unless it is empty.
func members(body []byte) int {
	depth, commas, empty := 0, 0, true
	inString, escaped := false, false
	for _, c := range body {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
			if depth == 1 {
				empty = false // a key: an empty object holds no string
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case ',':
			if depth == 1 {
				commas++
			}
		}
	}
	if empty {
		return 0
	}
	return commas + 1
}

// parseJSONTokens is ParseJSONObject one token at a time: slower, and
// exact about what is wrong with a body.
func parseJSONTokens(body []byte) (Params, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("body is not valid JSON: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("body must be a JSON object")
	}
	p := Params{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("body is not valid JSON: %w", err)
		}
		key := tok.(string) // object keys are always strings
		if _, dup := p[key]; dup {
			return nil, fmt.Errorf("field %q appears more than once", key)
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("body is not valid JSON: %w", err)
		}
		p[key] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("body is not valid JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("body holds more than one JSON value")
	}
	return p, nil
}

// FromQuery turns query parameters into Params. A parameter given more than
// once is refused: its signed text would be ambiguous.
func FromQuery(q url.Values) (Params, error) {
	p := make(Params, len(q))
	for k, vs := range q {
		if len(vs) != 1 {
			return nil, fmt.Errorf("query parameter %q appears more than once", k)
		}
		p[k] = vs[0]
	}
	return p, nil
}

// FromValue turns any JSON-marshalable value into Params the way the server
// will see it after decoding, so clients sign exactly what they send.
func FromValue(v any) (Params, []byte, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, nil, err
	}
	p, err := ParseJSONObject(body)
	return p, body, err
}
