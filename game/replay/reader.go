package replay

import (
	"errors"
	"fmt"
	"io"

	"poolroids/game"
	"poolroids/pool"
)

// Kind is what an [Event] of a file is.
type Kind uint8

const (
	Input    Kind = iota // slot Slot's input becomes In, then Steps steps (0..3) are played
	Run                  // Steps steps are played with every slot's input as it stands
	Join                 // a ship named Name enters slot Slot
	Leave                // the ship of slot Slot leaves
	Switch               // the pools switch to Bullets and Debris ("" keeps one)
	Restart              // a new game begins, as World.Restart
	Checksum             // Sum is the world's checksum after step Step
	End                  // the file ends after Step steps, Sum the final checksum
	SetGhost             // from the next step ghost number Ghost flies beside the game; 0: none
)

var kindNames = [...]string{"input", "run", "join", "leave", "switch", "restart", "checksum", "end", "ghost"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Event is one op of a file's body.
type Event struct {
	Kind            Kind
	Offset          int    // of the op's first byte in the file
	Step            uint64 // steps played before the op
	Steps           int    // Input, Run: steps the op plays
	Slot            int    // Input, Join, Leave
	In              game.Input
	Name            string        // Join
	Bullets, Debris pool.Strategy // Switch
	Sum             uint64        // Checksum, End
	// SetGhost: the ghost's number, 1..MaxGhosts in order of first flight, 0
	// for none; and on its first flight its replay file, a subslice of the
	// file read (nil on a later one).
	Ghost int
	Data  []byte
}

// Reader walks the events of a file in order, checking each: it never
// plays a step, so it is as fast as reading. It holds every slot's input as
// the events so far have set it.
type Reader struct {
	d      decoder
	h      *Header
	steps  uint64
	due    uint64 // the step whose checksum comes next
	slot   int
	in     game.Inputs
	ghosts int  // ghosts brought so far
	ghost  bool // a ghost's replay: one solo game without ghosts
	done   bool
	err    error // returned by every Next from now on
}

// NewReader decodes the header of data and returns a Reader positioned at
// the first event. The Reader keeps data, which must not change meanwhile.
func NewReader(data []byte) (*Reader, error) { return newReader(data, false) }

// newReader is NewReader; with ghost, data is a ghost's replay, carried by
// another file: a solo game's, with no ghost of its own.
func newReader(data []byte, ghost bool) (*Reader, error) {
	r := &Reader{d: decoder{data: data}, ghost: ghost}
	h, err := r.d.header()
	if err != nil {
		return nil, err
	}
	if ghost && h.Ships != 1 {
		return nil, r.d.fail(0, "want a solo game's replay (1 ship slot), found one of %d slots", h.Ships)
	}
	r.h, r.due = h, uint64(h.Every)
	return r, nil
}

// Header returns the file's header.
func (r *Reader) Header() *Header { return r.h }

// Inputs returns every slot's input as the events read so far left it: the
// input of the steps an Input or Run event plays. The array is the
// Reader's own, changed by the next call to Next.
func (r *Reader) Inputs() *game.Inputs { return &r.in }

// Offset returns the byte offset of the next event.
func (r *Reader) Offset() int { return r.d.off }

// Next returns the next event, io.EOF after the End event, or a
// *FormatError, which it returns again from then on. It allocates nothing
// except for a Join's name, the check of a ghost's replay (read whole, as
// [Decode] reads a file) and an error.
func (r *Reader) Next() (Event, error) {
	if r.err != nil {
		return Event{}, r.err
	}
	ev, err := r.next()
	r.err = err
	if r.done && err == nil {
		r.err = io.EOF
	}
	return ev, err
}

func (r *Reader) next() (Event, error) {
	d := &r.d
	due := r.due
	for {
		at := d.off
		ev := Event{Offset: at, Step: r.steps}
		if r.steps == due {
			return r.checksum(ev)
		}
		c, err := d.byte("an op (the file has no end record: the recording was cut short)")
		if err != nil {
			return ev, err
		}
		switch {
		case c <= opInputMax:
			ev.Kind, ev.Slot, ev.In, ev.Steps = Input, r.slot, decodeInput(c), int(c>>inputRunBits)
			r.in[r.slot] = ev.In
			return ev, r.play(&ev, due)
		case c <= opRunMax:
			ev.Kind, ev.Steps = Run, int(c-opRun)+1
			return ev, r.play(&ev, due)
		case c == opLongRun:
			k, err := d.uvarint("the length of a long run")
			if err != nil {
				return ev, err
			}
			ev.Kind = Run
			if k > uint64(MaxEvery) {
				return ev, d.fail(at, "long run of 64+%d steps crosses the checksum due at step %d", k, due)
			}
			ev.Steps = 64 + int(k)
			return ev, r.play(&ev, due)
		case c <= opSlotMax:
			s := int(c - opSlot)
			if s >= r.h.Ships {
				return ev, d.fail(at, "slot op for slot %d, want a slot 0..%d", s, r.h.Ships-1)
			}
			r.slot = s
			continue // not an event of its own: it addresses the next Input
		case c == opJoin:
			ev.Kind = Join
			if ev.Slot, err = d.count("the slot of a join", 0, r.h.Ships-1); err != nil {
				return ev, err
			}
			ev.Name, err = d.string("the name of a joining player", MaxName)
			return ev, err
		case c == opLeave:
			ev.Kind = Leave
			ev.Slot, err = d.count("the slot of a leave", 0, r.h.Ships-1)
			return ev, err
		case c == opSwitch:
			ev.Kind = Switch
			if ev.Bullets, err = d.strategy("the bullets' new strategy", true); err != nil {
				return ev, err
			}
			ev.Debris, err = d.strategy("the debris's new strategy", true)
			return ev, err
		case c == opRestart:
			ev.Kind = Restart
			return ev, nil
		case c == opEnd:
			ev.Kind = End
			at := d.off
			n, err := d.uvarint("the step count of the end record")
			if err != nil {
				return ev, err
			}
			if n != r.steps {
				return ev, d.fail(at, "end record counts %d steps, want the %d the file played", n, r.steps)
			}
			if ev.Sum, err = d.sum("the final checksum"); err != nil {
				return ev, err
			}
			if d.off != len(d.data) {
				return ev, d.fail(d.off, "want the end of the file after the end record, found %d more bytes", len(d.data)-d.off)
			}
			r.done = true
			return ev, nil
		case c == opGhost:
			return r.ghostOp(ev)
		case c == opChecksum:
			return ev, d.fail(at, "checksum op after step %d, want one only after a multiple of %d steps", r.steps, r.h.Every)
		default:
			return ev, d.fail(at, "unknown op 0x%02X", c)
		}
	}
}

// ghostOp reads the rest of a ghost op: the ghost's number and, for a new
// ghost, its replay, which must be a well-formed solo game's without
// ghosts of its own (so a file nests no deeper than one ghost).
func (r *Reader) ghostOp(ev Event) (Event, error) {
	d := &r.d
	ev.Kind = SetGhost
	if r.ghost {
		return ev, d.fail(ev.Offset, "ghost op in a ghost's replay: a ghost flies no ghost of its own")
	}
	var err error
	if ev.Ghost, err = d.count("the ghost's number", 0, min(r.ghosts+1, MaxGhosts)); err != nil || ev.Ghost <= r.ghosts {
		return ev, err
	}
	n, err := d.count("the length of the ghost's replay", 1, MaxGhost)
	if err != nil {
		return ev, err
	}
	if len(d.data)-d.off < n {
		return ev, d.eof(fmt.Sprintf("ghost %d's replay (%d bytes)", ev.Ghost, n))
	}
	at := d.off
	ev.Data = d.data[at : at+n : at+n]
	if _, err := decode(ev.Data, true); err != nil {
		var fe *FormatError
		if !errors.As(err, &fe) { // decode returns nothing else
			return ev, d.fail(at, "ghost %d's replay: %v", ev.Ghost, err)
		}
		return ev, d.fail(at+fe.Offset, "ghost %d's replay: %s", ev.Ghost, fe.Msg)
	}
	d.off += n
	r.ghosts++
	return ev, nil
}

// play counts the steps of ev, which may not pass the checksum due.
func (r *Reader) play(ev *Event, due uint64) error {
	if r.steps+uint64(ev.Steps) > due {
		return r.d.fail(ev.Offset, "%s of %d steps after step %d passes step %d, whose checksum is due first", ev.Kind, ev.Steps, r.steps, due)
	}
	r.steps += uint64(ev.Steps)
	return nil
}

// checksum reads the checksum op that must follow step due. It allocates
// only to report an error.
func (r *Reader) checksum(ev Event) (Event, error) {
	d := &r.d
	if len(d.data)-d.off < 9 {
		return ev, d.eof(fmt.Sprintf("the checksum op of step %d and its sum, 9 bytes (the file has no end record: the recording was cut short)", ev.Step))
	}
	if c := d.data[d.off]; c != opChecksum {
		return ev, d.fail(ev.Offset, "want the checksum op of step %d (0x%02X), found 0x%02X", ev.Step, opChecksum, c)
	}
	d.off++
	ev.Kind = Checksum
	ev.Sum, _ = d.sum("")
	r.due += uint64(r.h.Every)
	return ev, nil
}

// decodeInput turns the low five bits of an input op into an Input.
func decodeInput(c byte) game.Input {
	return game.Input{
		Left:       c&1 != 0,
		Right:      c&2 != 0,
		Thrust:     c&4 != 0,
		Fire:       c&8 != 0,
		Hyperspace: c&16 != 0,
	}
}

// encodeInput is decodeInput's inverse.
func encodeInput(in game.Input) byte {
	return boolByte(in.Left) | boolByte(in.Right)<<1 | boolByte(in.Thrust)<<2 |
		boolByte(in.Fire)<<3 | boolByte(in.Hyperspace)<<4
}

// File is what [Decode] learns of a file without playing it.
type File struct {
	Header
	Steps uint64   // steps the file plays
	Sum   uint64   // the final checksum
	Names []string // every player who played, in order of entry, repeats left out
}

// Decode reads and checks a whole file without playing it: every op well
// formed, every slot in range, a checksum after every Every steps, the end
// record last, and each ghost's replay likewise. It reads each byte once.
func Decode(data []byte) (*File, error) { return decode(data, false) }

// decode is Decode; with ghost, data is a ghost's replay (see newReader).
func decode(data []byte, ghost bool) (*File, error) {
	r, err := newReader(data, ghost)
	if err != nil {
		return nil, err
	}
	f := &File{Header: *r.h}
	seen := map[string]bool{}
	for _, p := range r.h.Players {
		if !seen[p] {
			seen[p] = true
			f.Names = append(f.Names, p)
		}
	}
	for {
		ev, err := r.Next()
		if err == io.EOF {
			return f, nil
		}
		if err != nil {
			return nil, err
		}
		switch ev.Kind {
		case Join:
			if !seen[ev.Name] {
				seen[ev.Name] = true
				f.Names = append(f.Names, ev.Name)
			}
		case End:
			f.Steps, f.Sum = ev.Step, ev.Sum
		}
	}
}
