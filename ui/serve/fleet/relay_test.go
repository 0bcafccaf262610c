package fleet

import (
	"io"
	"strings"
	"testing"
)

// TestRelayMessage: the member's last words are the message its session
// ended with, when the output ends with one.
func TestRelayMessage(t *testing.T) {
	for _, tt := range []struct{ out, want string }{
		{"\x1b[?1049lpoolroids: arena den is full\r\n", "arena den is full"},
		{strings.Repeat("x", 1000) + "poolroids: server shutting down\r\n", "server shutting down"},
		{"poolroids: old news\r\n\x1b[2J", ""},
		{"poolroids: two\r\nlines\r\n", ""},
		{"frames, and no message", ""},
	} {
		o := &output{w: io.Discard}
		// Written in pieces, as the streams come.
		for s := tt.out; s != ""; s = s[min(len(s), 7):] {
			_, _ = o.Write([]byte(s[:min(len(s), 7)]))
		}
		if got := o.message(); got != tt.want {
			t.Errorf("message of %q = %q, want %q", tt.out, got, tt.want)
		}
	}
}
