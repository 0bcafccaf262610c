//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package play

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"poolroids/game"
	"poolroids/game/scores"
)

// TestSaveDoesNotStopTheGame: the save of a finished game waits, here on
// another process's lock of the score file (over SSH it may wait on a
// database's retries), and the game steps on meanwhile, showing the game
// over as saving; the score is saved once the lock is free, and Close
// waits for it. The lock is a real one: no fake clock.
func TestSaveDoesNotStopTheGame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "scores.json")
	store, err := scores.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	lock, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	g, _ := newSolo(t, store)
	played := make(chan bool)
	go func() {
		ended := playOut(g)
		for range game.TPS { // a second after the end
			g.Step(game.Input{})
		}
		played <- ended
	}()
	select {
	case ended := <-played:
		if o := view(g).Over; !ended || !o.Saving {
			t.Fatalf("at the end: %+v, phase %v; want the game over, saving", o, g.Phase())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the game stopped stepping: it waits for its save")
	}
	lock.Close() // frees the lock
	g.Close()
	if o := view(g).Over; o.Saving || o.Rank != 1 {
		t.Errorf("once saved: %+v, want rank 1", o)
	}
	again, err := scores.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if top := again.Top(1); len(top) != 1 || top[0].Name != "ann" {
		t.Errorf("the file holds %+v, want ann's game", top)
	}
}
