package cashier

import "context"

type requestIDKey struct{}

// WithRequestID returns ctx carrying the id of the HTTP request it serves,
// so every log line written for the request can name it.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestID is the request id ctx carries, "" when none.
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}
