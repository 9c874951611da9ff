package webhook

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
)

// Webhook URLs are chosen by merchants, so in production the sender must not
// become a way into the operator's own network. The scheme is checked before
// a request is made; the address is checked in the dialer's Control hook,
// after DNS resolution and for every address tried, so a name that resolves
// to a public address when the URL is saved and to a private one at delivery
// time (DNS rebinding) is refused too. Proxies from the environment are not
// used: they would dial on the sender's behalf, past this check.

// CheckURL validates a webhook URL for the mode: absolute, http or https
// (https only in production), with a host; in production a literal IP host
// must also be public. Names are checked when they are dialled.
func CheckURL(raw string, sandbox bool) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("webhook: URL %q: %w", raw, err)
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && sandbox:
	case u.Scheme == "http":
		return fmt.Errorf("webhook: URL %q must use https", raw)
	default:
		return fmt.Errorf("webhook: URL %q must be http or https", raw)
	}
	if u.Hostname() == "" {
		return fmt.Errorf("webhook: URL %q has no host", raw)
	}
	if !sandbox {
		if ip, err := netip.ParseAddr(strings.Trim(u.Hostname(), "[]")); err == nil {
			if why := notPublic(ip); why != "" {
				return fmt.Errorf("webhook: URL %q points to a %s address", raw, why)
			}
		}
	}
	return nil
}

// dialControl refuses connections to addresses that are not public.
func dialControl(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("webhook: dial %s: %w", address, err)
	}
	if why := notPublic(ap.Addr()); why != "" {
		return fmt.Errorf("webhook: refusing to connect to %s (%s address)", ap.Addr(), why)
	}
	return nil
}

// Ranges that are neither loopback, private, link-local, multicast nor
// unspecified by netip's predicates but still do not reach the public
// internet, or embed an IPv4 address that might not.
var reserved = []struct {
	p   netip.Prefix
	why string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "this-network"},
	{netip.MustParsePrefix("100.64.0.0/10"), "shared (carrier NAT)"},
	{netip.MustParsePrefix("192.0.0.0/24"), "IETF protocol"},
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},
	{netip.MustParsePrefix("64:ff9b::/96"), "NAT64"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "NAT64"},
	{netip.MustParsePrefix("2002::/16"), "6to4"},
	{netip.MustParsePrefix("2001::/32"), "Teredo"},
	{netip.MustParsePrefix("100::/64"), "discard"},
	// Deprecated, but still routed inside some networks or tunnelled to
	// the embedded IPv4 address.
	{netip.MustParsePrefix("fec0::/10"), "site-local"},
	{netip.MustParsePrefix("::/96"), "IPv4-compatible"},
}

// notPublic names the kind of a non-public address, or returns "".
func notPublic(ip netip.Addr) string {
	ip = ip.Unmap() // ::ffff:10.0.0.1 is 10.0.0.1
	switch {
	case !ip.IsValid():
		return "invalid"
	case ip.IsUnspecified():
		return "unspecified"
	case ip.IsLoopback():
		return "loopback"
	case ip.IsPrivate():
		return "private"
	case ip.IsLinkLocalUnicast():
		return "link-local"
	case ip.IsMulticast(), ip.IsLinkLocalMulticast(), ip.IsInterfaceLocalMulticast():
		return "multicast"
	case ip == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		return "broadcast"
	}
	for _, r := range reserved {
		if r.p.Contains(ip) {
			return r.why
		}
	}
	return ""
}

// dialer is the net.Dialer of the delivery transport.
func dialer(sandbox bool) *net.Dialer {
	d := &net.Dialer{} // the request's context bounds the dial
	if !sandbox {
		d.Control = dialControl
	}
	return d
}
