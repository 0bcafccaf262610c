package ui

import (
	"bytes"
	"sync"
	"testing"

	"poolroids/game"
)

// BenchmarkArenaFrame measures what one arena frame costs the terminal: a
// 120×40 xterm-256color screen of a session in an arena of sixteen ships,
// every one flown by the max-pressure autopilot (holding fire, as the load
// benchmark's arenas), two world steps a frame (60 steps a second at 30
// frames a second). bytes/frame is what tcell writes, of which moves/frame
// cursor moves and sgr-bytes/frame the bytes of style changes.
func BenchmarkArenaFrame(b *testing.B) {
	tty, scr := newTerminal(b, 120, 40)
	s := benchSession(b, scr)
	w, err := game.New(game.Config{Seed: 9, Ships: game.MaxShips})
	if err != nil {
		b.Fatal(err)
	}
	var aps [game.MaxShips]game.Autopilot
	for i := range aps {
		if err := w.Join(i); err != nil {
			b.Fatal(err)
		}
		aps[i] = game.Autopilot{Pressure: true, Slot: i}
		s.names[i] = "player" + string(rune('a'+i))
	}
	s.world = w
	var in game.Inputs
	step := func() {
		for i := range aps {
			in[i] = aps[i].Input(w)
		}
		w.StepAll(&in)
	}
	for range 600 {
		step()
	}
	s.root.SetRect(0, 0, 120, 40)
	frame := func() {
		step()
		step()
		s.screen.Clear()
		s.root.Draw(s.screen)
		s.screen.Show()
	}
	frame()
	var st frameStats
	tty.tap = st.add
	b.ReportAllocs()
	for b.Loop() {
		frame()
	}
	tty.tap = nil
	n := float64(b.N)
	b.ReportMetric(float64(st.bytes)/n, "bytes/frame")
	b.ReportMetric(float64(st.moves)/n, "moves/frame")
	b.ReportMetric(float64(st.sgrBytes)/n, "sgr-bytes/frame")
	b.ReportMetric(float64(st.bytes)*30/1024/n, "KiB/s@30fps")
}

// frameStats sorts the bytes of tcell's frames into cursor moves, style
// changes and the rest.
type frameStats struct {
	mu                     sync.Mutex
	bytes, moves, sgrBytes int64
}

func (f *frameStats) add(p []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.bytes += int64(len(p))
	for len(p) > 0 {
		i := bytes.IndexByte(p, 0x1b)
		if i < 0 {
			return
		}
		p = p[i:]
		if len(p) >= 3 && p[1] == '(' { // designate G0: part of sgr0
			f.sgrBytes += 3
			p = p[3:]
			continue
		}
		if len(p) < 2 || p[1] != '[' {
			p = p[1:]
			continue
		}
		j := 2
		for j < len(p) && (p[j] < 0x40 || p[j] > 0x7e) {
			j++
		}
		if j == len(p) {
			return
		}
		switch p[j] {
		case 'H':
			f.moves++
		case 'm':
			f.sgrBytes += int64(j + 1)
		}
		p = p[j+1:]
	}
}
