package replay

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"unicode"
	"unicode/utf8"

	"poolroids/game"
	"poolroids/levels"
	"poolroids/pool"
)

// Options tunes a [Recorder]. The zero Options records into memory with a
// checksum every [DefaultEvery] steps and no player named.
type Options struct {
	// Out receives the file as it is recorded, written by a goroutine of
	// the recorder every Every steps and at Close; nil keeps the file in
	// memory (see [Recorder.Bytes]).
	Out io.Writer
	// Players names the ships in play from the start, by slot: a solo
	// game's player. At most MaxName bytes each.
	Players []string
	// Every is the steps between two checksums, 1..MaxEvery; 0 means
	// DefaultEvery.
	Every int
}

// chunkSize is the capacity of each buffer a Recorder writing to Out
// fills: 256 steps of a solo game take at most 256 bytes and a checksum,
// and even sixteen ships changing keys every step stay within a few of
// them. memorySize is the first capacity of a file kept in memory, enough
// for a quarter of an hour of play by hand.
const (
	chunkSize  = 4 << 10
	chunks     = 3 // one filling, one being written, one spare
	memorySize = 16 << 10
)

// Recorder builds a world, steps it and records everything that decides
// its game. Use it in place of the world's own Step, Join, Leave,
// SetStrategies and Restart; read the world through [Recorder.World]. A
// Recorder is not safe for concurrent use; it and its world belong to one
// goroutine.
type Recorder struct {
	w     *game.World
	ships int
	every uint64
	steps uint64
	buf   []byte

	// What the file says so far: every slot's input, the slot input ops
	// address, and the input op and steps held back until the run they
	// start is known.
	in      game.Inputs
	slot    int
	pending bool // an input op for slot waits in held
	held    byte // its five input bits
	run     int  // steps played since the last op written

	ghosts ghosts // the ghosts the file brings, and the one flying

	out    io.Writer
	full   chan []byte // chunks for the writer
	free   chan []byte // chunks written, ready to be filled again
	done   chan error  // the writer's first error, when it stops
	closed bool
	err    error // of Close, returned again by later calls
}

// NewRecorder builds the world of cfg (as game.New does) and starts its
// recording: the header is written at once. The level set must pass
// levels.Set.Validate, as every set loaded from files does, and the pools
// may be no larger than a level set may ask for. With
// Options.Out the recorder starts its writer goroutine, which only
// [Recorder.Close] ends.
func NewRecorder(cfg game.Config, opt Options) (*Recorder, error) {
	every := opt.Every
	if every == 0 {
		every = DefaultEvery
	}
	if every < 1 || every > MaxEvery {
		return nil, fmt.Errorf("replay: a checksum every %d steps, allowed 1..%d", every, MaxEvery)
	}
	for _, p := range opt.Players {
		if err := checkName(p); err != nil {
			return nil, err
		}
	}
	if cfg.Bullets > levels.MaxBullets || cfg.Debris > levels.MaxDebris {
		return nil, fmt.Errorf("replay: pools of %d bullets and %d debris cannot be recorded, allowed up to %d and %d",
			cfg.Bullets, cfg.Debris, levels.MaxBullets, levels.MaxDebris)
	}
	w, err := game.New(cfg)
	if err != nil {
		return nil, err
	}
	ships := w.Ships()
	if len(opt.Players) > ships {
		return nil, fmt.Errorf("replay: %d players named for %d ship slots", len(opt.Players), ships)
	}
	set := w.LevelSet()
	if err := set.Validate(); err != nil {
		return nil, fmt.Errorf("replay: level set %q cannot be recorded: %w", set.Name, err)
	}
	h := &Header{
		Build:    Build(),
		Seed:     w.Seed(),
		Mode:     w.Mode(),
		Ships:    ships,
		Strategy: w.Bullets().Strategy(),
		Bullets:  w.Bullets().Cap(),
		Debris:   w.Debris().Cap(),
		Every:    every,
		Levels:   set,
		Players:  opt.Players,
		Start:    w.Checksum(),
	}
	r := &Recorder{w: w, ships: ships, every: uint64(every), out: opt.Out}
	if r.out == nil {
		r.buf = make([]byte, 0, memorySize)
	} else {
		r.full = make(chan []byte, chunks)
		r.free = make(chan []byte, chunks)
		r.done = make(chan error, 1)
		for range chunks - 1 {
			r.free <- make([]byte, 0, chunkSize)
		}
		r.buf = make([]byte, 0, chunkSize)
		go r.write()
	}
	r.buf = appendHeader(r.buf, h)
	return r, nil
}

