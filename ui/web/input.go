package web

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"strconv"
	"unicode/utf8"
)

// The messages the page sends, by their first byte (see the package
// documentation for their layouts).
const (
	MsgHello  byte = 1 // the first message: the version, size, path and name
	MsgKey    byte = 2 // a key went down or up
	MsgText   byte = 3 // text pasted into the page
	MsgResize byte = 4 // the grid the page has room for
	MsgPing   byte = 5 // a ping, answered by a pong
	MsgName   byte = 6 // the player changed their name in the page
)

// Version is the protocol's version, the first byte of a hello. A page of
// another version (one loaded before the server was updated) is told to
// reload.
const Version = 1

// Limits on what the page sends.
const (
	// MaxMessage is the most bytes a message from the page may have: a
	// hello with the longest path and name fits.
	MaxMessage = 512
	// MaxCols and MaxRows bound the grid a page may ask for.
	MaxCols, MaxRows = 250, 100
	maxPath          = 255 // bytes of a hello's path
	maxName          = 64  // bytes of a hello's name
	maxInput         = 256 // bytes of a text message
)

// Key is the identity of a key: the character it types (as the page's
// keyboard layout and Shift make it: 'a', 'A', ' ', '?') or, beyond
// Unicode, one of the named keys.
type Key rune

// The named keys: the keys that type no character, the modifiers among
// them.
const (
	KeyEnter Key = utf8.MaxRune + 1 + iota
	KeyTab
	KeyBackspace
	KeyEscape
	KeyUp
	KeyDown
	KeyLeft
	KeyRight
	KeyHome
	KeyEnd
	KeyPageUp
	KeyPageDown
	KeyInsert
	KeyDelete
	KeyShift
	KeyControl
	KeyAlt
	KeyMeta
	KeyF1
	KeyF2
	KeyF3
	KeyF4
	KeyF5
	KeyF6
	KeyF7
	KeyF8
	KeyF9
	KeyF10
	KeyF11
	KeyF12
	keyLast = KeyF12
)

var keyNames = [...]string{
	"Enter", "Tab", "Backspace", "Escape", "Up", "Down", "Left", "Right",
	"Home", "End", "PageUp", "PageDown", "Insert", "Delete",
	"Shift", "Control", "Alt", "Meta",
	"F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12",
}

// String returns a named key's name, or the character quoted.
func (k Key) String() string {
	if k >= KeyEnter && k <= keyLast {
		return keyNames[k-KeyEnter]
	}
	return strconv.QuoteRune(rune(k))
}

// valid reports whether k is a named key or a printable character.
func (k Key) valid() bool {
	if k >= KeyEnter {
		return k <= keyLast
	}
	return printable(rune(k))
}

// printable reports whether r is a valid character other than a control.
func printable(r rune) bool {
	return r >= 0x20 && (r < 0x7f || r >= 0xa0) && utf8.ValidRune(r)
}

// Mod is the modifier keys held with a key. Its zero value is none.
type Mod uint8

// The modifiers.
const (
	ModShift Mod = 1 << iota
	ModCtrl
	ModAlt
	ModMeta

	allMods = ModShift | ModCtrl | ModAlt | ModMeta
)

// EventType is what an [Event] reports.
type EventType uint8

// The events of the page's input.
const (
	KeyPress   EventType = iota + 1 // a key went down (the browser's repeats are not sent)
	KeyRelease                      // a key went up
	TextInput                       // text pasted into the page
	NameChange                      // the player changed their name in the page (to Text, "" for none)
)

// Event is one input of the page: a key that went down or up, or text.
type Event struct {
	Type EventType
	Key  Key    // the key that went down or up
	Mod  Mod    // the modifiers held with it
	Text string // the text pasted, the new name
}

// Hello is what the page says as it connects.
type Hello struct {
	// Path is the page's path, which names what the player asked for:
	// "/" the lobby, "/watch/NAME", "/join/ARENA", "/replay/NAME" (and
	// "/new/ARENA[/pvp]" from a relay, see [Conn.Relay]). It is
	// checked only as text (UTF-8, no control characters, starting with
	// /): anything may be sent.
	Path string
	// Name is the name the player gave the page, "" for none. It is
	// checked only as text: a session passes it through the one name rule
	// before any other player sees it.
	Name string
	// Cols and Rows are the grid the page has room for, at least 1×1 and
	// at most MaxCols×MaxRows.
	Cols, Rows int
	// Addr is the client's address (see [Config.TrustedProxies]): the
	// handler's, never the page's, to say.
	Addr netip.Addr
}

// message is one message from the page, decoded.
type message struct {
	typ        byte
	hello      Hello
	event      Event
	cols, rows int
	ping       uint32
}

// ProtocolError is why a message from the page was refused: the reason the
// connection is closed with.
type ProtocolError struct{ Reason string }

func (e *ProtocolError) Error() string { return "web: " + e.Reason }

func refuse(format string, args ...any) *ProtocolError {
	return &ProtocolError{Reason: fmt.Sprintf(format, args...)}
}

