package replay

import (
	"context"
	"fmt"
	"io"

	"poolroids/game"
	"poolroids/pool"
)

// MismatchError is a replay that does not play the recorded game: the
// first recorded checksum that differs, or an event the world refused. The
// game first differed at a step after Matched and at or before Step.
type MismatchError struct {
	Step      uint64 // the step whose recorded checksum differs
	Matched   uint64 // the last step whose checksum still matched; 0 at the start
	Want, Got uint64 // the recorded checksum and the replayed one
	Event     string // an event the world refused, instead of a checksum
	Recorded  string // the build that recorded the file
	Replayed  string // the build replaying it
}

func (e *MismatchError) Error() string {
	var s string
	switch {
	case e.Event != "":
		s = fmt.Sprintf("step %d: the replay differs from the recording: %s", e.Step, e.Event)
	case e.Step == 0:
		s = fmt.Sprintf("step 0: the world built from the header is not the recorded one (checksum %016x, recorded %016x)", e.Got, e.Want)
	default:
		s = fmt.Sprintf("step %d: the replay differs from the recording (checksum %016x, recorded %016x); it matched at step %d", e.Step, e.Got, e.Want, e.Matched)
	}
	if e.Recorded != e.Replayed {
		s += fmt.Sprintf("; recorded by %s, replayed by %s", e.Recorded, e.Replayed)
	}
	return s
}

// Player drives a world from a replay file, checking every recorded
// checksum. It reads the file's ghost ops but plays no ghost (a [Watch]
// does), so checking a file costs the recorded game alone. It is not safe
// for concurrent use.
type Player struct {
	r       *Reader
	f       *File
	w       *game.World
	fixed   bool   // the pools keep one strategy: recorded switches are skipped
	left    int    // steps of the current Input or Run event still to play
	matched uint64 // the last step whose checksum matched
	done    bool
	ghosts  ghosts // the file's ghosts, and the one flying
	follow  bool   // the ghosts are played (a Watch's)
}

// NewPlayer checks the whole file (see [Decode]), builds the world its
// header describes and verifies the start checksum. With strategy "" the
// pools start with the recorded strategy and follow the recorded switches;
// otherwise they use strategy throughout. Either way the game is the same.
func NewPlayer(data []byte, strategy pool.Strategy) (*Player, error) {
	f, err := Decode(data)
	if err != nil {
		return nil, err
	}
	return newPlayer(f, data, strategy)
}

// newPlayer is NewPlayer for data already decoded into f.
func newPlayer(f *File, data []byte, strategy pool.Strategy) (*Player, error) {
	cfg := f.Config()
	if strategy != "" {
		cfg.Strategy = strategy
	}
	w, err := game.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	r, err := NewReader(data)
	if err != nil {
		return nil, err
	}
	p := &Player{r: r, f: f, w: w, fixed: strategy != ""}
	if got := w.Checksum(); got != f.Start {
		return nil, p.mismatch(0, f.Start, got)
	}
	return p, nil
}

// World returns the world being replayed, for reading. Switching its
// strategies between two steps is allowed and changes nothing in the game.
func (p *Player) World() *game.World { return p.w }

// Hold switches both pools to s and keeps them there: the recorded
// switches are skipped from now on. It changes nothing in the game.
func (p *Player) Hold(s pool.Strategy) error {
	if err := p.w.SetStrategy(s); err != nil {
		return err
	}
	p.fixed = true
	return nil
}

// File returns what the file holds: its header, steps and players.
func (p *Player) File() *File { return p.f }

// Steps returns the steps played so far.
func (p *Player) Steps() uint64 { return p.r.steps - uint64(p.left) }

// Step plays the events up to the next step and that step, then checks the
// checksum recorded after it, if any. It returns io.EOF when the file has
// no step left (after checking the final checksum), or a *MismatchError.
// It allocates nothing except for a joining player's name.
func (p *Player) Step() error {
	in, err := p.Next()
	if err != nil {
		return err
	}
	p.w.StepAll(in)
	if p.follow {
		p.ghosts.step()
	}
	if p.left == 0 && p.r.steps == p.r.due {
		return p.event() // the checksum op that must follow
	}
	return nil
}

// Next is Step for a caller that steps the world itself, as the stress
// mode does to time the step alone: it applies the events up to the next
// step, checking the checksums recorded after the steps before, and
// returns that step's input of every slot; the caller then steps the world
// once with it (World.StepAll), and only then calls Next again. The array
// is the Player's own. Next returns io.EOF after the last step's checksum
// matched, or a *MismatchError.
func (p *Player) Next() (*game.Inputs, error) {
	for p.left == 0 {
		if p.done {
			return nil, io.EOF
		}
		if err := p.event(); err != nil {
			return nil, err
		}
	}
	p.left--
	return &p.r.in, nil
}

// event applies the next event of the file.
func (p *Player) event() error {
	ev, err := p.r.Next()
	if err != nil {
		return err // Decode has seen the whole file, so this is not expected
	}
	switch ev.Kind {
	case Input, Run:
		p.left = ev.Steps
	case Join:
		if err := p.w.Join(ev.Slot); err != nil {
			return &MismatchError{Step: ev.Step, Matched: p.matched, Event: fmt.Sprintf("the world refused %s joining slot %d: %v", ev.Name, ev.Slot, err), Recorded: p.f.Build, Replayed: Build()}
		}
	case Leave:
		p.w.Leave(ev.Slot)
	case Switch:
		if !p.fixed {
			if err := p.w.SetStrategies(ev.Bullets, ev.Debris); err != nil {
				return err
			}
		}
	case Restart:
		p.w.Restart()
	case SetGhost:
		if ev.Data != nil {
			p.ghosts.files = append(p.ghosts.files, ev.Data)
		}
		p.ghosts.shown = ev.Ghost
		if p.follow {
			_ = p.ghosts.show(ev.Ghost, ev.Step) // a ghost that cannot start does not fly; the game plays on
		}
	case Checksum, End:
		if got := p.w.Checksum(); got != ev.Sum {
			return p.mismatch(ev.Step, ev.Sum, got)
		}
		p.matched = ev.Step
		p.done = ev.Kind == End
	}
	return nil
}

func (p *Player) mismatch(step, want, got uint64) *MismatchError {
	return &MismatchError{Step: step, Matched: p.matched, Want: want, Got: got, Recorded: p.f.Build, Replayed: Build()}
}

// Run plays the rest of the file, checking ctx between chunks of steps. It
// returns nil when every checksum matched to the end.
func (p *Player) Run(ctx context.Context) error {
	for i := 0; ; i++ {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		switch err := p.Step(); err {
		case nil:
		case io.EOF:
			return nil
		default:
			return err
		}
	}
}
