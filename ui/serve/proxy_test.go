package serve

import (
	"context"
	"errors"
	"io"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/pires/go-proxyproto"
)

// balancerIP is the address the tests' balancer connects to the server
// from, the one the server trusts with PROXY headers.
const balancerIP = "127.0.0.2"

// startBalancer starts a TCP load balancer in front of ts, as HAProxy's
// send-proxy is: it relays each connection to ts from balancerIP, opened
// with a PROXY protocol header of version v (1 or 2) naming the client's
// address. It returns the balancer's address.
func startBalancer(t *testing.T, ts *testServer, v byte) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	relay := func(c net.Conn) {
		defer c.Close()
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(balancerIP)}}
		up, err := d.Dial("tcp", ts.addr)
		if err != nil {
			return
		}
		defer up.Close()
		if _, err := proxyproto.HeaderProxyFromAddrs(v, c.RemoteAddr(), c.LocalAddr()).WriteTo(up); err != nil {
			return
		}
		go func() {
			_, _ = io.Copy(up, c)
			_ = up.(*net.TCPConn).CloseWrite()
		}()
		_, _ = io.Copy(c, up)
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go relay(c)
		}
	}()
	return ln.Addr().String()
}

func proxyConfig() Config {
	return Config{ProxyFrom: []netip.Prefix{netip.MustParsePrefix(balancerIP + "/32")}, MaxPerAddress: 1}
}

// TestProxyProtocol: behind a balancer sending v1 or v2 headers, the
// server logs each client's own address and limits games per client, not
// per balancer: with one game an address, a second client address plays
// while the first's second game is refused.
func TestProxyProtocol(t *testing.T) {
	for _, v := range []byte{1, 2} {
		t.Run(map[byte]string{1: "v1", 2: "v2"}[v], func(t *testing.T) {
			ts := startServer(t, proxyConfig())
			bal := startBalancer(t, ts, v)
			login := func(ip string) *player {
				c, err := ts.dialVia(t, ip, bal)
				if err != nil {
					t.Fatalf("from %s through the balancer: %v", ip, err)
				}
				return play(t, c, ptyOpts{w: 80, h: 24})
			}
			login("127.0.0.10").waitScreen(t, "size 80x24")
			waitLog(t, ts, "msg=connect", "addr=127.0.0.10:")
			if p := login("127.0.0.10"); p.exit(t) != 1 || !strings.Contains(p.output(), "too many games from your address") {
				t.Errorf("a second game from 127.0.0.10 was not refused: %q", tail(p.output()))
			}
			login("127.0.0.11").waitScreen(t, "size 80x24")
			if n := ts.Sessions(); n != 2 {
				t.Errorf("%d games, want 2: one per client address", n)
			}
		})
	}
}

// TestProxyProtocolRefused: a balancer's connection without a header is
// refused, as is a header from any other address, whose connection without
// one is served; a balancer's connection that never sends its header does
// not hold up Shutdown.
func TestProxyProtocolRefused(t *testing.T) {
	ts := startServer(t, proxyConfig())
	if c, err := ts.dialFrom(t, balancerIP); err == nil {
		c.Close()
		t.Error("a connection from the balancer without a header was served")
	}
	waitLog(t, ts, "msg=rejected", `reason="no proxy header from a balancer"`, "addr="+balancerIP+":")

	nc, err := net.Dial("tcp", ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	h := proxyproto.HeaderProxyFromAddrs(1, &net.TCPAddr{IP: net.ParseIP("198.51.100.1"), Port: 1}, nc.RemoteAddr())
	if _, err := h.WriteTo(nc); err != nil {
		t.Fatal(err)
	}
	_ = nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	if b, err := io.ReadAll(nc); len(b) != 0 || err != nil {
		t.Errorf("a header from 127.0.0.1 got %q, %v; want the connection closed", b, err)
	}
	waitLog(t, ts, "msg=rejected", `reason="proxy header from an untrusted address"`, "addr=127.0.0.1:")
	if strings.Contains(ts.log.String(), "198.51.100.1") {
		t.Error("the untrusted header's address was believed")
	}

	direct, err := ts.dialFrom(t, "127.0.0.1")
	if err != nil {
		t.Fatalf("a direct connection without a header: %v", err)
	}
	direct.Close()
	conns := func() int {
		ts.mu.Lock()
		defer ts.mu.Unlock()
		return len(ts.conns)
	}
	waitUntil(t, func() bool { return conns() == 0 })

	silent, err := (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(balancerIP)}}).Dial("tcp", ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	waitUntil(t, func() bool { return conns() == 1 }) // accepted, waiting for its header
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := ts.Shutdown(ctx); err != nil {
		t.Errorf("Shutdown with a header unsent: %v", err)
	}
}

