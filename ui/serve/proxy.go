package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
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

// proxied serves nc, a connection to a listener that takes PROXY headers
// from Config.ProxyFrom. The limits come first, before anything is read:
// a connection from any other address is its own client, counted and
// limited as accept does, and must open without a header (a client could
// otherwise pick its address and dodge every per-address limit); a
// balancer's counts among the starting connections (MaxStartups) before
// its header, and against the client's address, once the header names it,
// for the rest. The header must come within LoginTimeout of the accept,
// which bounds the login too. It is read on the connection's own
// goroutine, so that a slow one holds up no other. A balancer's health
// check, which relays no client, is closed without a refusal.
func (s *Server) proxied(nc net.Conn) {
	raw := nc.RemoteAddr()
	trusted := s.trusted(raw)
	k, policy := key(raw), proxyproto.REJECT
	if trusted {
		k, policy = netip.Prefix{}, proxyproto.REQUIRE
	}
	seat := s.admit(nc, k)
	if seat == nil {
		return
	}
	accepted := time.Now()
	pc := proxyproto.NewConn(nc, proxyproto.WithPolicy(policy), proxyproto.SetReadHeaderTimeout(0))
	s.start(pc, seat, func() {
		if s.readHeader(pc, seat, trusted, accepted) {
			s.accepted()
			s.serveConn(pc, seat, nil, accepted)
			return
		}
		s.untrack(pc, seat)
	})
}

// readHeader reads pc's PROXY header, or makes sure there is none, and
// for a balancer's connection counts it against the client's address; it
// reports whether pc may go on to its login. Shutdown waits for no
// header.
func (s *Server) readHeader(pc *proxyproto.Conn, seat *seat, trusted bool, accepted time.Time) bool {
	raw := pc.Raw().RemoteAddr()
	_ = pc.Raw().SetReadDeadline(accepted.Add(s.cfg.LoginTimeout))
	stop := context.AfterFunc(s.base, func() { pc.Close() })
	// A zero-length Read reads the header, or fails for want of one.
	_, err := pc.Read(nil)
	stop()
	if local := err == nil && pc.ProxyHeader() != nil && pc.ProxyHeader().Command.IsLocal(); local ||
		trusted && errors.Is(err, proxyproto.ErrNoProxyProtocol) && hungUp(pc.Raw()) {
		// A balancer's health check: a header that relays no one (LOCAL,
		// HAProxy's send-proxy-v2 check) or none at all, then goodbye. No
		// client, so no refusal.
		s.log.Debug("health check", "addr", raw.String())
		return false
	}
	if err != nil {
		reason := reasonBadHeader
		switch {
		case !trusted && errors.Is(err, os.ErrDeadlineExceeded):
			// A client that never spoke: its login timed out.
			s.log.Debug("handshake failed", "addr", raw.String(), "err", err)
			return false
		case errors.Is(err, proxyproto.ErrNoProxyProtocol), errors.Is(err, os.ErrDeadlineExceeded):
			reason = reasonNoProxyHeader
		case errors.Is(err, proxyproto.ErrSuperfluousProxyHeader):
			reason = reasonUntrusted
		}
		s.refusals.note(s.log, key(raw), reason, "addr", raw.String(), "err", err)
		return false
	}
	if !trusted {
		return true
	}
	client := pc.RemoteAddr()
	k := key(client)
	reason := ""
	switch {
	case s.limit != nil && !s.limit.allow(k, time.Now()):
		reason = reasonRate
	default:
		reason = seat.settle(k)
	}
	if reason != "" {
		s.refusals.note(s.log, k, reason, "addr", client.String(), "balancer", raw.String())
		return false
	}
	return true
}

// hungUp reports whether c's peer has closed it: a balancer's plain TCP
// health check connects and hangs up without a byte.
func hungUp(c net.Conn) bool {
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Millisecond))
	var b [1]byte
	_, err := c.Read(b[:])
	return errors.Is(err, io.EOF)
}

// trusted reports whether addr is a balancer's, of Config.ProxyFrom.
func (s *Server) trusted(addr net.Addr) bool {
	ap, err := netip.ParseAddrPort(addr.String())
	return err == nil && slices.ContainsFunc(s.cfg.ProxyFrom, func(p netip.Prefix) bool { return p.Contains(ap.Addr().Unmap()) })
}
