package replay_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"poolroids/game"
	"poolroids/game/replay"
	"poolroids/pool"
)

// smallGame is a short recording with every kind of event the solo game
// has: inputs, runs, switches, restarts, checksums and the end.
func smallGame(t testing.TB) []byte {
	t.Helper()
	b, _ := autopilotGame(t, game.Config{Seed: 4}, replay.Options{Players: []string{"fuzz"}, Every: 50}, 400, true, 90)
	return b
}

// checkDecode decodes data and walks its events: whatever the bytes, an
// error is a *FormatError pointing into the file.
func checkDecode(t *testing.T, data []byte) error {
	_, err := replay.Decode(data)
	if err == nil {
		return nil
	}
	var fe *replay.FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("Decode error %T %v, want a *FormatError", err, err)
	}
	if fe.Offset < 0 || fe.Offset > len(data) {
		t.Fatalf("error at byte %d of a %d-byte file: %v", fe.Offset, len(data), err)
	}
	return err
}

// Every proper prefix of a file is a clear error about its end, which
// errors.Is tells from other corruptions.
func TestTruncated(t *testing.T) {
	t.Parallel()
	ghosted, _ := tinyFile(t, 1, true)
	for _, data := range [][]byte{smallGame(t), ghosted} {
		if err := checkDecode(t, data); err != nil {
			t.Fatalf("the whole file: %v", err)
		}
		for n := range len(data) {
			err := checkDecode(t, data[:n])
			if err == nil || !strings.Contains(err.Error(), "unexpected end of file, want ") || !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("%d of %d bytes: %v, want an unexpected end of file", n, len(data), err)
			}
		}
	}
}

// Some corruptions and what they are reported as.
func TestCorrupted(t *testing.T) {
	t.Parallel()
	data := smallGame(t)
	r, err := replay.NewReader(data)
	if err != nil {
		t.Fatal(err)
	}
	body := r.Offset()
	// Small files to carry as ghosts: one with a ghost op of its own
	// (ghostOp bytes in), one of an arena.
	ghosted, inner := tinyFile(t, 1, true)
	arena, _ := tinyFile(t, 2, false)
	// Offsets in the header of smallGame: magic, version, build, seed 4.
	build := 5
	seed := build + 1 + len(replay.Build())
	mode, ships, strategy := seed+1, seed+2, seed+3
	for _, tc := range []struct {
		name string
		at   int
		cut  int    // bytes replaced at at; 0 means 1
		put  []byte // what replaces them
		want string
	}{
		{"magic", 1, 0, []byte("X"), `byte 0: want the replay magic "PRPL", found "PXPL": not a poolroids replay`},
		{"version", 4, 0, []byte{9}, "byte 4: want format version 4, found 9: a newer poolroids wrote it"},
		{"before the arcade rules", 4, 0, []byte{1}, "byte 4: want format version 4, found 1: an older poolroids wrote it, under rules this one no longer plays"},
		{"before the fair saucers", 4, 0, []byte{3}, "byte 4: want format version 4, found 3: an older poolroids wrote it, under rules this one no longer plays"},
		{"long build", build, 0, []byte{0xAC, 0x02}, fmt.Sprintf("byte %d: want the build's length 0..255, found 300", build)},
		{"seed overflows", seed, 0, bytes.Repeat([]byte{0xFF}, 11), fmt.Sprintf("byte %d: want the seed, found a varint longer than 64 bits", seed)},
		{"mode", mode, 0, []byte{7}, fmt.Sprintf("byte %d: want the mode 0 (co-op) or 1 (PvP), found 7", mode)},
		{"no ships", ships, 0, []byte{0}, fmt.Sprintf("byte %d: want the ship slots 1..16, found 0", ships)},
		{"strategy", strategy, 1 + len("freelist"), []byte("\x04heap"), fmt.Sprintf(`byte %d: want the starting strategy, one of %s; found "heap"`, strategy, pool.StrategyNames())},
		{"unknown op", body, 0, []byte{0xEE}, fmt.Sprintf("byte %d: unknown op 0xEE", body)},
		{"slot", body, 0, []byte{0xC5}, fmt.Sprintf("byte %d: slot op for slot 5, want a slot 0..0", body)},
		{"join", body, 0, []byte{0xD0, 3}, fmt.Sprintf("byte %d: want the slot of a join 0..0, found 3", body+1)},
		{"checksum early", body, 0, []byte{0xD4}, "checksum op after step 0, want one only after a multiple of 50 steps"},
		{"long run", body, 0, []byte{0xBF, 104}, "run of 168 steps after step 0 passes step 50"},
		{"run past a checksum", body, 0, []byte{0xBE}, "run of 63 steps after step 0 passes step 50, whose checksum is due first"},
		{"a byte past the end", len(data), -1, []byte{0}, fmt.Sprintf("byte %d: want the end of the file after the end record, found 1 more bytes", len(data))},
		{"ghost out of turn", body, -1, []byte{0xD6, 2}, fmt.Sprintf("byte %d: want the ghost's number 0..1, found 2", body+1)},
		{"ghost too large", body, -1, []byte{0xD6, 1, 0x80, 0x80, 0x40}, fmt.Sprintf("byte %d: want the length of the ghost's replay 1..524288, found 1048576", body+2)},
		{"ghost not a replay", body, -1, []byte{0xD6, 1, 3, 'a', 'b', 'c'}, fmt.Sprintf(`byte %d: ghost 1's replay: want the replay magic "PRPL", found "abc"`, body+3)},
		{"ghost of a ghost", body, -1, ghostOp(ghosted), fmt.Sprintf("byte %d: ghost 1's replay: ghost op in a ghost's replay", body+len(ghostOp(ghosted))-len(ghosted)+inner)},
		{"ghost of an arena", body, -1, ghostOp(arena), fmt.Sprintf("byte %d: ghost 1's replay: want a solo game's replay (1 ship slot), found one of 2 slots", body+len(ghostOp(arena))-len(arena))},
	} {
		cut := max(tc.cut, 1)
		if tc.cut < 0 {
			cut = 0
		}
		bad := slices.Concat(data[:tc.at], tc.put, data[tc.at+cut:])
		err := checkDecode(t, bad)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("%s: %v is an unexpected end of file, want a corruption", tc.name, err)
		}
	}
}

