package web

import (
	"bytes"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		msg  []byte
		want message
	}{
		{AppendHello(nil, Hello{Path: "/join/den", Name: "zoë", Cols: 120, Rows: 40}),
			message{typ: MsgHello, hello: Hello{Path: "/join/den", Name: "zoë", Cols: 120, Rows: 40}}},
		{AppendHello(nil, Hello{Path: "/", Cols: 1, Rows: 1}), message{typ: MsgHello, hello: Hello{Path: "/", Cols: 1, Rows: 1}}},
		{AppendKey(nil, Event{Type: KeyPress, Key: 'q'}), message{typ: MsgKey, event: Event{Type: KeyPress, Key: 'q'}}},
		{AppendKey(nil, Event{Type: KeyRelease, Key: KeyF12, Mod: ModMeta}), message{typ: MsgKey, event: Event{Type: KeyRelease, Key: KeyF12, Mod: ModMeta}}},
		{AppendKey(nil, Event{Type: KeyPress, Key: '日'}), message{typ: MsgKey, event: Event{Type: KeyPress, Key: '日'}}},
		{AppendText(nil, "a paste"), message{typ: MsgText, event: Event{Type: TextInput, Text: "a paste"}}},
		{AppendName(nil, ""), message{typ: MsgName, event: Event{Type: NameChange}}},
		{AppendResize(nil, 250, 100), message{typ: MsgResize, cols: 250, rows: 100}},
		{AppendPing(nil, 0xdeadbeef), message{typ: MsgPing, ping: 0xdeadbeef}},
	} {
		got, err := parse(tc.msg)
		if err != nil || got != tc.want {
			t.Errorf("parse(% x) = %+v, %v; want %+v", tc.msg, got, err, tc.want)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	t.Parallel()
	hello := func(h Hello) []byte { return AppendHello(nil, h) }
	ok := Hello{Path: "/", Cols: 80, Rows: 24}
	long := strings.Repeat("x", 65)
	for _, tc := range []struct {
		msg    []byte
		reason string
	}{
		{nil, "empty message"},
		{make([]byte, MaxMessage+1), "message over 512 bytes"},
		{[]byte{0}, "unknown message type 0"},
		{[]byte{7, 1}, "unknown message type 7"},
		{[]byte{MsgHello, Version, 80, 0, 24}, "hello cut short"},
		{hello(ok)[:len(hello(ok))-1], "hello cut short"},
		{append(hello(ok), 0), "hello of the wrong length"},
		{hello(Hello{Path: "/", Cols: 0, Rows: 24}), "grid 0×24: at least 1×1, at most 250×100"},
		{hello(Hello{Path: "/", Cols: 80, Rows: 101}), "grid 80×101: at least 1×1, at most 250×100"},
		{hello(Hello{Path: "", Cols: 80, Rows: 24}), "path of 0 bytes: 1 to 255"},
		{hello(Hello{Path: "watch/ann", Cols: 80, Rows: 24}), `path "watch/ann" does not start with /`},
		{hello(Hello{Path: "/\xff", Cols: 80, Rows: 24}), "path is not UTF-8"},
		{hello(Hello{Path: "/\n", Cols: 80, Rows: 24}), "path holds control character U+000A"},
		{hello(Hello{Path: "/", Name: long, Cols: 80, Rows: 24}), "name of 65 bytes: 0 to 64"},
		{hello(Hello{Path: "/", Name: "a\u009bb", Cols: 80, Rows: 24}), "name holds control character U+009B"},
		{[]byte{MsgKey, 1, 'a', 0, 0}, "key message of 5 bytes, not 6"},
		{[]byte{MsgKey, 0x20, 'a', 0, 0, 0}, "key flags 0x20"},
		{[]byte{MsgKey, 1, 0x7f, 0, 0, 0}, "no key 0x7f"},
		{[]byte{MsgKey, 1, 0x00, 0xd8, 0, 0}, "no key 0xd800"},
		{AppendKey(nil, Event{Type: KeyPress, Key: keyLast + 1}), "no key 0x11001e"},
		{[]byte{MsgText}, "text of 0 bytes: 1 to 256"},
		{AppendText(nil, strings.Repeat("é", 129)), "text of 258 bytes: 1 to 256"},
		{AppendText(nil, "tab\there"), "text holds control character U+0009"},
		{AppendName(nil, long), "name of 65 bytes: 0 to 64"},
		{[]byte{MsgResize, 80, 0, 24}, "resize message of 4 bytes, not 5"},
		{AppendResize(nil, 251, 10), "grid 251×10: at least 1×1, at most 250×100"},
		{[]byte{MsgPing, 1, 2, 3, 4, 5}, "ping message of 6 bytes, not 5"},
	} {
		_, err := parse(tc.msg)
		pe, ok := err.(*ProtocolError)
		if !ok || pe.Reason != tc.reason {
			t.Errorf("parse(% x) = %v, want %q", tc.msg, err, tc.reason)
		}
	}
}

// FuzzParse checks that any message is parsed or refused, never more, and
// that one parsed is sent again the same.
func FuzzParse(f *testing.F) {
	f.Add(AppendHello(nil, Hello{Path: "/watch/ann", Name: "bob", Cols: 80, Rows: 24}))
	f.Add(AppendKey(nil, Event{Type: KeyPress, Key: KeyUp, Mod: ModShift}))
	f.Add(AppendText(nil, "x"))
	f.Add(AppendResize(nil, 100, 30))
	f.Add(AppendPing(nil, 1))
	f.Add(AppendName(nil, "ann"))
	f.Fuzz(func(t *testing.T, msg []byte) {
		m, err := parse(msg)
		if err != nil {
			return
		}
		var again []byte
		switch m.typ {
		case MsgHello:
			again = AppendHello(nil, m.hello)
		case MsgKey:
			again = AppendKey(nil, m.event)
		case MsgText:
			again = AppendText(nil, m.event.Text)
		case MsgName:
			again = AppendName(nil, m.event.Text)
		case MsgResize:
			again = AppendResize(nil, m.cols, m.rows)
		case MsgPing:
			again = AppendPing(nil, m.ping)
		}
		if !bytes.Equal(again, msg) {
			t.Errorf("parse(% x) = %+v, sent again as % x", msg, m, again)
		}
	})
}

func TestKeyString(t *testing.T) {
	t.Parallel()
	for k, want := range map[Key]string{KeyEnter: "Enter", KeyF12: "F12", KeyShift: "Shift", 'q': "'q'", ' ': "' '"} {
		if got := k.String(); got != want {
			t.Errorf("Key(%#x).String() = %q, want %q", int(k), got, want)
		}
	}
}
