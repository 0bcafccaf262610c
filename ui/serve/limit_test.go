package serve

import (
	"net"
	"net/netip"
	"testing"
	"time"
)

func TestLimiter(t *testing.T) {
	t0 := time.Unix(1000, 0)
	l := newLimiter(0.5, 3, 4) // a token every 2 s, bursts of 3, 4 addresses
	a := netip.MustParsePrefix("192.0.2.1/32")
	b := netip.MustParsePrefix("192.0.2.2/32")
	steps := []struct {
		at   time.Duration
		k    netip.Prefix
		want bool
	}{
		{0, a, true}, {0, a, true}, {0, a, true},
		{0, a, false},               // burst spent
		{0, b, true},                // another address has its own
		{time.Second, a, false},     // half a token
		{2 * time.Second, a, true},  // one token back
		{2 * time.Second, a, false}, // and spent
		// A minute refills far more than the burst, which is the cap.
		{time.Minute, a, true}, {time.Minute, a, true}, {time.Minute, a, true},
		{time.Minute, a, false},
	}
	for i, s := range steps {
		if got := l.allow(s.k, t0.Add(s.at)); got != s.want {
			t.Errorf("step %d (%v, %v): allow = %v, want %v", i, s.at, s.k, got, s.want)
		}
	}

	// The table stays bounded however many addresses come, and addresses
	// still draining keep their bucket while there is room.
	for i := range 100 {
		k := netip.PrefixFrom(netip.AddrFrom4([4]byte{198, 51, 100, byte(i)}), 32)
		l.allow(k, t0.Add(time.Minute))
		if len(l.m) > 4 {
			t.Fatalf("table grew to %d addresses, bound 4", len(l.m))
		}
	}
}

func TestLimiterKey(t *testing.T) {
	tests := []struct {
		addr string
		want string
	}{
		{"127.0.0.1:2222", "127.0.0.1/32"},
		{"[::ffff:127.0.0.1]:2222", "127.0.0.1/32"},
		{"[2001:db8:1:2:3:4:5:6]:2222", "2001:db8:1:2::/64"},
		{"[::1]:22", "::/64"},
	}
	for _, tt := range tests {
		addr, err := net.ResolveTCPAddr("tcp", tt.addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := key(addr).String(); got != tt.want {
			t.Errorf("key(%s) = %s, want %s", tt.addr, got, tt.want)
		}
	}
}
