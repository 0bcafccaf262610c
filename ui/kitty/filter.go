package kitty

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

const (
	esc = 0x1b

	// maxSeq bounds the escape sequences the filter interprets or holds back
	// between reads. The longest kitty key report (code, two alternates, all
	// modifiers, event type, a few text code points) fits with room to spare;
	// anything longer is not a key report and passes through untouched.
	maxSeq = 64

	press   = 1
	repeat  = 2
	release = 3

	// Modifier bits of a kitty report (the field's value minus one).
	modShift = 1
	modCaps  = 64
	modNum   = 128
	modLocks = modCaps | modNum
)

// filter rewrites the terminal's input stream in place: kitty release
// reports (and repeats of game keys) are removed and recorded in keys; other
// key reports are turned into bytes tcell parses right; and what tcell's
// parser cannot take is dropped (see [filter.run]).
type filter struct {
	keys    *Keys
	skip    skipState // a sequence being dropped across reads
	scratch [maxSeq]byte
}

// skipState says which sequence the filter is dropping, bytes as they come
// and across reads, rather than holding it back.
type skipState uint8

const (
	skipNone      skipState = iota
	skipString              // an OSC, SOS, PM or APC string, up to BEL or ESC \
	skipStringEsc           // the same, just after an ESC inside it
	skipCSI                 // an overlong CSI sequence, up to its final byte
)

// run filters b in place. The output is b[:w]. When b ends inside a
// character or an escape sequence, run stops there and returns its start
// as rest, so the caller can hold b[rest:] back and put it in front of the
// next read; otherwise rest == len(b). With final set (the stream has
// ended) nothing is held back: an unfinished sequence is dropped.
//
// tcell v2.13 gets only whole units its parser ends in its ground state
// after: ASCII, valid UTF-8, and complete escape sequences. Its input loop
// spins for ever on a byte that is not UTF-8, and an unfinished sequence
// makes it swallow the keys after it; so
//   - bytes that are not UTF-8 are dropped, and a rune cut by the end of a
//     read is held back whole;
//   - a lone ESC at the end is held back too (a stale one becomes the Esc
//     key; see [Tty.Read]), a doubled ESC loses its first, and ESC before a
//     non-ASCII rune is dropped;
//   - OSC, SOS, PM and APC strings, SS2, ESC \, bracketed paste markers,
//     CSI sequences longer than maxSeq or broken by a control byte, and
//     win32-input-mode reports tcell would expand without bound are
//     dropped;
//   - ESC O and the linux console's CSI [ pass with the byte they take.
//
// Every rewrite is no longer than what it replaces, so w never overtakes
// the read position.
func (f *filter) run(b []byte, final bool) (w, rest int) {
	n := len(b)
	i := f.skipping(b, 0)
	for i < n {
		c := b[i]
		if c < utf8.RuneSelf && c != esc {
			j := i + 1
			for j < n && b[j] < utf8.RuneSelf && b[j] != esc {
				j++
			}
			w += copy(b[w:], b[i:j])
			i = j
			continue
		}
		if c >= utf8.RuneSelf {
			if !utf8.FullRune(b[i:]) {
				if !final {
					return w, i
				}
				break
			}
			r, size := utf8.DecodeRune(b[i:])
			if r != utf8.RuneError || size > 1 {
				w += copy(b[w:], b[i:i+size])
			}
			i += size
			continue
		}
		if i+1 == n {
			if !final {
				return w, i
			}
			break
		}
		switch c = b[i+1]; {
		case c == esc || c >= utf8.RuneSelf:
			i++
		case c == '[':
			j := i + 2
			for j < n && b[j] >= 0x20 && b[j] <= 0x3f && j-i < maxSeq {
				j++
			}
			switch {
			case j-i >= maxSeq:
				f.skip = skipCSI
				i = f.skipping(b, j)
			case j == n:
				if !final {
					return w, i
				}
				i = n
			case b[j] < 0x40 || b[j] > 0x7e:
				i = j // broken by a control byte: go on from it
			case b[j] == '[':
				// The linux console's F1–F5: CSI [ and one letter.
				if j+1 == n && !final {
					return w, i
				}
				if j+1 < n && b[j+1] >= 0x20 && b[j+1] <= 0x7e {
					w += copy(b[w:], b[i:j+2])
					i = j + 2
				} else {
					i = j + 1
				}
			default:
				w += f.sequence(b[w:], b[i:j+1])
				i = j + 1
			}
		case c == ']' || c == 'X' || c == '^' || c == '_':
			f.skip = skipString
			i = f.skipping(b, i+2)
		case c == '\\':
			i += 2
		case c == 'N' || c == 'O':
			if i+2 == n {
				if !final {
					return w, i
				}
				i = n
				break
			}
			if d := b[i+2]; d < 0x20 || d > 0x7e {
				i += 2 // not a key: go on from that byte
				break
			}
			if c == 'O' {
				w += copy(b[w:], b[i:i+3])
			}
			i += 3
		default:
			// Alt and a key, or ESC and a control key.
			w += copy(b[w:], b[i:i+2])
			i += 2
		}
	}
	return w, n
}

