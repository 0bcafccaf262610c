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
//     tcell as presses, as they do without the protocol. Mouse, paste, focus
//     and every other sequence pass through byte for byte. A focus-out
//     report (tcell's EnableFocus turns them on) also forgets every held
//     key: releases made in another window never reach us.
//
// Sequences split across reads are put back together: the filter holds back
// an unfinished CSI sequence (at most 64 bytes) until the next read, and a
// lone trailing ESC only while the protocol is active, where the Esc key
// itself arrives as CSI 27 u. Filtering happens in place in a buffer owned
// by the [Tty]; a read allocates nothing.
//
// # Using it
//
//	inner, _ := tcell.NewDevTty()
//	tty := kitty.NewTty(inner)
//	screen, _ := tcell.NewTerminfoScreenFromTty(tty)
//	keys := tty.Keys()
//	// game loop, every step:
//	if keys.Active() {
//		left := keys.Held(kitty.Left) // real held state
//	} // else: press-only controls from tcell key events
//
// The protocol is switched on only where tcell switches it on: for terminals
// whose terminfo tcell treats as xterm-like (TERM=xterm-*, which covers
// kitty's xterm-kitty, Ghostty's xterm-ghostty and the xterm-256color of
// WezTerm and iTerm2; also alacritty). foot's own TERM=foot is not among
// them; foot users get held keys with TERM=xterm-256color.
package kitty
