// Package serve is an SSH server on which every connection plays its own
// game: `ssh -p 2222 host` and the player is in.
//
// # A session
//
// A client that asks for a terminal (pty-req) and a shell gets a tcell
// screen built for its terminal and handed to [Config.Play]: the terminfo
// entry of the client's TERM (xterm-256color when unknown), 24-bit colour
// when its COLORTERM says so, braille when its LANG/LC_* is UTF-8 or unset
// ([Session.ASCII] otherwise, and every rune beyond ASCII in the output,
// tview's borders included, is replaced on its way to the client).
// Nothing is read from the server's own
// environment: [New] removes TERM, COLORTERM, LANG and the rest from it,
// because tcell would consult them for every screen.
//
// The screen sits on a small tcell.Tty over the SSH channel: input is
// pumped from the channel by one goroutine and handed to tcell's reader, so
// that Drain wakes a reader waiting on a silent client and Fini never hangs.
// The screen (kitty.Screen) paces the input so that it never fills
// tcell's event queue (tcell's Fini would then wait forever: "q" followed
// by a pasted flood did it).
// Window-change requests are read as they come, clamped to
// [MinWidth]..[MaxWidth] × [MinHeight]..[MaxHeight] (tcell keeps ~192 bytes
// a cell) and passed to the game at most 50 times a second, the latest
// size each time; past a window drag's pace (120 at once, then 60 a
// second) each one is a refused request too (see Limits). The Tty is
// wrapped in the kitty keyboard filter, as for local play, so held keys
// work over SSH where the terminal supports it.
//
// # Commands
//
// A shell request (`ssh -t -p 2222 host`) is the lobby. An exec request may
// name one of these commands ([ParseCommand]), and [Session.Command] says
// which:
//
//	join NAME        play in the arena NAME, opening it if none is open
//	new NAME [--pvp] open the arena NAME (co-op, or player against player)
//	watch NAME       watch the live game NAME read-only: an arena, or a
//	                 solo game by its player's name as the lobby lists it
//	post             prove and rank the daily game whose replay is the
//	                 input (ssh host post < game.prpl); no terminal
//	scores [BOARD]   print a board: daily [DAY], today, week or all; no
//	                 terminal
//
// Post and scores are answered by [Config.Exec], with or without a
// terminal, and end: see exec.go for their bounds (a post's size, time
// and rate per key and address).
//
// NAME is 1 to 16 of a-z, 0-9, - and _ (capitals are lowered). A command
// the Play func will not serve (a full arena, a game with too many
// watchers) ends with [RefusedError]'s message and exit status 1; one that
// ended by itself (the watched game is over) with [EndError]'s and 0.
//
// Anything else is refused: a game without a terminal, or any other
// command, gets a one-line explanation and exit status 1; subsystems
// (sftp), agent and X11 forwarding, port forwarding both ways, and a second
// session on one connection are refused. There is no shell.
//
// # Limits
//
//   - MaxSessions sessions at once, in the lobby, watching or playing; the
//     next player is told "server full (32 at once), try later". One
//     address (an IPv6 /64) may have MaxSessionsPerAddress of them, and
//     play MaxPerAddress games in them: a session is a game while the
//     Play func says so ([Session.SetPlaying]). Each refusal names the
//     limit it hit.
//   - A connection is starting from its accept until its session starts:
//     in the handshake, logging in, or logged in and asking for a session.
//     Starting connections have their own bound, apart from the sessions, as
//     OpenSSH's MaxStartups: from MaxStartups.Start on a new one is dropped
//     with probability Rate%, rising to 100% at Full (10:30:100). One
//     address may have MaxStartupsPerAddress of them (4), fewer than Start:
//     one address alone can make the server drop only its own.
//   - The handshake and login must finish within LoginTimeout (10 s); a
//     logged-in connection that has not asked for a game within
//     StartTimeout (5 s) is closed.
//   - Each address may connect ConnPerMinute times a minute after a burst;
//     the table of addresses is bounded.
//   - A connection may have MaxRefused requests or channels refused in a
//     burst, then as many a minute (100); one more closes it.
//   - Idle: the player's input, not the game's output, keeps a session
//     alive, except while it watches ([Session.SetWatching]). MaxTime
//     bounds a session whatever happens.
//   - A panic in Play, or in a goroutine it starts with [Session.Go], is
//     logged with its stack and ends that session only.
//
// When a game ends — quit, disconnect, limit, shutdown — its screen is
// finalised, its goroutines and timers stop, and the player is told why.
// A game that does not return within 2 s of being told to end has its
// connection cut.
//
// # In a browser
//
// [Server.ServeWeb] serves the game to browsers on a listener of its own
// (package ui/web: the page, its socket, and [Config.WebPages] for the
// rest), each session played by [Config.PlayWeb] on a web Screen. A
// browser's session is an SSH session's peer under the same limits: it
// counts among the sessions and, while it plays, the games of its
// address; its socket takes a connection from the address's
// ConnPerMinute budget (one budget with SSH) and counts against
// MaxStartups as it starts; Idle (the player's keys) and MaxTime end it;
// its name goes through [CleanName]; its path is its command
// ("/join/NAME", "/watch/NAME", "/replay/NAME", "/" the lobby, and
// "/new/NAME[/pvp]", which another server's lobby relays). The page
// is told why it ended. Drain closes the web listeners with the others,
// and Shutdown ends the browsers' sessions, telling each page. Behind
// the balancers of Config.ProxyFrom, the client's address is the one a
// PROXY header (optional there) or X-Forwarded-For gives; from anyone
// else neither is believed. [Session.Web] is set: a browser's page is
// relayed to another server with [Session.RelayWeb] (see [WebRequest]),
// not its terminal.
//
// # Behind a load balancer
//
// [Config.ProxyFrom] names the balancers that open each connection with a
// PROXY protocol header (v1 or v2, HAProxy's send-proxy): the client's
// address it carries is then the one every limit, refusal and log line
// sees. A balancer's connection without a header is refused, and so is a
// header from any other address: a client could otherwise pick its
// address and dodge every per-address limit. The limits come before the
// header: a connection from any other address counts against its own as
// it is accepted, a balancer's against MaxStartups, then against its
// client's address once its header names it; so those over a limit are
// closed at once, and no flood is held outside them. The header is read
// on a goroutine of the connection's own, within LoginTimeout of the
// accept, so a slow one holds up no other. A balancer's health check (a
// connection that hangs up before a byte, or after a header that relays
// no client: PROXY v2's LOCAL, which HAProxy's checks send with
// send-proxy-v2) is closed quietly: no refusal, no rate limit spent.
//
// # Stopping
//
// [Server.Drain] stops taking connections (the listeners close, so a
// balancer's checks fail and it sends players elsewhere) while the games
// go on; [Server.Shutdown] then ends them.
//
// # In a fleet
//
// Servers of a fleet share their arenas and games (package fleet keeps
// their directory): the server a player reached relays their terminal to
// the one that holds what they chose ([Session.Relay] lends it), over SSH
// to that server's hop listener ([Server.ServeHop]). Both ends
// authenticate with the fleet's one key ([Config.FleetKey]): it is the hop
// listener's host key and the only key it lets in, so that a player, who
// never has it, cannot reach the hop, and a relay talks to no impostor.
// Those who reach its port anyway hold little: an address may have 8
// connections in their handshake there (64 from all), and open 10 a
// second after a burst of 30.
// Before it asks for a terminal, a relay names its player with a
// [HopRequest]; the session then counts against the player's address,
// not the relay's, for the games and logins per address, and the log
// names it. The rest is an ordinary session.
//
// # Authentication
//
// Open by default, as public SSH games are: any public key (its SHA256
// fingerprint, [Session.Fingerprint], then owns the player's high scores
// with their name),
// or keyboard-interactive with no questions for a client without a key.
// [Config.AuthorizedKeysPath] restricts the server to the keys listed.
// There are no passwords. The ed25519 host key is created on first start
// and reused after ([LoadOrCreateHostKey]). A key of one's own may be
// ed25519, ECDSA or RSA of 2048 bits or more; a weaker one is refused, and
// one that others than its owner may read is used with a warning in the
// log. A player's name is cleaned as every name others see
// ([CleanName]).
//
// # Logs
//
// Structured, through log/slog: "connect", "game start", "disconnect"
// (duration, score, reason), "rejected" (reason), "panic" (stack).
// Refusals are not allowed to flood it: the first of a kind from an
// address is logged at once, the ones that follow as one "rejected" line
// per kind and address every RefusalSummary (a minute), with their count.
// [Config.Observer] is told the same events, for metrics.
package serve
