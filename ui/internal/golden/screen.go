package golden

import (
	"sync/atomic"

	"github.com/gdamore/tcell/v2"
)

// Screen is a simulation screen that takes its size on Init, as a
// terminal does, and counts the frames it shows: a session started on it
// lays out at that size from its first frame.
type Screen struct {
	tcell.SimulationScreen
	w, h  int
	shows atomic.Uint64
}

// NewScreen is a w×h Screen of charset, not yet initialised.
func NewScreen(charset string, w, h int) *Screen {
	return &Screen{SimulationScreen: tcell.NewSimulationScreen(charset), w: w, h: h}
}

func (s *Screen) Init() error {
	err := s.SimulationScreen.Init()
	s.SetSize(s.w, s.h)
	return err
}

func (s *Screen) Show() {
	s.shows.Add(1)
	s.SimulationScreen.Show()
}

// Shows is how many frames the screen has shown. It is safe to call
// while the screen draws.
func (s *Screen) Shows() uint64 { return s.shows.Load() }