// tinyFile records three steps of a world of ships slots; with ghost, one
// flies beside from the start, and at is the offset of its ghost op.
func tinyFile(t testing.TB, ships int, ghost bool) (data []byte, at int) {
	t.Helper()
	rec, err := replay.NewRecorder(game.Config{Seed: 2, Ships: ships}, replay.Options{})
	if err != nil {
		t.Fatal(err)
	}
	at = len(rec.Bytes())
	if ghost {
		g, _ := tinyFile(t, 1, false)
		if err := rec.SetGhost(g); err != nil {
			t.Fatal(err)
		}
	}
	var in inputs
	for range 3 {
		rec.Step(&in)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	return rec.Bytes(), at
}

// ghostOp is the op that brings file as the first ghost: 0xD6, 1, its
// length and its bytes.
func ghostOp(file []byte) []byte {
	b := binary.AppendUvarint([]byte{0xD6, 1}, uint64(len(file)))
	return append(b, file...)
}

// FuzzDecode: no bytes make decoding panic, hang or fail other than with a
// *FormatError; what decodes plays events in a consistent order.
func FuzzDecode(f *testing.F) {
	data := smallGame(f)
	f.Add(data)
	f.Add(data[:len(data)/2])
	r, err := replay.NewReader(data)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data[:r.Offset()])
	f.Add([]byte("PRPL"))
	f.Add([]byte{})
	ghosted, _ := tinyFile(f, 1, true)
	f.Add(ghosted)
	f.Fuzz(func(t *testing.T, data []byte) {
		if checkDecode(t, data) != nil {
			return
		}
		r, err := replay.NewReader(data)
		if err != nil {
			t.Fatal(err)
		}
		last, step := -1, uint64(0)
		for {
			ev, err := r.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				t.Fatalf("Decode passed, Next failed: %v", err)
			}
			if ev.Offset <= last || ev.Offset >= len(data) || ev.Step < step {
				t.Fatalf("event %+v after offset %d, step %d", ev, last, step)
			}
			last, step = ev.Offset, ev.Step
		}
	})
}

// FuzzRecord: any script of inputs, joins, leaves, switches and restarts,
// recorded, replays through Player.Next with the very inputs of every step
// and every checksum matching. The first byte chooses the checksum
// interval, so runs meet checksums at every offset.
func FuzzRecord(f *testing.F) {
	f.Add([]byte{7, 0x04, 0x85, 0xC1, 0x06, 0xBF, 0xD0, 0xC8, 0x20, 0xC5, 0xC9, 0x7F})
	f.Add([]byte{0, 0xD0, 0xD0, 0xD0, 0x01, 0x02, 0x03, 0xC2, 0x41, 0x42})
	f.Add([]byte{255, 0xC1, 0xC2, 0xC3, 0x05, 0x09, 0x0D, 0xBF, 0xBF})
	strategies := pool.Strategies()
	f.Fuzz(func(t *testing.T, script []byte) {
		if len(script) == 0 || len(script) > 400 {
			return
		}
		rec, err := replay.NewRecorder(game.Config{Seed: 3, Ships: 4}, replay.Options{Every: 1 + int(script[0])%80})
		if err != nil {
			t.Fatal(err)
		}
		var in inputs
		var played []inputs
		step := func(n int) {
			for range n {
				rec.Step(&in)
				played = append(played, in)
			}
		}
		for _, b := range script[1:] {
			switch {
			case b < 0x80:
				in[b&3] = game.Input{Left: b&4 != 0, Right: b&8 != 0, Thrust: b&16 != 0, Fire: b&32 != 0, Hyperspace: b&64 != 0}
				step(1)
			case b < 0xC0:
				step(int(b&63) + 1)
			case b < 0xC4:
				rec.Join(int(b&3), "j") // refused when the slot is in play: then not recorded
			case b < 0xC8:
				rec.Leave(int(b & 3))
			case b < 0xD0:
				s := strategies[int(b&7)%len(strategies)]
				if err := rec.SetStrategies(s, ""); err != nil {
					t.Fatal(err)
				}
			case b == 0xD0:
				rec.Restart()
			default:
				step(int(b) * 3) // long runs
			}
		}
		want := rec.World().Checksum()
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
		p, err := replay.NewPlayer(rec.Bytes(), "")
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; ; i++ {
			got, err := p.Next()
			if err == io.EOF {
				if i != len(played) {
					t.Fatalf("replay ended after %d steps, %d recorded", i, len(played))
				}
				break
			}
			if err != nil {
				t.Fatalf("step %d: %v", i+1, err)
			}
			if i >= len(played) || *got != played[i] {
				t.Fatalf("step %d: inputs %v, recorded %v", i+1, *got, played[min(i, len(played)-1)])
			}
			p.World().StepAll(got)
		}
		if got := p.World().Checksum(); got != want {
			t.Fatalf("final checksum %016x, want %016x", got, want)
		}
	})
}