// skipping drops b[i:] up to the end of the sequence f.skip says is being
// dropped, and returns where the input goes on.
func (f *filter) skipping(b []byte, i int) int {
	for ; i < len(b) && f.skip != skipNone; i++ {
		c := b[i]
		switch f.skip {
		case skipString:
			if c == 0x07 {
				f.skip = skipNone
			} else if c == esc {
				f.skip = skipStringEsc
			}
		case skipStringEsc:
			if c == '\\' || c == 0x07 {
				f.skip = skipNone
			} else if c != esc {
				f.skip = skipString
			}
		case skipCSI:
			switch {
			case c >= 0x20 && c <= 0x3f:
			case c >= 0x40 && c <= 0x7e:
				f.skip = skipNone
			default:
				f.skip = skipNone
				return i // not part of it: it is input again
			}
		}
	}
	return i
}

// sequence writes what tcell should get for one complete CSI sequence seq
// to dst (which may overlap seq, but starts at or before it) and returns
// its length.
func (f *filter) sequence(dst, seq []byte) int {
	params, fin := seq[2:len(seq)-1], seq[len(seq)-1]
	if !tcellSafe(params, fin) {
		return 0
	}
	if fin == 'u' && len(params) > 0 && params[0] == '?' {
		if flags, ok := atoi(params[1:]); ok {
			// The answer to our query: the flags now in force.
			f.keys.setActive(flags&needFlags == needFlags)
			return 0
		}
		return copy(dst, seq)
	}
	if fin == 'O' && len(params) == 0 {
		// Focus lost: releases will go to another window.
		f.keys.releaseAll()
		return copy(dst, seq)
	}
	ev, ok := parseKey(params, fin)
	if !ok {
		return copy(dst, seq)
	}
	bit := ev.physical()
	switch ev.kind {
	case release:
		f.keys.release(bit)
		return 0
	case repeat:
		f.keys.press(bit, false)
		if bit != 0 {
			// Held state replaces auto-repeat for game keys. Other keys
			// repeat as presses, as they do without the protocol.
			return 0
		}
	default:
		f.keys.press(bit, true)
	}
	if fin != 'u' {
		if !ev.typed {
			return copy(dst, seq)
		}
		return copy(dst, ev.legacyCSI(f.scratch[:0], fin))
	}
	return copy(dst, ev.translate(f.scratch[:0]))
}

// maxRepeat bounds the repeat count of a win32-input-mode key report: no
// keyboard repeats a key that often in one report, and tcell posts one
// event per repeat before it reads on.
const maxRepeat = 16

// tcellSafe reports whether tcell's parser may have the CSI sequence with
// these parameters and final byte. It reads the numbers as tcell does: an
// optional '<', then the ';'-separated fields that parse as 32-bit
// decimals, the others skipped. A sequence with intermediate bytes tcell
// ignores, and so are all but these:
//   - CSI 200 ~ and CSI 201 ~ start and end a bracketed paste, which we
//     never ask for: a start without its end would hide every later key
//     from a program that enables paste;
//   - CSI … _ is a win32-input-mode report (tcell asks for the mode on
//     every terminal). One of character 27 feeds an ESC to the nested
//     parser tcell keeps for these reports, which can leave it swallowing
//     what follows, and the repeat count (the sixth field) is posted as
//     that many events.
func tcellSafe(params []byte, fin byte) bool {
	if fin != '~' && fin != '_' {
		return true
	}
	if len(params) > 0 && params[0] == '<' {
		params = params[1:]
	}
	if len(params) == 0 || params[0] < '0' || params[0] > '9' {
		return true
	}
	for _, c := range params {
		if c < '0' {
			return true // intermediate bytes: tcell ignores it
		}
	}
	var p [6]int
	np := 0
	for rest, found := params, true; found && np < len(p); {
		var field []byte
		field, rest, found = cut(rest, ';')
		if v, ok := atoi32(field); ok {
			p[np] = v
			np++
		}
	}
	switch fin {
	case '~':
		return np == 0 || (p[0] != 200 && p[0] != 201)
	default:
		return !(p[0] == 0 && p[1] == 0 && p[2] == esc) && p[5] <= maxRepeat
	}
}

