package input

import (
	"testing"

	"poolroids/game"
)

// TestKeysTapWithinAStep: a control that went down and up between two
// steps acts once, in the next step, as a source with releases reports
// a tap shorter than a step; one held acts every step until let go.
func TestKeysTapWithinAStep(t *testing.T) {
	var k Keys
	k.Down(Fire)
	k.Up(Fire)
	if in := k.Step(true); !in.Fire {
		t.Error("a tap between two steps did not fire")
	}
	if in := k.Step(true); in.Fire {
		t.Error("a tap fired twice")
	}
	k.Down(Left)
	for i := range 3 {
		if in := k.Step(true); !in.Left || in.Right {
			t.Errorf("step %d with left held: %+v", i, in)
		}
	}
	k.Up(Left)
	if in := k.Step(true); in != (game.Input{}) {
		t.Errorf("left let go: %+v", in)
	}
}

// TestKeysNotPlayingDrops: outside play nothing acts, and what was tapped
// or pressed meanwhile is dropped, not kept for the next game; a control
// still held acts once play goes on.
func TestKeysNotPlayingDrops(t *testing.T) {
	var k Keys
	k.Down(Fire)
	k.Up(Fire)
	k.Press(Hyper, 0)
	k.Down(Thrust)
	if in := k.Step(false); in != (game.Input{}) {
		t.Errorf("not playing: %+v", in)
	}
	if in := k.Step(true); in != (game.Input{Thrust: true}) {
		t.Errorf("playing again: %+v, want thrust only (still held)", in)
	}
}

// TestKeysRelease: Release forgets presses and taps, not what a source
// with releases holds.
func TestKeysRelease(t *testing.T) {
	var k Keys
	k.Press(Left, 0)
	k.Down(Fire)
	k.Up(Fire)
	k.Down(Thrust)
	k.Release()
	if in := k.Step(true); in != (game.Input{Thrust: true}) {
		t.Errorf("after Release: %+v, want thrust only (held)", in)
	}
}

// TestKeysHyper: a press of Hyper jumps once; held from a source with
// releases, it jumps every step (the world jumps when it can).
func TestKeysHyper(t *testing.T) {
	var k Keys
	k.Press(Hyper, 0)
	k.Press(Hyper, stepTime/2)
	if in := k.Step(true); !in.Hyperspace {
		t.Error("a press of hyper did not jump")
	}
	if in := k.Step(true); in.Hyperspace {
		t.Error("a press of hyper jumped twice")
	}
	k.Down(Hyper)
	for range 2 {
		if in := k.Step(true); !in.Hyperspace {
			t.Error("hyper held did not jump")
		}
	}
}

// TestKeysAllocs: a step's keys, written and read, allocate nothing.
func TestKeysAllocs(t *testing.T) {
	var k Keys
	at := stepTime
	if n := testing.AllocsPerRun(100, func() {
		k.Press(Left, at)
		k.Down(Fire)
		k.Up(Fire)
		k.Step(true)
		at += stepTime
	}); n != 0 {
		t.Errorf("%v allocations a step", n)
	}
}