// TestProxyHealthCheck: a balancer's health checks, a connection closed
// without a byte or after a PROXY v2 header that relays no one (LOCAL,
// as HAProxy's send-proxy-v2 check sends), are no refusals and spend no
// rate limit: after twenty of them a client plays through the balancer.
func TestProxyHealthCheck(t *testing.T) {
	cfg := proxyConfig()
	cfg.ConnPerMinute = 1 // a burst of 10: the checks would exhaust it
	// Each check stays a starting connection for the 10 ms the server
	// takes to see it hang up: on a loaded machine more than 10 may be at
	// once, which MaxStartups' random early drop would refuse.
	cfg.MaxStartups = Startups{Start: 30, Rate: 30, Full: 100}
	ts := startServer(t, cfg)
	check := func(header bool) {
		t.Helper()
		c, err := (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(balancerIP)}}).Dial("tcp", ts.addr)
		if err != nil {
			t.Fatal(err)
		}
		if header {
			if _, err := proxyproto.HeaderProxyFromAddrs(2, nil, nil).WriteTo(c); err != nil {
				t.Fatal(err)
			}
		}
		c.Close()
	}
	for i := range 20 {
		check(i%2 == 1)
	}
	waitUntil(t, func() bool { return strings.Count(ts.log.String(), `msg="health check"`) == 20 })
	if got := strings.Count(ts.log.String(), `msg="health check"`); got != 20 {
		t.Errorf("%d health checks logged, want 20:\n%s", got, ts.log.String())
	}
	bal := startBalancer(t, ts, 2)
	c, err := ts.dialVia(t, "127.0.0.10", bal)
	if err != nil {
		t.Fatalf("a client after the checks: %v", err)
	}
	c.Close()
	if strings.Contains(ts.log.String(), "rejected") {
		t.Errorf("health checks were refused:\n%s", ts.log.String())
	}
}

// idleConns opens n connections to ts from the loopback address ip that
// send nothing.
func idleConns(t *testing.T, ts *testServer, ip string, n int) []net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	var conns []net.Conn
	for range n {
		c, err := d.Dial("tcp", ts.addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		conns = append(conns, c)
	}
	return conns
}

// cutWithin returns how many of conns the server closes within d.
func cutWithin(conns []net.Conn, d time.Duration) int {
	cut := make(chan bool, len(conns))
	deadline := time.Now().Add(d)
	for _, c := range conns {
		go func() {
			_ = c.SetReadDeadline(deadline)
			_, err := io.Copy(io.Discard, c)
			var ne net.Error
			cut <- !(errors.As(err, &ne) && ne.Timeout())
		}()
	}
	n := 0
	for range conns {
		if <-cut {
			n++
		}
	}
	return n
}

// TestProxyUnheaderedCounted: on a listener that takes PROXY headers,
// connections that send nothing count against the limits before their
// header is read: from an untrusted address against its own, from a
// balancer against MaxStartups; those over the limits are closed at once,
// not held for LoginTimeout each (3000 from one address were all held).
func TestProxyUnheaderedCounted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, from string
		cfg        func(*Config)
		held       int
	}{
		{"untrusted", "127.0.0.1", func(c *Config) {}, 4},                                                       // MaxStartupsPerAddress
		{"balancer", balancerIP, func(c *Config) { c.MaxStartups = Startups{Start: 6, Rate: 100, Full: 6} }, 6}, // MaxStartups
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := proxyConfig()
			tc.cfg(&cfg)
			ts := startServer(t, cfg)
			conns := idleConns(t, ts, tc.from, 3*tc.held)
			if n := cutWithin(conns, 2*time.Second); n != 2*tc.held {
				t.Errorf("%d of %d idle connections from %s closed within 2 s, want %d: the ones over the limit",
					n, len(conns), tc.from, 2*tc.held)
			}
		})
	}
}
