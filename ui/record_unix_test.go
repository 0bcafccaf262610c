//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package ui

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"poolroids/game"
	"poolroids/game/scores"
)

// TestSaveDoesNotStopTheGame: the save of a finished game waits, here on
// another process's lock of the score file (over SSH it may wait on a
// database's retries), and the game steps on meanwhile; the score is
// saved once the lock is free.
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
	d := newDrawn(t, "UTF-8", 100, 30, Options{Seed: 7, Scores: store, Player: "ann"})
	d.key(tcell.KeyEnter, 0)
	played := make(chan struct{})
	go func() {
		defer close(played)
		for i := 0; d.s.game.Phase() == modePlay && i < 600*game.TPS; i++ {
			d.key(tcell.KeyRune, ' ')
			if i%30 == 0 {
				d.key(tcell.KeyRune, 'h') // jumping often loses every ship soon
			}
			d.s.tick()
		}
		for range game.TPS { // a second after the end
			d.s.tick()
		}
	}()
	select {
	case <-played:
	case <-time.After(20 * time.Second):
		t.Fatal("the game stopped stepping: it waits for its save")
	}
	if d.s.game.Phase() == modePlay {
		t.Fatal("the game never ended")
	}
	lock.Close()     // frees the lock
	d.s.game.Close() // waits for the save
	again, err := scores.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if top := again.Top(1); len(top) != 1 || top[0].Name != "ann" {
		t.Errorf("the file holds %+v, want ann's game", top)
	}
}