// FitName cuts a player's name to what a file holds: printable UTF-8 (an
// invalid byte becomes U+FFFD, an unprintable rune is left out) of at most
// MaxName bytes, cut between runes.
func FitName(name string) string {
	if len(name) <= MaxName && printable(name) {
		return name
	}
	b := make([]byte, 0, MaxName)
	for _, r := range name {
		if !unicode.IsPrint(r) {
			continue
		}
		if len(b)+utf8.RuneLen(r) > MaxName {
			break
		}
		b = utf8.AppendRune(b, r)
	}
	return string(b)
}

func checkName(p string) error {
	if len(p) > MaxName || !printable(p) {
		return fmt.Errorf("replay: player name %q: want at most %d bytes of printable UTF-8", p, MaxName)
	}
	return nil
}

// World returns the recorded world, for reading. Pausing it, or switching
// its strategies directly (not recorded then), changes nothing in the
// game; changing it in any other way than through the Recorder makes the
// recording replay another game.
func (r *Recorder) World() *game.World { return r.w }

// Steps returns the steps recorded.
func (r *Recorder) Steps() uint64 { return r.steps }

// Step plays one step of the world with every slot's input in, and records
// it (the inputs of the world's slots: Config.Ships of them). A step the world does not take (it is paused) is not recorded. It
// allocates nothing in steady state: its cost beyond the world's step is a
// comparison of the inputs, a byte now and then, and every Every steps a
// checksum and a hand-over to the writer.
func (r *Recorder) Step(in *game.Inputs) {
	before := r.w.Steps()
	r.w.StepAll(in)
	if r.w.Steps() == before || r.closed {
		return
	}
	last := -1
	for s := range r.ships { // the world reads no other slot
		if in[s] != r.in[s] {
			last = s
		}
	}
	if last >= 0 {
		r.flush()
		for s := range last + 1 {
			if in[s] == r.in[s] {
				continue
			}
			if s != r.slot {
				r.buf = append(r.buf, opSlot+byte(s))
				r.slot = s
			}
			r.in[s] = in[s]
			if s == last {
				r.pending, r.held = true, encodeInput(in[s])
			} else {
				r.buf = append(r.buf, encodeInput(in[s]))
			}
		}
	}
	r.run++
	r.steps++
	r.ghosts.step()
	if r.steps%r.every == 0 {
		r.flush()
		r.buf = append(r.buf, opChecksum)
		r.buf = appendSum(r.buf, r.w.Checksum())
		r.handOver()
	}
}

// flush writes the held input op and the steps played since.
func (r *Recorder) flush() {
	r.buf = r.appendHeld(r.buf)
	r.pending, r.run = false, 0
}

// appendHeld appends the held input op and the steps played since to b.
func (r *Recorder) appendHeld(b []byte) []byte {
	run := r.run
	if r.pending {
		n := min(run, maxInputRun)
		b = append(b, r.held|byte(n)<<inputRunBits)
		run -= n
	}
	switch {
	case run <= 0:
	case run <= maxShortRun:
		b = append(b, opRun+byte(run-1))
	default:
		b = append(b, opLongRun)
		b = binary.AppendUvarint(b, uint64(run-64))
	}
	return b
}

// appendEnd appends what Close ends the file with to b.
func (r *Recorder) appendEnd(b []byte) []byte {
	b = r.appendHeld(b)
	b = append(b, opEnd)
	b = binary.AppendUvarint(b, r.steps)
	return appendSum(b, r.w.Checksum())
}

