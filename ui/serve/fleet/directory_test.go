package fleet

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"poolroids/game/scores/pgtest"
)

// holdings is what a test member holds, changed as the test goes.
type holdings struct {
	mu    sync.Mutex
	rooms []Room
	beats int // calls: the member asks at every heartbeat
}

func (h *holdings) set(rooms ...Room) {
	h.mu.Lock()
	h.rooms = rooms
	h.mu.Unlock()
}

func (h *holdings) get(rooms []Room) []Room {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.beats++
	return append(rooms, h.rooms...)
}

func (h *holdings) heartbeats() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.beats
}

func openMember(t *testing.T, url, hop string, h *holdings) *Directory {
	t.Helper()
	// A short heartbeat and TTL keep the expiry test short.
	d, err := Open(context.Background(), Config{URL: url, Hop: hop, Holdings: h.get, Heartbeat: 300 * time.Millisecond, TTL: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// eventually polls ok for up to 10 s and reports whether it came to hold.
// It is the package's one wait on the real clock: directories meet in a
// real PostgreSQL and relays over real TCP, so tests wait for what they
// can observe, never for a fixed time.
func eventually(ok func() bool) bool {
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// waitRooms waits until d lists want (by name, member and players).
func waitRooms(t *testing.T, d *Directory, want ...Room) {
	t.Helper()
	if !eventually(func() bool { return slices.Equal(d.Rooms(), want) }) {
		t.Fatalf("rooms %+v, want %+v", d.Rooms(), want)
	}
}

// twoMembers starts a PostgreSQL server and opens members a:1 and b:1 on
// it, holding what ha and hb hold; b is closed as the test ends.
func twoMembers(t *testing.T) (a, b *Directory, ha, hb *holdings) {
	t.Helper()
	pg := pgtest.Start(t)
	ha, hb = &holdings{}, &holdings{}
	a = openMember(t, pg.URL, "a:1", ha)
	b = openMember(t, pg.URL, "b:1", hb)
	t.Cleanup(b.Close)
	return a, b, ha, hb
}

// claimDen has a, whose holdings are ha, claim the arena den and list it,
// with a player, and waits until other lists it.
func claimDen(t *testing.T, a *Directory, ha *holdings, other *Directory) {
	t.Helper()
	if holder, err := a.Claim(context.Background(), "den"); err != nil || holder != a.cfg.Hop {
		t.Fatalf("%s claims den: %q, %v", a.cfg.Hop, holder, err)
	}
	den := Room{Name: "den", Member: a.cfg.Hop, Arena: true, Players: 1, Size: 4}
	ha.set(den)
	waitRooms(t, other, den)
}

// TestDirectory: two members see each other's rooms and not their own; a
// name one holds cannot be claimed by the other; a member that closes
// leaves the other's list, and its names are free again.
func TestDirectory(t *testing.T) {
	a, b, ha, hb := twoMembers(t)

	ctx := context.Background()
	claimDen(t, a, ha, b)
	solo := Room{Name: "zed", Member: "b:1", Players: 1, Watchers: 2}
	hb.set(solo)
	waitRooms(t, a, solo)
	if m, ok := b.Elsewhere("den"); !ok || m != "a:1" {
		t.Errorf("b: den elsewhere = %q, %v; want a:1", m, ok)
	}
	if _, ok := a.Elsewhere("den"); ok {
		t.Error("a: its own den is elsewhere")
	}
	if holder, err := b.Claim(ctx, "den"); err != nil || holder != "a:1" {
		t.Errorf("b claims a's den: %q, %v; want a:1", holder, err)
	}
	if holder, err := a.Claim(ctx, "zed"); err != nil || holder != "b:1" {
		t.Errorf("a claims b's zed: %q, %v; want b:1", holder, err)
	}

	a.Close()
	waitRooms(t, b)
	if holder, err := b.Claim(ctx, "den"); err != nil || holder != "b:1" {
		t.Errorf("b claims den once a is gone: %q, %v; want b:1", holder, err)
	}
}

// TestDirectoryExpiry: a member that stops beating without deregistering,
// as a killed server does, leaves the others' lists once its entry
// expires, and its names are free again.
func TestDirectoryExpiry(t *testing.T) {
	a, b, ha, _ := twoMembers(t)
	den := Room{Name: "den", Member: "a:1", Arena: true, Players: 2, Size: 4}
	ha.set(den)
	waitRooms(t, b, den)

	// Killed: no more heartbeats, no goodbye.
	a.stop()
	<-a.done
	a.pool.Close()
	start := time.Now()
	waitRooms(t, b)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("a left b's list after %v, want within TTL and a heartbeat", d)
	}
	if holder, err := b.Claim(context.Background(), "den"); err != nil || holder != "b:1" {
		t.Errorf("b claims the dead a's den: %q, %v; want b:1", holder, err)
	}
}

// TestDirectoryDatabaseLost: a member that loses the database says so
// once, not every heartbeat, and is listed again once it is back.
func TestDirectoryDatabaseLost(t *testing.T) {
	pg := pgtest.Start(t)
	var ha, hb holdings
	var log buffer
	a, err := Open(context.Background(), Config{URL: pg.URL, Hop: "a:1", Holdings: ha.get,
		Heartbeat: 100 * time.Millisecond, TTL: time.Second, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	den := Room{Name: "den", Member: "a:1", Arena: true, Players: 1, Size: 4}
	ha.set(den)

	pg.Stop()
	stopped := ha.heartbeats()
	if !eventually(func() bool { return ha.heartbeats() > stopped+5 }) { // five heartbeats done
		t.Fatal("a stopped beating without its database")
	}
	pg.Start()
	b := openMember(t, pg.URL, "b:1", &hb)
	defer b.Close()
	waitRooms(t, b, den)
	if !eventually(func() bool { return strings.Contains(log.String(), "fleet directory back") }) {
		t.Fatalf("never logged the directory back:\n%s", log.String())
	}
	if n := strings.Count(log.String(), "unreachable"); n != 1 {
		t.Errorf("logged the directory unreachable %d times, want once:\n%s", n, log.String())
	}
}

// TestDirectoryKey: a member whose key is not the live members' is
// refused at Open, naming both keys; one with theirs is let in; once they
// are gone, the fleet takes the next member's key.
func TestDirectoryKey(t *testing.T) {
	pg := pgtest.Start(t)
	open := func(hop, key string) (*Directory, error) {
		var h holdings
		return Open(context.Background(), Config{URL: pg.URL, Hop: hop, Key: key, Holdings: h.get, Heartbeat: 100 * time.Millisecond, TTL: time.Second})
	}
	a, err := open("a:1", "SHA256:aaa")
	if err != nil {
		t.Fatal(err)
	}
	_, err = open("b:1", "SHA256:bbb")
	if !errors.Is(err, ErrKeyMismatch) || !strings.Contains(err.Error(), "this server's is SHA256:bbb, the live member a:1's is SHA256:aaa") {
		t.Fatalf("a member with another key: %v", err)
	}
	c, err := open("c:1", "SHA256:aaa")
	if err != nil {
		t.Fatalf("a member with the fleet's key: %v", err)
	}
	if !eventually(func() bool { return c.Stats().Members == 2 }) {
		t.Errorf("c's stats: %+v, want 2 members", c.Stats())
	}
	a.Close()
	c.Close()
	b, err := open("b:1", "SHA256:bbb")
	if err != nil {
		t.Fatalf("the first member of a fleet with no live member: %v", err)
	}
	b.Close()
}

// TestDirectoryLost: a member that could not beat while its entry
// expired, whose room's name another member claimed meanwhile, learns at
// its next heartbeat that the name is the other's.
func TestDirectoryLost(t *testing.T) {
	a, b, ha, hb := twoMembers(t)
	ctx := context.Background()
	claimDen(t, a, ha, b)

	// a is cut off: its heartbeats stop, its entry expires.
	a.stop()
	<-a.done
	waitRooms(t, b)
	if holder, err := b.Claim(ctx, "den"); err != nil || holder != "b:1" {
		t.Fatalf("b claims den while a is away: %q, %v", holder, err)
	}
	hb.set(Room{Name: "den", Member: "b:1", Arena: true, Players: 2, Size: 4})
	// a is back, its den still open: the name stays b's, whose den a
	// lists once b has published it.
	if !eventually(func() bool {
		m, ok := a.Elsewhere("den")
		return a.beat(ctx) == nil && ok && m == "b:1"
	}) {
		t.Fatal("a never listed b's den")
	}
	if m, ok := a.Lost("den"); !ok || m != "b:1" {
		t.Errorf("a: den lost to %q, %v; want b:1", m, ok)
	}
	if _, ok := b.Lost("den"); ok {
		t.Error("b lost den, its own")
	}
	a.pool.Close()
}

// buffer is a strings.Builder that one goroutine writes and a test reads
// as it is written: a log, a relayed screen.
type buffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestDirectoryChecked: rows of the directory are read as a client's
// words: a room whose name is not a room's (an OSC sequence in one
// retitled a player's terminal), whose counts are no game's, or whose
// member's address is none a member dials (link-local, out of the
// fleet's network, no port) is left out of the lobbies, logged once; a
// claim answered with such a holder fails.
func TestDirectoryChecked(t *testing.T) {
	t.Parallel()
	pg := pgtest.Start(t)
	var ha holdings
	var log buffer
	a, err := Open(context.Background(), Config{URL: pg.URL, Hop: "127.0.0.1:2223", Holdings: ha.get,
		Heartbeat: 100 * time.Millisecond, TTL: time.Second, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	conn, err := pgx.Connect(context.Background(), pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	ctx := context.Background()
	for _, m := range []string{"127.0.0.2:2223", "169.254.169.254:80", "10.0.0.5:2223", "127.0.0.3:0", "evil host:22", "[ff02::1]:2223"} {
		if _, err := conn.Exec(ctx, `INSERT INTO poolroids_fleet_members (id, expires) VALUES ($1, now() + interval '1 hour')`, m); err != nil {
			t.Fatal(err)
		}
	}
	good := Room{Name: "den", Member: "127.0.0.2:2223", Arena: true, Players: 2, Size: 4, Watchers: 1}
	for _, r := range []Room{
		good,
		{Name: "\x1b]0;PWNED\x07x", Member: "127.0.0.2:2223", Players: 1},
		{Name: "Caps", Member: "127.0.0.2:2223", Players: 1},
		{Name: "crowd", Member: "127.0.0.2:2223", Arena: true, Players: 1000, Size: 1000},
		{Name: "spies", Member: "127.0.0.2:2223", Players: 1, Watchers: -1},
		{Name: "meta", Member: "169.254.169.254:80", Players: 1},
		{Name: "lan", Member: "10.0.0.5:2223", Players: 1},
		{Name: "zero", Member: "127.0.0.3:0", Players: 1},
		{Name: "blank", Member: "evil host:22", Players: 1},
		{Name: "group", Member: "[ff02::1]:2223", Players: 1},
	} {
		if _, err := conn.Exec(ctx, `INSERT INTO poolroids_fleet_rooms (name, member, arena, players, size, watchers) VALUES ($1, $2, $3, $4, $5, $6)`,
			r.Name, r.Member, r.Arena, r.Players, r.Size, r.Watchers); err != nil {
			t.Fatal(err)
		}
	}
	waitRooms(t, a, good)
	if _, err := a.Claim(ctx, "meta"); !errors.Is(err, errHolder) {
		t.Errorf("a claim of a name held at a link-local address: %v, want refused", err)
	}
	if !eventually(func() bool { return strings.Contains(log.String(), "rows left out") }) {
		t.Fatalf("the rows left out were never logged:\n%s", log.String())
	}
	if n := strings.Count(log.String(), "rows left out"); n != 1 {
		t.Errorf("logged %d times, want once:\n%s", n, log.String())
	}
}

// TestCheckHop: the addresses a member dials.
func TestCheckHop(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		hop, self string
		ok        bool
	}{
		{"127.0.0.2:2223", "127.0.0.1:2223", true},
		{"[::1]:2223", "127.0.0.1:2223", true},
		{"10.0.0.5:2223", "10.0.0.4:2223", true},
		{"[fd00::5]:2223", "10.0.0.4:2223", true},
		{"hop-b.internal:2223", "10.0.0.4:2223", true},
		{"10.0.0.5:2223", "hop-a.internal:2223", true},
		{"203.0.113.5:2223", "198.51.100.4:2223", true},
		{"10.0.0.5:2223", "127.0.0.1:2223", false},
		{"203.0.113.5:2223", "10.0.0.4:2223", false},
		{"127.0.0.1:2223", "10.0.0.4:2223", false},
		{"169.254.169.254:80", "hop-a.internal:2223", false},
		{"0.0.0.0:2223", "hop-a.internal:2223", false},
		{"224.0.0.1:2223", "hop-a.internal:2223", false},
		{"10.0.0.5", "10.0.0.4:2223", false},
		{"10.0.0.5:0", "10.0.0.4:2223", false},
		{"10.0.0.5:99999", "10.0.0.4:2223", false},
		{"10.0.0.5:ssh", "10.0.0.4:2223", false},
		{"-bad-.internal:2223", "10.0.0.4:2223", false},
		{"a\x1b]0;x\x07:2223", "10.0.0.4:2223", false},
	} {
		if err := checkHop(c.hop, c.self); (err == nil) != c.ok {
			t.Errorf("checkHop(%q, from %q) = %v, want ok %v", c.hop, c.self, err, c.ok)
		}
	}
}
