package ui

import (
	"testing"

	"poolroids/game/hub"
)

func BenchmarkTmpSeat(b *testing.B) {
	h := newHub(b, hub.Config{})
	seat, err := h.Join(hub.Request{Arena: "den", Player: "ann"})
	if err != nil {
		b.Fatal(err)
	}
	defer seat.Leave()
	_, scr := newXterm(b, 120, 40)
	s, err := newPlayerSession(ownTerminal(scr, nil), Options{Arena: seat})
	if err != nil {
		b.Fatal(err)
	}
	startTerm(b, s)
	s.frame()
	b.ReportAllocs()
	for b.Loop() {
		s.frame()
	}
}

func BenchmarkTmpSolo(b *testing.B) {
	_, scr := newXterm(b, 120, 40)
	s, err := newPlayerSession(ownTerminal(scr, nil), Options{Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	startTerm(b, s)
	s.frame()
	b.ReportAllocs()
	for b.Loop() {
		s.frame()
	}
}
