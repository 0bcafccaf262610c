package replay_test

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"poolroids/game"
	"poolroids/game/replay"
)

// TestSnapshot: a snapshot taken in the middle of an arena's recording
// replays and checks to the step it was taken at, whatever op was held
// back then, and taking it changes nothing in the recording that goes on.
func TestSnapshot(t *testing.T) {
	cfg := game.Config{Seed: 5, Ships: 3}
	plain, err := replay.NewRecorder(cfg, replay.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := replay.NewRecorder(cfg, replay.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// Chunks of odd lengths leave input ops and runs held at the snapshots,
	// one of them right after a checksum.
	for i, n := range []int{1, 2, 7, 64, 246, 700, 3} {
		if err := replay.Autoplay(ctx, plain, n, i%2 == 0); err != nil {
			t.Fatal(err)
		}
		if err := replay.Autoplay(ctx, rec, n, i%2 == 0); err != nil {
			t.Fatal(err)
		}
		snap := rec.Snapshot()
		p, err := replay.NewPlayer(snap, "")
		if err != nil {
			t.Fatalf("snapshot %d: %v", i, err)
		}
		if err := p.Run(ctx); err != nil {
			t.Fatalf("snapshot %d: %v", i, err)
		}
		if p.Steps() != rec.Steps() || p.World().Checksum() != rec.World().Checksum() {
			t.Fatalf("snapshot %d replays %d steps to %016x, the recording is at %d, %016x",
				i, p.Steps(), p.World().Checksum(), rec.Steps(), rec.World().Checksum())
		}
	}
	playBack(t, rec)
	if err := plain.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(rec.Bytes(), plain.Bytes()) {
		t.Error("the snapshots changed the recording")
	}
	if snap := rec.Snapshot(); !bytes.Equal(snap, rec.Bytes()) {
		t.Error("a snapshot of a closed recording is not its file")
	}
	var buf bytes.Buffer
	out, err := replay.NewRecorder(cfg, replay.Options{Out: &buf})
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if out.Snapshot() != nil {
		t.Error("a recording written to Out made a snapshot")
	}
}

func TestFitName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"ann", "ann"},
		{strings.Repeat("é", 40), strings.Repeat("é", 32)},
		{strings.Repeat("a", 63) + "é", strings.Repeat("a", 63)},
		{"a\xffb", "a\uFFFDb"},
		{"\x1b]0;PWNED\x07evil", "]0;PWNEDevil"},
	} {
		if got := replay.FitName(c.in); got != c.want {
			t.Errorf("FitName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A name that would send an escape sequence to the viewer's terminal is
// refused: by the recorder, and by the reader of a file made by hand.
func TestUnprintableName(t *testing.T) {
	hostile := "\x1b[2Jboo"
	if _, err := replay.NewRecorder(game.Config{Seed: 1}, replay.Options{Players: []string{hostile}}); err == nil {
		t.Error("the recorder took a name with an escape")
	}
	rec, err := replay.NewRecorder(game.Config{Seed: 1}, replay.Options{Players: []string{"\u241b[2Jboo"}}) // ␛: 3 bytes, as "\x1b[2" is
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	data := rec.Bytes()
	i := bytes.Index(data, []byte("\u241b[2Jboo"))
	bad := slices.Concat(data[:i], []byte("\x1b[2"), data[i+3:])
	if _, err := replay.NewReader(bad); err == nil || !strings.Contains(err.Error(), "printable") {
		t.Errorf("NewReader of a name with an escape: %v, want it refused as unprintable", err)
	}
}
