package serve

import (
	"bytes"
	"errors"
	"testing"
)

func TestASCIIWriter(t *testing.T) {
	tests := []struct{ in, want string }{
		{"\x1b[1;1Hplain ascii\r\n", "\x1b[1;1Hplain ascii\r\n"},
		{"┌─ pools ─┐", "+- pools -+"},
		{"│strategy│", "|strategy|"},
		{"╔═╗║╚╝├┤┬┴┼", "+-+|+++++++"},
		{"First contact · wave 1", "First contact . wave 1"},
		{"80×24 → 11µs – —", "80x24 ? 11us - -"},
		{"名前!", "????!"},          // wide runes keep their two columns
		{"e\u0301t\u00e9", "et?"}, // a combining accent takes no column
		{"⠿⡀", "??"},
	}
	for _, tt := range tests {
		// Whole, and split after every byte: a rune may straddle two writes.
		for _, split := range []bool{false, true} {
			var out bytes.Buffer
			a := &asciiWriter{w: &out}
			chunks := [][]byte{[]byte(tt.in)}
			if split {
				chunks = chunks[:0]
				for i := range len(tt.in) {
					chunks = append(chunks, []byte{tt.in[i]})
				}
			}
			for _, c := range chunks {
				if n, err := a.Write(c); n != len(c) || err != nil {
					t.Fatalf("Write(%q) = %d, %v; want %d, nil", c, n, err, len(c))
				}
			}
			if got := out.String(); got != tt.want {
				t.Errorf("%q (split %v) came out as %q, want %q", tt.in, split, got, tt.want)
			}
		}
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("closed") }

func TestASCIIWriterError(t *testing.T) {
	a := &asciiWriter{w: failingWriter{}}
	if n, err := a.Write([]byte("─")); n != 0 || err == nil {
		t.Errorf("Write to a failing writer = %d, %v; want 0 and its error", n, err)
	}
}
