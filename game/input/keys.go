// Package input turns a player's key events into the controls that act at
// each step of the world. A source that reports releases (the kitty
// keyboard protocol, a browser) sends [Keys.Down] and [Keys.Up]; a
// terminal that reports presses and auto-repeats only sends [Keys.Press],
// which acts for a tap of a few steps and, repeated, for as long as the
// repeats come (see pressHold). Every source writes one Keys; the
// goroutine that steps the world reads it, once a step ([Keys.Step]).
// Nothing calls back: the keys wait in Keys until the step takes them.
package input

import (
	"sync"
	"time"

	"poolroids/game"
)

// Control is a game control.
type Control uint8

// The controls: the first four act while held, Hyper once a press.
const (
	Left Control = iota
	Right
	Thrust
	Fire
	Hyper
	NumControls

	numHeld = Hyper // the controls pressHold holds
)

// Keys is one player's controls between two steps, under a lock of its
// own: sources write it from their goroutines, the stepping goroutine
// reads it. The zero Keys holds nothing. Its methods are safe for
// concurrent use, quick, and allocate nothing.
type Keys struct {
	mu     sync.Mutex
	down   [NumControls]bool // held, as a source with releases reports
	tapped [NumControls]bool // went down since the last step: a tap shorter than a step acts once
	hold   pressHold         // the presses of a source without releases
	jump   bool              // a press of Hyper waits for the next step
}

// Down records that c went down, as a source that reports releases tells.
// It acts from the next step until Up, and at least in that step.
func (k *Keys) Down(c Control) {
	if c >= NumControls {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.down[c], k.tapped[c] = true, true
}

// Up records that c was let go.
func (k *Keys) Up(c Control) {
	if c >= NumControls {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.down[c] = false
}

// Press records a press or an auto-repeat of c at at, an offset on one
// clock of the caller's, from a source that reports no releases: a held
// control acts for a tap, and on while its repeats come (see pressHold);
// Hyper jumps once, at the next step.
func (k *Keys) Press(c Control, at time.Duration) {
	k.mu.Lock()
	defer k.mu.Unlock()
	switch {
	case c == Hyper:
		k.jump = true
	case c < numHeld:
		k.hold.press(c, at)
	}
}

// Release forgets the presses and taps not yet acted on: a pause, a new
// game, the game waits or ends. What a source with releases reports as
// held stays held: it is the keyboard's truth.
func (k *Keys) Release() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.hold.releaseAll()
	k.jump = false
	k.tapped = [NumControls]bool{}
}

// Step is the input of the next step of the world, taken once a step.
// Outside play (the title, the game-over screen, the stress autopilot, a
// game that waits) it is none, and the taps and jumps meanwhile are
// dropped, not kept for later.
func (k *Keys) Step(playing bool) game.Input {
	k.mu.Lock()
	defer k.mu.Unlock()
	defer func() { k.tapped, k.jump = [NumControls]bool{}, false }()
	if !playing {
		return game.Input{}
	}
	var on [NumControls]bool
	for c := range numHeld {
		on[c] = k.hold.act(c) || k.down[c] || k.tapped[c]
	}
	return game.Input{
		Left: on[Left], Right: on[Right], Thrust: on[Thrust], Fire: on[Fire],
		Hyperspace: k.jump || k.down[Hyper] || k.tapped[Hyper],
	}
}