// needFlags are the enhancement flags held-key state depends on: event
// types (2) and every key as an escape code (8), without which text keys
// such as WASD and space report no release.
const needFlags = 2 | 8

// keyEvent is one kitty key report:
//
//	CSI code[:shifted[:base]] [; mods[:type]] [; text[:text…]] u
//	CSI [1] [; mods[:type]] {ABCDEFHPQRS}
//	CSI number [; mods[:type]] ~
type keyEvent struct {
	fin     byte
	code    int
	shifted int    // shifted key (flag 4), 0 when absent
	mods    int    // modifier bits
	kind    int    // press, repeat or release
	typed   bool   // the event type was given explicitly
	text    []byte // code points of the text (flag 16), colon separated; points into the input
}

const keyFinals = "ABCDEFHPQRS~u"

// parseKey parses the parameters of a CSI sequence with final fin as a key
// report. It refuses anything else (private markers, intermediates, bad
// numbers), which then passes through unchanged.
func parseKey(params []byte, fin byte) (keyEvent, bool) {
	ev := keyEvent{fin: fin, kind: press}
	if strings.IndexByte(keyFinals, fin) < 0 {
		return ev, false
	}
	for _, c := range params {
		if (c < '0' || c > '9') && c != ';' && c != ':' {
			return ev, false
		}
	}
	key, rest, _ := cut(params, ';')
	modField, text, hasText := cut(rest, ';')
	if hasText && (fin != 'u' || bytes.IndexByte(text, ';') >= 0) {
		return ev, false
	}

	code, alt, hasAlt := cut(key, ':')
	switch {
	case fin == 'u' || fin == '~':
		v, ok := atoi(code)
		if !ok {
			return ev, false
		}
		ev.code = v
	case len(code) == 0 || (len(code) == 1 && code[0] == '1'):
		ev.code = 1
	default:
		return ev, false
	}
	if hasAlt {
		if fin != 'u' {
			return ev, false
		}
		shifted, base, _ := cut(alt, ':')
		if len(shifted) > 0 {
			v, ok := atoi(shifted)
			if !ok {
				return ev, false
			}
			ev.shifted = v
		}
		if len(base) > 0 {
			if _, ok := atoi(base); !ok {
				return ev, false
			}
		}
	}

	mods, kind, typed := cut(modField, ':')
	if len(mods) > 0 {
		v, ok := atoi(mods)
		if !ok || v < 1 || v > 256 {
			return ev, false
		}
		ev.mods = v - 1
	}
	if typed {
		v, ok := atoi(kind)
		if !ok || v < press || v > release {
			return ev, false
		}
		ev.kind, ev.typed = v, true
	}

	if len(text) > 0 {
		for t := text; ; {
			cp, more, found := cut(t, ':')
			if _, ok := atoi(cp); !ok {
				return ev, false
			}
			if !found {
				break
			}
			t = more
		}
		ev.text = text
	}
	return ev, true
}

// physical returns the bit of the physical game key ev reports, or 0.
func (ev *keyEvent) physical() uint32 {
	switch ev.fin {
	case 'D':
		return physArrowLeft
	case 'C':
		return physArrowRight
	case 'A':
		return physArrowUp
	case 'u':
		return physicalCode(ev.code)
	}
	return 0
}

// physicalCode maps a CSI u key code to its physical game key bit, or 0.
// The code is the unshifted key, but upper case is accepted from terminals
// that get this wrong, so that a press and its release always match.
func physicalCode(code int) uint32 {
	switch code {
	case 'a', 'A':
		return physA
	case 'd', 'D':
		return physD
	case 'w', 'W':
		return physW
	case ' ':
		return physSpace
	case 'h', 'H':
		return physH
	case 's', 'S':
		return physS
	case kpLeft:
		return physPadLeft
	case kpRight:
		return physPadRight
	case kpUp:
		return physPadUp
	}
	return 0
}

// Kitty's functional key codes (Unicode private use area) that matter here.
const (
	puaFirst  = 57344
	puaLast   = 63743
	capsLock  = 57358
	numLock   = 57360
	kpLeft    = 57417
	kpRight   = 57418
	kpUp      = 57419
	leftShift = 57441 // first of the modifier keys…
	isoLevel5 = 57454 // …and the last
)

