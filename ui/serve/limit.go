package serve

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"
)

// limiter is a token bucket per client address (or per any key K: a
// player's key for posts): each connection takes a token, tokens come
// back at rate per second up to burst. IPv6 clients are limited per /64,
// the block one subscriber usually gets.
//
// The table holds at most max keys. A bucket that has refilled is the
// same as no bucket, so those go first when it is full; if every bucket is
// still draining, an arbitrary one is dropped (its key gets a fresh
// burst: the price of bounded memory against many addresses).
type limiter[K comparable] struct {
	rate  float64 // tokens per second
	burst float64
	max   int

	mu sync.Mutex
	m  map[K]bucket
}

type bucket struct {
	tokens float64
	at     time.Time // when tokens was computed
}

func newLimiter[K comparable](perSecond float64, burst, max int) *limiter[K] {
	return &limiter[K]{rate: perSecond, burst: float64(burst), max: max, m: make(map[K]bucket)}
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
func (l *limiter[K]) allow(k K, now time.Time) bool {
	ok, _ := l.take(k, now)
	return ok
}

// take takes a token for k at now, or tells how long until there is one.
func (l *limiter[K]) take(k K, now time.Time) (ok bool, wait time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.m[k]
	if !ok && len(l.m) >= l.max {
		l.evict(now)
	}
	ok = b.take(now, l.rate, l.burst)
	l.m[k] = b
	if !ok {
		wait = time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
	}
	return ok, wait
}

// take takes a token at now, tokens coming back at rate per second up to
// burst; false means there was none. The zero bucket is full.
func (b *bucket) take(now time.Time, rate, burst float64) bool {
	if b.at.IsZero() {
		b.tokens = burst
	} else {
		b.tokens = min(burst, b.tokens+now.Sub(b.at).Seconds()*rate)
	}
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// evict makes room for one more key.
func (l *limiter[K]) evict(now time.Time) {
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

// Startups bounds the connections not yet playing, as OpenSSH's MaxStartups
// start:rate:full does: below Start of them every new one is let in; from
// Start on, a new one is dropped with probability Rate percent, rising
// linearly to 100 percent at Full. Random early drop keeps a flood from
// one place from shutting out every newcomer at once.
type Startups struct {
	Start, Rate, Full int
}

// drop reports whether a connection arriving while n others are starting
// is dropped, for a roll r uniform in [0, 100).
func (m Startups) drop(n, r int) bool {
	switch {
	case n < m.Start:
		return false
	case n >= m.Full:
		return true
	}
	p := m.Rate + (100-m.Rate)*(n-m.Start)/(m.Full-m.Start)
	return r < p
}

func (m Startups) String() string { return fmt.Sprintf("%d:%d:%d", m.Start, m.Rate, m.Full) }

// ParseStartups parses sshd's MaxStartups syntax: "start:rate:full", or
// "full" alone (no early drop).
func ParseStartups(s string) (Startups, error) {
	var m Startups
	f := strings.Split(s, ":")
	var err error
	switch len(f) {
	case 1:
		m.Full, err = strconv.Atoi(f[0])
		m.Start, m.Rate = m.Full, 100
	case 3:
		var e [3]error
		m.Start, e[0] = strconv.Atoi(f[0])
		m.Rate, e[1] = strconv.Atoi(f[1])
		m.Full, e[2] = strconv.Atoi(f[2])
		err = errors.Join(e[:]...)
	default:
		err = errors.New("want start:rate:full or full")
	}
	if err == nil {
		err = m.check()
	}
	if err != nil {
		return Startups{}, fmt.Errorf("max startups %q: %w", s, err)
	}
	return m, nil
}

func (m Startups) check() error {
	if m.Full < 1 || m.Start < 0 || m.Start > m.Full || m.Rate < 0 || m.Rate > 100 {
		return errors.New("want 0 <= start <= full, full >= 1 and rate 0..100")
	}
	return nil
}

// tally counts the connections of each address: those not yet in a
// session (handshake, login, or logged in and yet to start one), the
// sessions (in the lobby, watching or playing), and among those the games
// (playing: see Session.SetPlaying). An address is in the table only
// while it has a connection, so its size is bounded by the connections'
// limits.
type tally struct {
	startups    Startups
	startupsPer int // connections not yet in a session one address may have
	sessionsPer int // sessions one address may have
	gamesPer    int // games one address may play
	maxSessions int // sessions in all
	mu          sync.Mutex
	starting    int
	sessions    int
	addrs       map[netip.Prefix]*addrCount
	roll        func() int // uniform in [0, 100)
	// The endings of a session refused by a limit, which say which.
	full, busy *ending
}

type addrCount struct{ starting, sessions, games int }

func newTally(m Startups, startupsPer, sessionsPer, gamesPer, sessions int) *tally {
	return &tally{
		startups: m, startupsPer: startupsPer, sessionsPer: sessionsPer, gamesPer: gamesPer, maxSessions: sessions,
		addrs: make(map[netip.Prefix]*addrCount),
		roll:  func() int { return rand.IntN(100) },
		full:  &ending{reason: reasonFull, message: fmt.Sprintf("server full (%d at once), try later", sessions)},
		busy:  &ending{reason: reasonSessionsPer, message: fmt.Sprintf("too many sessions from your address (%d at once), try later", sessionsPer)},
	}
}

// Refusals of a connection, a session or a game by the limits; they are
// the log's reasons.
const (
	reasonRate        = "rate limit"
	reasonStartupsPer = "too many logins from one address"
	reasonStartups    = "too many logins"
	reasonFull        = "server full"
	reasonSessionsPer = "too many sessions from one address"
	reasonGamesPer    = "too many games from one address"
)

// admit counts a new connection from k as starting, or reports why not.
// The zero k is a connection whose address is not known yet (a
// balancer's, before its PROXY header): it counts among all, against no
// address until settle.
func (t *tally) admit(k netip.Prefix) (refused string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case k.IsValid() && !t.roomFor(k):
		return reasonStartupsPer
	case t.startups.drop(t.starting, t.roll()):
		return reasonStartups
	}
	if k.IsValid() {
		t.addr(k).starting++
	}
	t.starting++
	return ""
}

// settle counts a starting connection of no address yet as k's, or
// reports why not.
func (t *tally) settle(k netip.Prefix) (refused string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.roomFor(k) {
		return reasonStartupsPer
	}
	t.addr(k).starting++
	return ""
}

// roomFor reports whether k may have one more starting connection. The
// caller holds t.mu.
func (t *tally) roomFor(k netip.Prefix) bool {
	a := t.addrs[k]
	return a == nil || a.starting < t.startupsPer
}

// addr returns k's counts, making them. The caller holds t.mu.
func (t *tally) addr(k netip.Prefix) *addrCount {
	a := t.addrs[k]
	if a == nil {
		a = &addrCount{}
		t.addrs[k] = a
	}
	return a
}

// play turns one starting connection of k into a session, or tells why
// not (the connection then stays starting).
func (t *tally) play(k netip.Prefix) (refused *ending) {
	t.mu.Lock()
	defer t.mu.Unlock()
	a := t.addrs[k] // nil: a connection of no address
	switch {
	case a != nil && a.sessions >= t.sessionsPer:
		return t.busy
	case t.sessions >= t.maxSessions:
		return t.full
	}
	t.sessions++
	t.starting--
	if a != nil {
		a.sessions++
		a.starting--
	}
	return nil
}

// game counts a session of k as playing a game (on), or no longer; it
// reports false when k plays as many as it may.
func (t *tally) game(k netip.Prefix, on bool) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	a := t.addrs[k]
	switch {
	case a == nil:
	case !on:
		a.games--
	case a.games >= t.gamesPer:
		return false
	default:
		a.games++
	}
	return true
}

// done uncounts a connection of k that was starting, or a session.
func (t *tally) done(k netip.Prefix, session bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if session {
		t.sessions--
	} else {
		t.starting--
	}
	a := t.addrs[k]
	if a == nil {
		return // a connection of no address
	}
	if session {
		a.sessions--
	} else {
		a.starting--
	}
	if a.starting == 0 && a.sessions == 0 {
		delete(t.addrs, k)
	}
}

// count returns the number of sessions.
func (t *tally) count() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.sessions
}

