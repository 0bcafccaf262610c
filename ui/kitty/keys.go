package kitty

import "sync/atomic"

// Key is one of the game's controls. Several physical keys map to one Key:
// the arrows, WASD and the keypad arrows all steer.
type Key uint8

// The game keys.
const (
	Left   Key = iota // ←, a, keypad ←
	Right             // →, d, keypad →
	Thrust            // ↑, w, keypad ↑
	Fire              // space
	Hyper             // h, s: hyperspace
	numKeys
)

var keyNames = [numKeys]string{"left", "right", "thrust", "fire", "hyper"}

// String names the key in lower case ("left", "fire", …).
func (k Key) String() string {
	if k < numKeys {
		return keyNames[k]
	}
	return "key?"
}

// Physical keys, one bit each, so that holding ← and a together and letting
// go of one still leaves Left held.
const (
	physArrowLeft uint32 = 1 << iota
	physArrowRight
	physArrowUp
	physPadLeft
	physPadRight
	physPadUp
	physA
	physD
	physW
	physSpace
	physH
	physS
)

// physicalOf lists the physical keys behind each game key.
var physicalOf = [numKeys]uint32{
	Left:   physArrowLeft | physPadLeft | physA,
	Right:  physArrowRight | physPadRight | physD,
	Thrust: physArrowUp | physPadUp | physW,
	Fire:   physSpace,
	Hyper:  physH | physS,
}

// Keys is the held-key state that a [Tty] reads from kitty key reports. The
// goroutine reading the terminal writes it and the game loop reads it: every
// method is safe for concurrent use and allocation-free. Methods on a nil
// *Keys report an inactive protocol and nothing held, so a caller without a
// kitty terminal needs no special case.
type Keys struct {
	active atomic.Bool
	down   atomic.Uint32 // physical keys held now
	tapped atomic.Uint32 // game keys (bit per Key) pressed since the last Poll
	sink   atomic.Pointer[Sink]
}

// Sink receives a game key's changes of held state (see [Keys.Forward]).
type Sink interface {
	Down(Key)
	Up(Key)
}

// Forward sends every change of a game key's held state to s from now on
// (nil: to none) while the protocol is [Keys.Active]: Down when its first
// physical key goes down, Up when its last is let go, and Up for every
// key held when the terminal loses focus or the protocol stops. It is
// called from the goroutine that reads the terminal, so s must be quick.
func (k *Keys) Forward(s Sink) {
	if s == nil {
		k.sink.Store(nil)
		return
	}
	k.sink.Store(&s)
}

// forward tells the sink of the game keys whose held state went from
// was to now (physical bits).
func (k *Keys) forward(was, now uint32) {
	p := k.sink.Load()
	if p == nil || was == now {
		return
	}
	for key := range numKeys {
		before, after := was&physicalOf[key] != 0, now&physicalOf[key] != 0
		switch {
		case after && !before:
			(*p).Down(key)
		case before && !after:
			(*p).Up(key)
		}
	}
}

// setActive records whether the protocol is on; when it goes off, the
// keys held are let go.
func (k *Keys) setActive(on bool) {
	if !k.active.Swap(on) || on {
		return
	}
	k.forward(k.down.Load(), 0)
}

// Active reports whether the terminal confirmed the kitty keyboard protocol
// with release reporting for every key. Only then is [Keys.Held] real held
// state; otherwise the terminal sends presses (and auto-repeats) alone and
// the caller must fall back to press-only controls.
func (k *Keys) Active() bool {
	return k != nil && k.active.Load()
}

// Held reports whether key is held down now. It is false while the protocol
// is not [Keys.Active].
func (k *Keys) Held(key Key) bool {
	if !k.Active() || key >= numKeys {
		return false
	}
	return k.down.Load()&physicalOf[key] != 0
}

// Set is a set of game keys, as returned by [Keys.Poll].
type Set uint8

// Has reports whether key is in s.
func (s Set) Has(key Key) bool { return key < numKeys && s&(1<<key) != 0 }

// Poll returns the keys held now plus those pressed since the previous Poll,
// even if already released: a tap shorter than one game step, or a press and
// its release arriving in one network packet, still counts once. Poll is for
// one consumer (the game loop); it returns the empty set while the protocol
// is not [Keys.Active].
func (k *Keys) Poll() Set {
	if !k.Active() {
		return 0
	}
	s := Set(k.tapped.Swap(0))
	down := k.down.Load()
	for key := range numKeys {
		if down&physicalOf[key] != 0 {
			s |= 1 << key
		}
	}
	return s
}

// press records a press or repeat of the physical key bit.
func (k *Keys) press(bit uint32, first bool) {
	if bit == 0 {
		return
	}
	if was := k.down.Or(bit); k.active.Load() {
		k.forward(was, was|bit)
	}
	if first {
		for key := range numKeys {
			if physicalOf[key]&bit != 0 {
				k.tapped.Or(1 << key)
			}
		}
	}
}

func (k *Keys) release(bit uint32) {
	if bit != 0 {
		if was := k.down.And(^bit); k.active.Load() {
			k.forward(was, was&^bit)
		}
	}
}

// releaseAll forgets every held key: after focus loss or once the protocol is
// off, no release report will come for them.
func (k *Keys) releaseAll() {
	was := k.down.Swap(0)
	k.tapped.Store(0)
	if k.active.Load() {
		k.forward(was, 0)
	}
}