// tcellKnows reports whether tcell's CSI u table names this private-use key
// (print screen, pause, menu, F13–F35, the keypad); for others it would
// deliver a meaningless private-use rune.
func tcellKnows(code int) bool {
	return (code >= 57361 && code <= 57363) || (code >= 57376 && code <= 57426)
}

// legacyCSI writes ev, a press of a functional key reported with an event
// type, without the type: CSI [1;mods] X or CSI n[;mods] ~, which tcell
// parses (it reads "1:1" as no number at all).
func (ev *keyEvent) legacyCSI(out []byte, fin byte) []byte {
	mods := ev.mods &^ modLocks
	out = append(out, esc, '[')
	switch {
	case fin == '~':
		out = strconv.AppendInt(out, int64(ev.code), 10)
		if mods != 0 {
			out = append(out, ';')
			out = strconv.AppendInt(out, int64(mods+1), 10)
		}
	case mods != 0:
		out = append(out, '1', ';')
		out = strconv.AppendInt(out, int64(mods+1), 10)
	}
	return append(out, fin)
}

// translate writes what tcell should get for the press ev of a CSI u
// report. tcell reads CSI u presses itself but gets text wrong (shift+a
// arrives as 'a'), shows modifier keys and unknown private-use keys as
// runes, and misreads alternates and text fields; so text goes as UTF-8,
// shift+Tab as the legacy back-tab, modifier keys not at all, and the rest
// as a plain CSI code[;mods] u that tcell maps right (ctrl+c to Ctrl-C, 27
// to Esc, 13 to Enter…).
func (ev *keyEvent) translate(out []byte) []byte {
	mods := ev.mods &^ modLocks
	if mods&^modShift == 0 && len(ev.text) > 0 && textPrintable(ev.text) {
		for t := ev.text; ; {
			cp, more, found := cut(t, ':')
			v, _ := atoi(cp)
			out = utf8.AppendRune(out, rune(v))
			if !found {
				return out
			}
			t = more
		}
	}
	c := ev.code
	switch {
	case c == 0,
		c >= capsLock && c <= numLock,
		c >= leftShift && c <= isoLevel5,
		c >= puaFirst && c <= puaLast && !tcellKnows(c):
		return out
	case mods&^modShift == 0 && printable(c):
		r := rune(c)
		switch {
		case mods&modShift != 0 && printable(ev.shifted):
			r = rune(ev.shifted)
		case mods&modShift != 0 || ev.mods&modCaps != 0:
			r = unicode.ToUpper(r)
		}
		return utf8.AppendRune(out, r)
	case c == '\t' && mods == modShift:
		return append(out, esc, '[', 'Z')
	}
	out = append(out, esc, '[')
	out = strconv.AppendInt(out, int64(c), 10)
	if mods != 0 {
		out = append(out, ';')
		out = strconv.AppendInt(out, int64(mods+1), 10)
	}
	return append(out, 'u')
}

// printable reports whether code point c is text a key can type.
func printable(c int) bool {
	return c >= ' ' && c != 0x7f && !(c >= 0x80 && c < 0xa0) &&
		!(c >= puaFirst && c <= puaLast) && utf8.ValidRune(rune(c))
}

func textPrintable(text []byte) bool {
	for t := text; ; {
		cp, more, found := cut(t, ':')
		v, _ := atoi(cp)
		if !printable(v) {
			return false
		}
		if !found {
			return true
		}
		t = more
	}
}

// atoi parses a non-empty decimal number no larger than the largest code
// point; leading zeros are allowed.
func atoi(b []byte) (int, bool) { return atoiUpTo(b, utf8.MaxRune) }

// atoi32 parses a non-empty decimal number that fits in an int32, as
// tcell's strconv.ParseInt(s, 10, 32) does for these bytes.
func atoi32(b []byte) (int, bool) { return atoiUpTo(b, math.MaxInt32) }

func atoiUpTo(b []byte, limit int) (int, bool) {
	if len(b) == 0 {
		return 0, false
	}
	v := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
		if v > limit {
			return 0, false
		}
	}
	return v, true
}

// cut is bytes.Cut for a single separator byte.
func cut(b []byte, sep byte) (before, after []byte, found bool) {
	if i := bytes.IndexByte(b, sep); i >= 0 {
		return b[:i], b[i+1:], true
	}
	return b, nil, false
}
