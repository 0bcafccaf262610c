package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/pires/go-proxyproto"
)

// Refusals of a connection for its PROXY protocol header; they are the
// log's reasons.
const (
	reasonNoProxyHeader = "no proxy header from a balancer"
	reasonUntrusted     = "proxy header from an untrusted address"
	reasonBadHeader     = "bad proxy header"
)

// ParsePrefixes parses a comma-separated list of CIDR prefixes and bare
// addresses ("10.0.0.0/8,192.168.1.7"), as [Config.ProxyFrom] takes them. A
// bare address is a prefix of its full length.
func ParsePrefixes(s string) ([]netip.Prefix, error) {
	var list []netip.Prefix
	for f := range strings.SplitSeq(s, ",") {
		f = strings.TrimSpace(f)
		p, err := netip.ParsePrefix(f)
		if err != nil {
			a, aerr := netip.ParseAddr(f)
			if aerr != nil {
				return nil, fmt.Errorf("%q: want an address or a CIDR prefix such as 10.0.0.0/8", f)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		list = append(list, p.Masked())
	}
	return list, nil
}

// hungUp reports whether c's peer has closed it: a balancer's plain TCP
// health check connects and hangs up without a byte.
func hungUp(c net.Conn) bool {
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Millisecond))
	var b [1]byte
	_, err := c.Read(b[:])
	return errors.Is(err, io.EOF)
}

// proxyPolicy trusts the balancers of cfg.ProxyFrom only: a connection
// from them must open with a header, v1 or v2, whose source address it then
// reports; one from any other address must not (a client could otherwise
// pick its address and dodge every per-address limit), and is served as it
// comes.
func proxyPolicy(trusted []netip.Prefix) proxyproto.ConnPolicyFunc {
	return func(o proxyproto.ConnPolicyOptions) (proxyproto.Policy, error) {
		ap, err := netip.ParseAddrPort(o.Upstream.String())
		if err == nil && slices.ContainsFunc(trusted, func(p netip.Prefix) bool { return p.Contains(ap.Addr().Unmap()) }) {
			return proxyproto.REQUIRE, nil
		}
		return proxyproto.REJECT, nil
	}
}

// proxied reads the PROXY header of pc on a goroutine of its own, so that a
// client slow to send it cannot hold up the accept loop, then applies the
// connection limits to the address it gives. The header must come within
// LoginTimeout. Until then the connection is counted among the server's,
// for Shutdown, but not yet among any address's. A balancer's health
// check, which relays no client, is closed without a refusal.
func (s *Server) proxied(pc *proxyproto.Conn) {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		pc.Close()
		return
	}
	s.conns[pc] = struct{}{}
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		// Shutdown waits for no header; a zero-length Read reads it, or
		// fails for want of one.
		stop := context.AfterFunc(s.base, func() { pc.Close() })
		_, err := pc.Read(nil)
		stop()
		s.mu.Lock()
		delete(s.conns, pc)
		s.mu.Unlock()
		local := err == nil && pc.ProxyHeader() != nil && pc.ProxyHeader().Command.IsLocal()
		if err == nil && !local {
			s.accept(pc)
			return
		}
		raw := pc.Raw().RemoteAddr()
		if local || errors.Is(err, proxyproto.ErrNoProxyProtocol) && hungUp(pc.Raw()) {
			// A balancer's health check: a header that relays no one
			// (LOCAL, HAProxy's send-proxy-v2 check) or none at all, then
			// goodbye. No client, so no refusal.
			s.log.Debug("health check", "addr", raw.String())
			pc.Close()
			return
		}
		reason := reasonBadHeader
		switch {
		case errors.Is(err, proxyproto.ErrNoProxyProtocol):
			reason = reasonNoProxyHeader
		case errors.Is(err, proxyproto.ErrSuperfluousProxyHeader):
			reason = reasonUntrusted
		}
		s.refusals.note(s.log, key(raw), reason, "addr", raw.String(), "err", err)
		pc.Close()
	}()
}