// Snapshot returns a copy of the file recorded so far, ended as Close
// would end it now, so that it replays and checks to this step; the
// recording goes on. It allocates the copy and only reads the recorder and
// its world, so several goroutines may call it at once while none steps
// it. With Options.Out it returns nil.
func (r *Recorder) Snapshot() []byte {
	if r.out != nil {
		return nil
	}
	if r.closed {
		return append([]byte(nil), r.buf...)
	}
	return r.appendEnd(append(make([]byte, 0, len(r.buf)+32), r.buf...))
}

// Join brings a ship named name into slot, as World.Join, and records it.
// What the world refuses is returned and not recorded.
func (r *Recorder) Join(slot int, name string) error {
	if r.closed {
		return errClosed
	}
	if err := checkName(name); err != nil {
		return err
	}
	if err := r.w.Join(slot); err != nil {
		return err
	}
	r.op(opJoin)
	r.buf = binary.AppendUvarint(r.buf, uint64(slot))
	r.buf = appendString(r.buf, name)
	return nil
}

// Leave takes the ship of slot out, as World.Leave, and records it. A slot
// out of range is ignored.
func (r *Recorder) Leave(slot int) {
	if slot < 0 || slot >= r.ships {
		return
	}
	r.w.Leave(slot)
	if r.op(opLeave) {
		r.buf = binary.AppendUvarint(r.buf, uint64(slot))
	}
}

// SetStrategies switches the pools as World.SetStrategies ("" keeps that
// pool's strategy) and records it. What the world refuses is returned and
// not recorded.
func (r *Recorder) SetStrategies(bullets, debris pool.Strategy) error {
	if r.closed {
		return errClosed
	}
	if err := r.w.SetStrategies(bullets, debris); err != nil {
		return err
	}
	r.op(opSwitch)
	r.buf = appendString(r.buf, string(bullets))
	r.buf = appendString(r.buf, string(debris))
	return nil
}

// SetGhost makes the ship of the solo game replayed by data fly beside the
// recorded game from the next step on, at the recording's step (a ghost
// set at step 1000 flies as its replay stood after step 1000), and records
// it: the file carries the ghost's replay once, however often it flies, so
// that it replays with its ghost. Recorder.Step then steps the ghost with
// every step it records; [Recorder.Ghost] reads it. nil makes no ghost fly.
//
// The replay must be a solo game's; its own ghosts are left out of the
// copy the file carries, which may be at most MaxGhost bytes, and a file
// carries at most MaxGhosts of them. A ghost first set late, or set again
// after others flew, first plays the steps it missed, as fast as the game
// steps, before SetGhost returns. What is refused is returned and not
// recorded.
func (r *Recorder) SetGhost(data []byte) error {
	if r.closed {
		return errClosed
	}
	k, added := 0, false
	if data != nil {
		file, err := ghostFile(data)
		if err != nil {
			return err
		}
		if k = r.ghosts.number(file); k == 0 {
			if len(r.ghosts.files) == MaxGhosts {
				return fmt.Errorf("replay: a recording carries at most %d ghosts", MaxGhosts)
			}
			r.ghosts.files = append(r.ghosts.files, file)
			k, added = len(r.ghosts.files), true
		}
	}
	if k == r.ghosts.shown {
		return nil
	}
	was := r.ghosts.shown
	if err := r.ghosts.show(k, r.steps); err != nil {
		r.ghosts.files = r.ghosts.files[:len(r.ghosts.files)-1] // only a new ghost can fail to start
		r.ghosts.shown = was
		return err
	}
	r.op(opGhost)
	r.buf = binary.AppendUvarint(r.buf, uint64(k))
	if added {
		file := r.ghosts.files[k-1]
		r.buf = binary.AppendUvarint(r.buf, uint64(len(file)))
		r.buf = append(r.buf, file...)
	}
	return nil
}

// Ghost returns the ghost flying beside the recorded game, or nil. It is
// the Recorder's, stepped by Recorder.Step; read it from the goroutine
// that steps the recorder, or under the same lock.
func (r *Recorder) Ghost() *Ghost { return r.ghosts.current() }

