package replay

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"poolroids/game"
)

// Ghost is the ship of a recorded solo game flying beside a live one: its
// replay re-played step for step in a world of its own, with pools of its
// own, which nothing of the live game touches and which touches nothing of
// it. A front end draws [Ghost.Ship] and [Ghost.Name] when
// [Ghost.Visible]; nothing of its world collides with anything.
//
// A [Recorder] with a ghost ([Recorder.SetGhost]) steps it with every step
// it records and writes it into the file, so that a [Watch] of the file
// shows it again ([Watch.Ghost]); a Ghost may also be stepped by hand. When
// its replay ends (the recorded game was over, or left) the ghost vanishes:
// Visible is false from then on, and its world stays as the replay left it.
// A Ghost is not safe for concurrent use.
type Ghost struct {
	p    *Player
	name string
	done bool  // its replay ended, or stopped at a mismatch
	err  error // the mismatch, if any
}

// NewGhost starts the replay in data as a ghost, at step 0. The file must
// be a solo game's (one ship slot); ghosts of its own are not shown. It
// checks the whole file first (see [Decode]) and keeps data, which must not
// change meanwhile.
func NewGhost(data []byte) (*Ghost, error) {
	p, err := NewPlayer(data, "")
	if err != nil {
		return nil, err
	}
	if n := p.File().Ships; n != 1 {
		return nil, fmt.Errorf("replay: a ghost is a solo game's replay, not one of %d ship slots", n)
	}
	g := &Ghost{p: p}
	if h := p.File(); len(h.Players) > 0 {
		g.name = h.Players[0]
	}
	return g, nil
}

// Step plays one step of the ghost's replay, checking its checksums as a
// [Player] does; after its last step it ends the ghost, and then does
// nothing. A replay that plays another game on this build ends it too,
// with [Ghost.Err]. It allocates nothing; its cost is that of a step of
// the ghost's world, and of reading a byte now and then.
func (g *Ghost) Step() {
	if g.done {
		return
	}
	if err := g.p.Step(); err != nil {
		g.done = true
		if !errors.Is(err, io.EOF) {
			g.err = err
		}
	}
}

// catchUp plays until the ghost has played step steps, or has ended.
func (g *Ghost) catchUp(step uint64) {
	for !g.done && g.p.Steps() < step {
		g.Step()
	}
}

// Steps returns the steps the ghost has played.
func (g *Ghost) Steps() uint64 { return g.p.Steps() }

// Len returns the steps of the ghost's replay.
func (g *Ghost) Len() uint64 { return g.p.File().Steps }

// Name returns the name of the ghost's player, as its replay holds it;
// "" when the replay names none.
func (g *Ghost) Name() string { return g.name }

// Ship returns the ghost's ship: position, velocity, heading, alive and
// thrusting. It allocates nothing.
func (g *Ghost) Ship() game.Ship { return g.p.World().Ship() }

// Player returns the ghost's player as its world has it: ship, phase,
// score, lives. It allocates nothing.
func (g *Ghost) Player() game.Player { return g.p.World().Player(0) }

// Visible reports whether the ghost's ship flies: its replay has not ended
// and the ship is in the field (not waiting to respawn).
func (g *Ghost) Visible() bool { return !g.done && g.p.World().Ship().Alive }

// Done reports whether the ghost's replay has ended, or stopped at a
// mismatch.
func (g *Ghost) Done() bool { return g.done }

// Err returns the mismatch that ended the ghost early: its replay plays
// another game on this build. It is nil otherwise.
func (g *Ghost) Err() error { return g.err }

// World returns the ghost's world, for reading: its pools are its own, for
// a panel to show beside the player's.
func (g *Ghost) World() *game.World { return g.p.World() }

// ghosts are the ghosts a file brings, by number (1-based), and the one
// flying. A ghost is built on its first flight and steps only while it
// flies: shown again, it catches up with the game's step first, so a
// ghost always flies at the step of the game it flies beside.
type ghosts struct {
	files [][]byte
	built []*Ghost // by number less one; nil until first flown
	shown int      // the number of the ghost flying; 0: none
}

// current returns the ghost flying, or nil.
func (gs *ghosts) current() *Ghost {
	if gs.shown == 0 || gs.shown > len(gs.built) {
		return nil
	}
	return gs.built[gs.shown-1]
}

// show makes ghost k fly (0: none), played up to step. It returns the
// error of a ghost whose replay could not start; none flies then.
func (gs *ghosts) show(k int, step uint64) error {
	gs.shown = k
	if k == 0 {
		return nil
	}
	for len(gs.built) < len(gs.files) {
		gs.built = append(gs.built, nil)
	}
	g := gs.built[k-1]
	if g == nil {
		var err error
		if g, err = NewGhost(gs.files[k-1]); err != nil {
			gs.shown = 0
			return err
		}
		gs.built[k-1] = g
	}
	g.catchUp(step)
	return nil
}

// step steps the ghost flying, if any.
func (gs *ghosts) step() {
	if g := gs.current(); g != nil {
		g.Step()
	}
}

// number returns the number of the ghost whose replay is file, or 0.
func (gs *ghosts) number(file []byte) int {
	for i, f := range gs.files {
		if bytes.Equal(f, file) {
			return i + 1
		}
	}
	return 0
}

// ghostFile returns the replay in data as a file carries a ghost: checked,
// a solo game's, without the ghost ops of its own (ghosts do not nest), in
// a slice of its own, and no larger than MaxGhost.
func ghostFile(data []byte) ([]byte, error) {
	r, err := NewReader(data)
	if err != nil {
		return nil, err
	}
	if n := r.Header().Ships; n != 1 {
		return nil, fmt.Errorf("replay: a ghost is a solo game's replay, not one of %d ship slots", n)
	}
	out := make([]byte, 0, len(data))
	from := 0
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if ev.Kind == SetGhost {
			out = append(out, data[from:ev.Offset]...)
			from = r.Offset()
		}
	}
	out = append(out, data[from:]...)
	if len(out) > MaxGhost {
		return nil, fmt.Errorf("replay: a ghost's replay of %d bytes, allowed up to %d", len(out), MaxGhost)
	}
	return out, nil
}
