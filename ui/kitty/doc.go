// Package kitty gives a tcell program real held-key state where the terminal
// speaks the kitty keyboard protocol, without teaching tcell the protocol.
//
// # The problem
//
// A terminal normally sends a key once when it goes down and again, as
// auto-repeat, after a delay of 250–600 ms; it never says when the key goes
// up. A game that steers while a key is held can only guess. The kitty
// keyboard protocol (kitty, WezTerm, foot, Ghostty, recent iTerm2…) reports
// press, repeat and release events when asked, but tcell v2 reads a release
// report such as CSI 97;1:3 u as one more press of "a".
//
// # The fix
//
// [Tty] wraps the tcell.Tty that a screen is built on and sits between the
// terminal and tcell's input parser:
//
//   - On the way out it rewrites tcell's own protocol switch (CSI > 1 u,
//     written on Init and Resume) into a push of flags 31 — disambiguate (1),
//     report event types (2), report alternate keys (4), report all keys as
//     escape codes (8), report associated text (16) — followed by the query
//     CSI ? u. Flag 8 matters: without it keys that type text, WASD and space
//     among them, report no release. tcell pops the mode (CSI < u) on Fini
//     and Suspend; if it has not by the time Stop or Close is called, [Tty]
//     pops it itself, so the shell is never left in the protocol.
//   - On the way in it swallows the answer to the query (CSI ? flags u) and
//     marks [Keys.Active] once the flags in force include 2 and 8; removes
//     release reports, and repeat reports of the game keys, recording them
//     as held-key state; and rewrites press reports into bytes tcell parses
//     right (text as UTF-8, shift+Tab as back-tab, ctrl+c as a CSI u tcell
//     maps to Ctrl-C, modifier keys dropped). Repeats of other keys reach
//     tcell as presses, as they do without the protocol. Mouse, focus
//     and other whole sequences pass through byte for byte (but see below). A focus-out
//     report (tcell's EnableFocus turns them on) also forgets every held
//     key: releases made in another window never reach us.
//
// Sequences split across reads are put back together: the filter holds back
// an unfinished character or escape sequence (at most 64 bytes) until the
// next read. A pause of more than 100 ms ends it: what came was all there
// was, and it is dropped. A lone ESC that nothing follows within 50 ms
// (tcell's own escape timeout) is the Esc key: it goes to tcell at once, as
// CSI 27 u, so that Esc acts when pressed, not with the next key. What
// ended a burst of input (a read with more before it: a paste, a flood)
// waits 250 ms for its rest instead, for either. Filtering
// happens in place in a buffer owned by the [Tty]; a read allocates
// nothing but the goroutine that waits out an Esc key's read.
//
// # Input tcell cannot take
//
// tcell v2.13's input loop spins for ever on a byte that is not UTF-8
// (\xff, or \xe9 and any byte but a continuation), deaf to its own Fini;
// and its parser swallows every later key after an unfinished OSC, SOS, PM
// or APC string, grows a CSI sequence without bound, and posts a
// win32-input-mode report as many times as its repeat count says. So tcell
// gets only valid UTF-8 and whole sequences its parser ends in its ground
// state after: invalid bytes, strings, SS2, paste markers (we never ask
// for bracketed paste), CSI sequences over 64 bytes and win32 reports of an
// ESC or of more than 16 repeats are dropped, and a doubled ESC loses its
// first. Whatever a terminal or an SSH client sends, the key typed after a
// pause reaches the program.
//
// Nor can input hang the end: tcell's Fini waits for its input goroutines,
// which wait for room for what they are sending, and a paste behind the
// key that quits leaves no one to make room. A [Screen] (tcell's screen on
// the Tty) paces the input, so that it never fills tcell's event queue:
// the Tty reads 16 bytes at a time and hands tcell 8 at most, and tcell's
// reader waits while 64 events do (above the filter, whose clocks would
// otherwise take the wait for a pause of the terminal); and it drains the
// Tty and the event queue while it finalises.
//
// Nor can a flood or a busy machine turn a sequence's ESC into the Esc
// key. An ESC that ends a read waits for the rest of its sequence escWait
// (tcell's 50 ms) when it came alone, as a key pressed does, and longer
// when it ended a burst of input, whose cuts are the network's; and tcell
// never gets an ESC at the end of what it reads, where its own timer would
// start.
//
// # Using it
//
//	inner, _ := tcell.NewDevTty()
//	tty := kitty.NewTty(inner)
//	ti, _ := tcell.LookupTerminfo(os.Getenv("TERM"))
//	screen, _ := kitty.NewScreen(tty, ti)
//	keys := tty.Keys()
//	// game loop, every step:
//	if keys.Active() {
//		left := keys.Held(kitty.Left) // real held state
//	} // else: press-only controls from tcell key events
//
// Or, with no polling, keys.Forward(sink) has every change of a game key's
// held state sent to sink as it is read (Down, Up), on the goroutine that
// reads the terminal: package ui forwards them into the player's
// input.Keys, which the game reads on its step.
//
// The protocol is switched on only where tcell switches it on: for terminals
// whose terminfo tcell treats as xterm-like (TERM=xterm-*, which covers
// kitty's xterm-kitty, Ghostty's xterm-ghostty and the xterm-256color of
// WezTerm and iTerm2; also alacritty). foot's own TERM=foot is not among
// them; foot users get held keys with TERM=xterm-256color.
package kitty
