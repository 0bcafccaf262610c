package golden

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/gdamore/tcell/v2"
)

// Screen is a simulation screen that takes its size on Init, as a
// terminal does, and counts the frames it shows: a session started on it
// lays out at that size from its first frame. What it shows may be read
// while a session draws on it (GetContents copies it under the lock Show
// takes): a test that reads a frame and then lets the session draw on
// without a key in between has nothing else ordering the two.
type Screen struct {
	tcell.SimulationScreen
	w, h  int
	shows atomic.Uint64
	mu    sync.Mutex // held by Show, and while GetContents copies
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
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shows.Add(1)
	s.SimulationScreen.Show()
}

// EventQ is the simulation screen's event queue, which ui's loop reads
// as it reads a terminal's.
func (s *Screen) EventQ() chan tcell.Event {
	return s.SimulationScreen.(interface{ EventQ() chan tcell.Event }).EventQ()
}

// GetContents returns a copy of the cells the screen shows, and its size.
func (s *Screen) GetContents() ([]tcell.SimCell, int, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cells, w, h := s.SimulationScreen.GetContents()
	return slices.Clone(cells), w, h
}

// Shows is how many frames the screen has shown. It is safe to call
// while the screen draws.
func (s *Screen) Shows() uint64 { return s.shows.Load() }
