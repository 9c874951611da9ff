// Package webhook delivers the service's outbox events to merchants.
//
// An event's body is built once, when the order's status changes, by
// Writer and stored with the change in the same transaction. The
// Dispatcher then leases due events from the outbox, POSTs them signed
// with the merchant's webhook key, and records every attempt in the
// delivery log; a failed event is retried on a schedule that ends within
// 24 hours of its first attempt. Delivery is at least once: a receiver
// deduplicates on the event id, which never changes between attempts.
//
// docs/webhooks.md describes the wire format for receivers.
package webhook