// parse decodes a message from the page, strictly: a message of a type
// it does not know, of another length than its type's, or with a value out
// of its range is refused. Only a hello and text allocate.
func parse(msg []byte) (m message, err error) {
	if len(msg) == 0 {
		return m, refuse("empty message")
	}
	if len(msg) > MaxMessage {
		return m, refuse("message over %d bytes", MaxMessage)
	}
	m.typ = msg[0]
	body := msg[1:]
	switch m.typ {
	case MsgHello:
		return m, parseHello(body, &m.hello)
	case MsgKey:
		if len(body) != 5 {
			return m, refuse("key message of %d bytes, not 6", len(msg))
		}
		flags, k := body[0], Key(binary.LittleEndian.Uint32(body[1:]))
		if flags&^(1|byte(allMods)<<1) != 0 {
			return m, refuse("key flags %#x", flags)
		}
		if !k.valid() {
			return m, refuse("no key %#x", uint32(k))
		}
		m.event = Event{Type: KeyRelease, Key: k, Mod: Mod(flags >> 1)}
		if flags&1 != 0 {
			m.event.Type = KeyPress
		}
	case MsgText:
		if err := checkText("text", body, 1, maxInput); err != nil {
			return m, err
		}
		m.event = Event{Type: TextInput, Text: string(body)}
	case MsgName:
		if err := checkText("name", body, 0, maxName); err != nil {
			return m, err
		}
		m.event = Event{Type: NameChange, Text: string(body)}
	case MsgResize:
		if len(body) != 4 {
			return m, refuse("resize message of %d bytes, not 5", len(msg))
		}
		m.cols, m.rows = int(binary.LittleEndian.Uint16(body)), int(binary.LittleEndian.Uint16(body[2:]))
		if err := checkSize(m.cols, m.rows); err != nil {
			return m, err
		}
	case MsgPing:
		if len(body) != 4 {
			return m, refuse("ping message of %d bytes, not 5", len(msg))
		}
		m.ping = binary.LittleEndian.Uint32(body)
	default:
		return m, refuse("unknown message type %d", m.typ)
	}
	return m, nil
}

// parseHello decodes a hello's body: version, columns and rows (16 bits,
// little-endian), then the path and the name, each a length byte and
// UTF-8.
func parseHello(body []byte, h *Hello) error {
	if len(body) < 7 {
		return refuse("hello cut short")
	}
	if body[0] != Version {
		return refuse("the page is out of date: reload it (protocol %d, not %d)", body[0], Version)
	}
	h.Cols, h.Rows = int(binary.LittleEndian.Uint16(body[1:])), int(binary.LittleEndian.Uint16(body[3:]))
	if err := checkSize(h.Cols, h.Rows); err != nil {
		return err
	}
	rest := body[5:]
	path, rest, ok := lengthPrefixed(rest)
	if !ok {
		return refuse("hello cut short")
	}
	name, rest, ok := lengthPrefixed(rest)
	switch {
	case !ok:
		return refuse("hello cut short")
	case len(rest) != 0:
		return refuse("hello of the wrong length")
	}
	if err := checkText("path", path, 1, maxPath); err != nil {
		return err
	}
	if path[0] != '/' {
		return refuse("path %q does not start with /", path)
	}
	if err := checkText("name", name, 0, maxName); err != nil {
		return err
	}
	h.Path, h.Name = string(path), string(name)
	return nil
}

func lengthPrefixed(b []byte) (s, rest []byte, ok bool) {
	if len(b) == 0 || len(b) < 1+int(b[0]) {
		return nil, nil, false
	}
	return b[1 : 1+b[0]], b[1+b[0]:], true
}

func checkSize(cols, rows int) error {
	if cols < 1 || rows < 1 || cols > MaxCols || rows > MaxRows {
		return refuse("grid %d×%d: at least 1×1, at most %d×%d", cols, rows, MaxCols, MaxRows)
	}
	return nil
}

// checkText checks that b, a field called what, is UTF-8 of min to max
// bytes without control characters.
func checkText(what string, b []byte, min, max int) error {
	if len(b) < min || len(b) > max {
		return refuse("%s of %d bytes: %d to %d", what, len(b), min, max)
	}
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n <= 1 {
			return refuse("%s is not UTF-8", what)
		}
		if !printable(r) {
			return refuse("%s holds control character %U", what, r)
		}
		b = b[n:]
	}
	return nil
}

// AppendHello appends the hello message of h (its Addr is not sent).
func AppendHello(dst []byte, h Hello) []byte {
	dst = append(dst, MsgHello, Version)
	dst = binary.LittleEndian.AppendUint16(dst, uint16(h.Cols))
	dst = binary.LittleEndian.AppendUint16(dst, uint16(h.Rows))
	dst = append(dst, byte(len(h.Path)))
	dst = append(dst, h.Path...)
	dst = append(dst, byte(len(h.Name)))
	return append(dst, h.Name...)
}

// AppendKey appends the key message of ev, a press or a release.
func AppendKey(dst []byte, ev Event) []byte {
	flags := byte(ev.Mod) << 1
	if ev.Type == KeyPress {
		flags |= 1
	}
	dst = append(dst, MsgKey, flags)
	return binary.LittleEndian.AppendUint32(dst, uint32(ev.Key))
}

// AppendText appends the text message of s.
func AppendText(dst []byte, s string) []byte {
	return append(append(dst, MsgText), s...)
}

// AppendName appends the name message of name.
func AppendName(dst []byte, name string) []byte {
	return append(append(dst, MsgName), name...)
}

// AppendResize appends the resize message of a cols×rows grid.
func AppendResize(dst []byte, cols, rows int) []byte {
	dst = append(dst, MsgResize)
	dst = binary.LittleEndian.AppendUint16(dst, uint16(cols))
	return binary.LittleEndian.AppendUint16(dst, uint16(rows))
}

// AppendPing appends the ping message of nonce n.
func AppendPing(dst []byte, n uint32) []byte {
	return binary.LittleEndian.AppendUint32(append(dst, MsgPing), n)
}
