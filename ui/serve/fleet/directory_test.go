package fleet

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"poolroids/game/scores/pgtest"
)

// holdings is what a test member holds, changed as the test goes.
type holdings struct {
	mu    sync.Mutex
	rooms []Room
}

func (h *holdings) set(rooms ...Room) {
	h.mu.Lock()
	h.rooms = rooms
	h.mu.Unlock()
}

func (h *holdings) get(rooms []Room) []Room {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append(rooms, h.rooms...)
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

// waitRooms waits until d lists want (by name, member and players).
func waitRooms(t *testing.T, d *Directory, want ...Room) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !slices.Equal(d.Rooms(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("rooms %+v, want %+v", d.Rooms(), want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestDirectory: two members see each other's rooms and not their own; a
// name one holds cannot be claimed by the other; a member that closes
// leaves the other's list, and its names are free again.
func TestDirectory(t *testing.T) {
	pg := pgtest.Start(t)
	var ha, hb holdings
	a := openMember(t, pg.URL, "a:1", &ha)
	b := openMember(t, pg.URL, "b:1", &hb)
	defer b.Close()

	ctx := context.Background()
	if holder, err := a.Claim(ctx, "den"); err != nil || holder != "a:1" {
		t.Fatalf("a claims den: %q, %v", holder, err)
	}
	den := Room{Name: "den", Member: "a:1", Arena: true, Players: 1, Size: 4}
	solo := Room{Name: "zed", Member: "b:1", Players: 1, Watchers: 2}
	ha.set(den)
	hb.set(solo)
	waitRooms(t, b, den)
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
	pg := pgtest.Start(t)
	var ha, hb holdings
	a := openMember(t, pg.URL, "a:1", &ha)
	b := openMember(t, pg.URL, "b:1", &hb)
	defer b.Close()
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
	time.Sleep(500 * time.Millisecond) // five heartbeats
	pg.Start()
	b := openMember(t, pg.URL, "b:1", &hb)
	defer b.Close()
	waitRooms(t, b, den)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(log.String(), "fleet directory back") {
		if time.Now().After(deadline) {
			t.Fatalf("never logged the directory back:\n%s", log.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := strings.Count(log.String(), "unreachable"); n != 1 {
		t.Errorf("logged the directory unreachable %d times, want once:\n%s", n, log.String())
	}
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