// seat is one connection's place in the tally: starting, then perhaps a
// session, which may play a game now and then, then nothing.
type seat struct {
	t       *tally
	k       netip.Prefix
	mu      sync.Mutex
	at      int  // seatStarting, seatSession or seatGone
	playing bool // the session counts as a game
}

const (
	seatStarting = iota
	seatSession
	seatGone
)

// play takes a session for the connection, or tells why not.
func (s *seat) play() *ending {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.t.play(s.k); e != nil {
		return e
	}
	s.at = seatSession
	return nil
}

// game counts the session as playing a game, or no longer; it reports
// false when its address plays as many as it may. It does nothing to a
// seat that is no session.
func (s *seat) game(on bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.at != seatSession || s.playing == on {
		return true
	}
	if !s.t.game(s.k, on) {
		return false
	}
	s.playing = on
	return true
}

// settle gives a connection of no address yet (see tally.admit) the
// address k, or reports why k may not have it; it then stays of no
// address.
func (s *seat) settle(k netip.Prefix) (refused string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.at != seatStarting || s.k.IsValid() {
		return ""
	}
	if refused = s.t.settle(k); refused == "" {
		s.k = k
	}
	return refused
}

// leave gives back what the connection holds: its session, and game, when
// one ran, else its place among the starting. Later calls do nothing.
func (s *seat) leave() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.at == seatGone {
		return
	}
	if s.playing {
		s.t.game(s.k, false)
		s.playing = false
	}
	s.t.done(s.k, s.at == seatSession)
	s.at = seatGone
}
