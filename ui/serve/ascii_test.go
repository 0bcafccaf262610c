package serve

import (
	"bytes"
	"errors"
	"testing"
	"unicode/utf8"
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

// FuzzASCIIWriter writes any bytes in two pieces split anywhere: what
// comes out is ASCII, the same as for one piece, and every ASCII byte that
// went in comes out, in order.
func FuzzASCIIWriter(f *testing.F) {
	f.Add([]byte("┌─ pools ─┐\x1b[1;1H名前 e\u0301"), 3)
	f.Add([]byte{0xff, 0xe2, 0x94}, 1)
	f.Fuzz(func(t *testing.T, in []byte, cut int) {
		cut = min(max(cut, 0), len(in))
		var whole, split bytes.Buffer
		(&asciiWriter{w: &whole}).Write(in)
		a := &asciiWriter{w: &split}
		a.Write(in[:cut])
		a.Write(in[cut:])
		if whole.String() != split.String() {
			t.Fatalf("%q split at %d: %q, whole: %q", in, cut, split.Bytes(), whole.Bytes())
		}
		for i, c := range whole.Bytes() {
			if c >= utf8.RuneSelf {
				t.Fatalf("%q: byte %d of the output, %#x, is beyond ASCII", in, i, c)
			}
		}
		var ascii []byte
		for _, c := range in {
			if c < utf8.RuneSelf {
				ascii = append(ascii, c)
			}
		}
		if !isSubsequence(ascii, whole.Bytes()) {
			t.Fatalf("%q: the ASCII that went in, %q, is not in the output %q", in, ascii, whole.Bytes())
		}
	})
}

// isSubsequence reports whether a appears in b in order, not necessarily
// next to each other.
func isSubsequence(a, b []byte) bool {
	for _, c := range b {
		if len(a) > 0 && a[0] == c {
			a = a[1:]
		}
	}
	return len(a) == 0
}
