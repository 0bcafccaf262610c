// Package ui plays poolroids in a terminal on a tcell screen, with tview's
// widgets: the arena on the left, the pools' side panel on the right and
// a line of key help at the bottom. [Run] is the whole of it; local play
// (package main) and every SSH session (package ui/serve/route) call it
// with their own screen. [PlayLobby] is the SSH lobby around it, [Watch]
// shows another session's game read-only, and [RunReplay] plays a replay
// file the same way.
//
// ui draws and reads keys; the game is headless, in package game/play.
// The game's flow (title, play, game over, the stress autopilot, what
// counts as a score) is package game/match's; a solo game or an arena
// seat is a play.Game, which owns the lock its match is changed under,
// the goroutine that steps a solo game, and the result of a game that
// ended, which it saves; a watcher reads a live game through a
// play.Watcher, and a replay is a play.Replay (the seek, the speed, the
// strategies held through seeks, the players' names by step).
//
// # Structure
//
//	Screen (one a connection: a terminal; a browser, ui/web) ── loop (one a connection): its events, a frame a tick
//	   │    its roots, one after another: the lobby, then a session, then the lobby again
//	   │
//	session ── scene.View(take), once a frame ── widgets: arena, panel, players, list, line
//	   │         (one play.View, whatever the game)
//	   └── show (chosen once) ── soloShow   ── play.Game (solo)  ── match
//	                              seatShow   ── play.Game (seat)  ── hub.Arena
//	                              watchShow  ── play.Watcher      ── a live Game, or an arena
//	                              replayShow ── play.Replay       ── replay.Watch
//
// A connection has one [Screen]: its display, its input and one back
// buffer (a vt.Frame) that its lobby and its games draw into in turn. A
// session lays out, draws and times every show the same way: a frame
// reads its game once, through the one play.View that a solo game, a
// seat, a game watched and a replay all give (the scene's View, under
// the game's lock, and a seat's arena's nested in it), and copies out
// of it what each widget draws (session.take): the world onto the
// arena's canvas and its header, the pools' new samples, the players
// box's lines, the strategies, a replay's status. No widget reads the
// session or the game. A show keeps only what differs: what a key does
// there, the key help, the line under the field, how it ends; it sends
// its game commands, which the game may refuse with an error the
// session shows as a notice. Nothing in the game calls ui: the keys go
// into the Game's input.Keys, and the samples its steps take of the
// pools come back in its View.
//
// The files stand in layers, each naming only those below it: text,
// glyphs, screen (Screen, the terminal, the surface widgets draw on),
// options, canvas, ships, loop, help, list, panel, raster, arena, ghost,
// players, layout, over, show, session, keys, the shows (player,
// arenaplay), run, watch, replayview, lobby, lobbyrun.
//
// # Arenas
//
// With Options.Arena, a seat of a game/hub arena, the session plays one
// ship of a world shared with other players: the arena steps it, asking
// the seat's Game for its keys before each step, and the session draws
// the world at its own size and frame rate under the arena's read lock,
// held while it copies onto its canvas. Each ship has its slot's colour
// and its player's name under it; a players box shows the arena, every
// player's score, ships and shots refused, who switched the pools last
// and when, the news of the last seconds and why a key did nothing (only
// the arena's creator switches strategies; an arena does not pause, nor
// does the stress autopilot play in it). A watcher's header names whose
// game it is; once every player has left an arena its watchers are told
// so over the field, which stands still until the arena closes and they
// are back in the lobby; their 1-0 say why they switch nothing.
//
// # Screen
//
// The arena draws the world with braille characters, 2×4 dots a cell, so
// that the ship and the jagged rocks are outlines as in the vector
// original; the player's bullets and debris are dots, coloured by kind,
// debris fading as it ages, and a saucer's shots red stars, told apart
// from the player's at a glance. The ship is drawn larger than it
// collides where the field is small, its nose's cell in reverse video, so
// that its heading reads from one frame at 80×24; a shot refused at its
// nose is marked there for a moment, in grey, under the nose and every
// shot. The players' colours keep apart from the saucer's magenta and its
// shots' red. Where the screen's character set is not UTF-8 or when asked,
// it falls back to ASCII: outlines in - | / \, the ship as an o with an
// arrow next to it, where it points, and every other character beyond
// ASCII (borders, µ, ·, the sparklines) in one ASCII form, the same
// locally and over SSH. The
// playfield keeps its 4:3 shape, scaled to the largest field of cells that
// fits (a cell being about twice as tall as wide, up to a tenth wider where
// the height limits it). The border carries the level, wave, score, lives
// and high score.
//
// The side panel shows, for the bullet and the debris pool, the strategy and
// its numbers (capacity, active, free, high-water, misses, rejects, probes
// per acquire, acquires per second, a sparkline of the fill over the last
// six seconds), the Go runtime, the frame times and the input mode; below,
// the list of the ten strategies. That is its full form; the compact one
// shows each pool's strategy, active/capacity and misses and the frame rate,
// and the hidden one leaves the arena the whole width. The size picks the
// richest form that leaves the field four fifths of its rows; v cycles them,
// but for one that would leave the field fewer rows than that (the full
// panel at 80×24), and ? lists every key over the arena. Digits 1–0, a
// click, or Tab, arrows and Enter switch the pools' strategy between two
// steps of the world, both pools or, after b, one of them; where the full
// panel would shrink the field, Tab shows the list under the compact one
// instead, and Tab or Esc takes it away. The panel's text is formatted four times a
// second, never per frame, so that it costs a remote terminal little.
//
// # Frames
//
// A solo game's world steps 60 times a second on its Game's goroutine,
// under the Game's lock, which the drawing takes to copy it; it waits
// while the terminal is too small or the key help is up (play.Game.Wait).
// The session's own lock is always taken before the Game's, never after.
// The screen is redrawn
// Options.FPS times a second by the connection's event loop in the place
// of tview's Application (see loop), never on input, so a flood of keys
// cannot raise the frame rate. Its time is Options.Clock's (the system's
// unless a test drives it: package game/clock). A
// frame allocates nothing: the canvas is reused, numbers are formatted
// into reused buffers, and text reaches the screen through Put with
// strings that already exist. Every connection has one [Screen], one back
// buffer (a vt.Frame) that its lobby and its games draw into in turn, and
// only the cells that differ from what the terminal shows are sent, by
// package vt where it can drive the terminal (256 colours, UTF-8), else
// by tcell (see terminal): a still screen costs nothing, and a cell drawn
// again as it shows is not sent, nor one changed and changed back. Every
// widget draws all of itself every frame, and knows nothing of what the
// screen shows. What keeps that cheap is the buffer's stamps: a widget
// names what it draws by a vt.Key, taken anew when that changes, and the
// buffer says whether the widget's area (a box's sides, a block of
// lines, the arena's field with its names and overlay) still holds it,
// untouched since (vt.Frame.Holds): then the widget draws nothing, or
// only what changed, where a compare of every cell would cost a server
// of many screens more in memory read than in time. Rows are made in the
// buffer's own cells when what they show changes, and a row set again
// from content the buffer holds costs a lookup (vt.Frame.SetCellsAs).
//
// # The daily game
//
// With Options.Daily a solo game is the day's daily game (play.Daily):
// its title says whether the next game counts and which ghost flies, its
// bottom border says so in play, and its game-over screen what the board
// did with the game (ghost.go). The ghost is the ship of another game of
// the day, stepped with the player's in a world of its own: the arena
// draws its outline in one faint ink under everything of the player's
// world (inkGhost) with "ghost" and its player's name by it, never its
// rocks, shots or debris; g switches it (the day's best, the player's
// own, none), f shows its pools in the panel. Watchers see it, and so
// does a replay of the game.
//
// # Keys
//
// A terminal reports key presses and, after a delay, auto-repeats; it does
// not report releases. Every source of keys writes the player's one
// input.Keys, which the game reads on each step: where the kitty keyboard
// protocol is active (Options.Keys, from package ui/kitty) the terminal
// forwards the real held state into it (Screen.Hold); elsewhere the
// session sends it the presses, and it plays them press-only: a press acts a tap of its own (a
// tap of ← turns a 21st of a turn every time, however fast the taps come,
// so that a player can aim), and a repeat for the time since the key's
// last event, up to a tap's; so holding a key turns a tap, then steadily
// from its first repeat, and letting go stops within a tap.
//
// In a game of the player's own, q and x (which leave it) ask first on the
// field's border: the same key again, or y, answers; n or Esc withdraws
// the question. A solo game waits until it is answered; an arena plays
// on, and the question says so, counts its three seconds down, then says
// it lapsed. A game the player leaves,
// however, goes on the score table when it counts, as one that ended does.
// The game-over screen stays three seconds at the least, deaf to space
// for the first two (see match.OverHold).
package ui