// Restart begins a new game as World.Restart and records it.
func (r *Recorder) Restart() {
	r.w.Restart()
	r.op(opRestart)
}

// op writes what is held back, then the op code of an event, unless the
// recording is closed.
func (r *Recorder) op(c byte) bool {
	if r.closed {
		return false
	}
	r.flush()
	r.buf = append(r.buf, c)
	return true
}

// handOver gives the filled chunk to the writer and takes an empty one.
// The recorder owns a fixed set of chunks and the game never waits for the
// writer: while none is back empty, the current one keeps filling (and
// grows past its capacity only if the writer is minutes behind).
func (r *Recorder) handOver() {
	if r.out == nil || len(r.buf) == 0 {
		return
	}
	select {
	case b := <-r.free:
		r.full <- r.buf // never blocks: full has room for every chunk
		r.buf = b[:0]
	default:
	}
}

// write is the writer goroutine: it writes chunks in order until full is
// closed, and reports its first error. After an error it drops what comes,
// so the game never waits for a broken writer.
func (r *Recorder) write() {
	var err error
	for b := range r.full {
		if err == nil {
			_, err = r.out.Write(b)
		}
		r.free <- b // never blocks: free has room for every chunk
	}
	r.done <- err
}

// Close ends the recording with the end record (the step count and the
// final checksum) and, with Options.Out, waits until everything is written;
// it returns the writer's first error. Later calls return the same error;
// Step and the events record nothing after it.
func (r *Recorder) Close() error {
	if r.closed {
		return r.err
	}
	r.closed = true
	r.buf = r.appendEnd(r.buf)
	if r.out != nil {
		r.full <- r.buf
		close(r.full)
		r.err = <-r.done
		r.buf = nil
		if r.err != nil {
			r.err = fmt.Errorf("replay: writing the recording: %w", r.err)
		}
	}
	return r.err
}

// Bytes returns the file recorded so far when it is kept in memory: after
// Close, the whole file. The slice is the Recorder's own; it is valid until
// the next call. With Options.Out it returns nil.
func (r *Recorder) Bytes() []byte {
	if r.out != nil {
		return nil
	}
	return r.buf
}

var errClosed = errors.New("replay: the recorder is closed")

// Autoplay records steps of autopilots playing r's world. A solo world's
// autopilot starts a new game whenever one is over, as the stress mode's
// does; in a world of more slots every free slot is joined at the start by
// an autopilot named "autopilot N" (N the slot), which joins again
// whenever its game is over. It checks ctx every few hundred steps and
// returns its error when it is done early; what was played stays
// recorded.
func Autoplay(ctx context.Context, r *Recorder, steps int, pressure bool) error {
	var aps [game.MaxShips]game.Autopilot
	for s := range r.ships {
		aps[s] = game.Autopilot{Slot: s, Pressure: pressure}
	}
	var in game.Inputs
	for i := range steps {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		for s := range r.ships {
			switch ph := r.w.Player(s).Phase; {
			case ph == game.GameOver && r.ships == 1:
				r.Restart()
			case ph == game.GameOver || ph == game.Absent:
				if err := r.Join(s, fmt.Sprintf("autopilot %d", s)); err != nil {
					return err
				}
			default:
				continue
			}
			aps[s] = game.Autopilot{Slot: s, Pressure: pressure}
		}
		for s := range r.ships {
			in[s] = aps[s].Input(r.w)
		}
		r.Step(&in)
	}
	return nil
}

// AutoplayGame records the autopilot playing r's solo world for steps
// steps or until its game is over, whichever comes first: one game, as a
// daily game is, never started again. It checks ctx as Autoplay does.
func AutoplayGame(ctx context.Context, r *Recorder, steps int) error {
	var ap game.Autopilot
	var in game.Inputs
	for i := 0; i < steps && r.w.Phase() != game.GameOver; i++ {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		in[0] = ap.Input(r.w)
		r.Step(&in)
	}
	return nil
}
