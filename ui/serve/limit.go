package serve

import (
	"net"
	"net/netip"
	"sync"
	"time"
)

// limiter is a token bucket per client address: each connection takes a
// token, tokens come back at rate per second up to burst. IPv6 clients are
// limited per /64, the block one subscriber usually gets.
//
// The table holds at most max addresses. A bucket that has refilled is the
// same as no bucket, so those go first when it is full; if every bucket is
// still draining, an arbitrary one is dropped (its address gets a fresh
// burst: the price of bounded memory against many addresses).
type limiter struct {
	rate  float64 // tokens per second
	burst float64
	max   int

	mu sync.Mutex
	m  map[netip.Prefix]bucket
}

type bucket struct {
	tokens float64
	at     time.Time // when tokens was computed
}

func newLimiter(perSecond float64, burst, max int) *limiter {
	return &limiter{rate: perSecond, burst: float64(burst), max: max, m: make(map[netip.Prefix]bucket)}
}

// key is the address a connection from addr counts against.
func key(addr net.Addr) netip.Prefix {
	ap, err := netip.ParseAddrPort(addr.String())
	if err != nil {
		return netip.Prefix{}
	}
	ip := ap.Addr().Unmap()
	bits := 32
	if ip.Is6() {
		bits = 64
	}
	p, _ := ip.Prefix(bits)
	return p
}

// allow takes a token for k at now; false means over the limit.
func (l *limiter) allow(k netip.Prefix, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.m[k]
	if !ok {
		if len(l.m) >= l.max {
			l.evict(now)
		}
		b = bucket{tokens: l.burst, at: now}
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.at).Seconds()*l.rate)
	b.at = now
	if b.tokens < 1 {
		l.m[k] = b
		return false
	}
	b.tokens--
	l.m[k] = b
	return true
}

// evict makes room for one more address.
func (l *limiter) evict(now time.Time) {
	for k, b := range l.m {
		if b.tokens+now.Sub(b.at).Seconds()*l.rate >= l.burst {
			delete(l.m, k)
		}
	}
	for k := range l.m {
		if len(l.m) < l.max {
			return
		}
		delete(l.m, k)
	}
}
