// Package web plays poolroids in a browser: a page of its own (HTML, CSS
// and JavaScript embedded in the binary, no third-party script, no build
// step) draws a grid of cells that the server sends over a WebSocket, and
// sends back the keys as they go down and up. To a game it is one more
// kind of screen: a [Grid] of cells to draw on, shown with [Conn.Show],
// and a stream of [Event]s.
//
// A [Handler] serves the page at "/", "/watch/NAME", "/join/ARENA" and
// "/replay/NAME", its socket at "/ws", and the server's own pages (its
// boards at "/scores") through [Handler.Fallback]. Each connection is
// played by the [Session] of its [Config], which learns from the page's
// [Hello] what was asked for (the path), by whom (the name in the page's
// name field, the client's address) and at what size. A [Screen] is a
// Conn as package ui draws on a terminal: the lobby, the games, watching
// and replays play on it unchanged (package ui/serve runs them so, beside
// SSH).
//
// # Frames
//
// The server sends each frame as what changed since the last one the page
// was sent, in cells: [AppendFrame] writes the difference between two
// grids, and [Grid.Apply] is what the page does with it. A frame is one
// binary message, the byte MsgFrame and then operations, each a byte
// whose top bits say what it is and whose low bits often carry a count:
//
//	0x00–0x3F  cells   n = 1 + low 6 bits cells follow, a byte each: code point page·256 + byte
//	0x40–0x5F  skip    move right over 1 + low 5 bits cells, which stay as they are
//	0x60–0x7F  blank   1 + low 5 bits blank cells
//	0x80–0xBF  repeat  1 + low 6 bits times the cell of the byte that follows
//	0xC0       goto    row, column (uvarints)
//	0xC1       next    the first column of the next row
//	0xC2       page    the page (uvarint)
//	0xC3       text    a cell of any cluster: its length (a byte) and UTF-8
//	0xC4       wide    the same, two columns wide (the cell right of it is covered)
//	0xC5       size    width, height (uvarints): the grid is now that many blank cells; first if at all
//	0xC8–0xCF  style   bits 0, 1, 2 say which of foreground, background, attributes follow
//
// A colour is a byte 0 (the default), 1 and a palette index, or 2 and red,
// green, blue; attributes a byte of [Attr] bits. Each message starts at
// the top left, in the default colours, on page 0, and a cell takes the
// current colours. So a cell of braille (page 0x28), box drawing (0x25) or
// ASCII (0) costs one byte within a run of its page, a run of cells alike
// two bytes, a change of colour three, a move one to three, where a
// terminal is sent three bytes for a braille cell, eleven for a colour and
// up to eight for a move (the tests' BenchmarkFrame sets the two side by
// side). A frame the page shows already is not sent at all.
//
// The server's other messages: MsgTitle and the page's title (UTF-8),
// MsgBye and why the connection ends (UTF-8, shown to the player before
// the socket closes with a status code), MsgPong and a ping's 4 bytes.
//
// # Input
//
// The page sends binary messages, numbers little-endian:
//
//	MsgHello   version, columns (2 bytes), rows (2), path (a length byte, UTF-8), name (the same)
//	MsgKey     flags (bit 0 down, bits 1–4 Shift, Ctrl, Alt, Meta), key (4 bytes, a [Key])
//	MsgText    UTF-8: text pasted into the page
//	MsgResize  columns (2), rows (2)
//	MsgPing    4 bytes, sent back in a pong
//	MsgName    UTF-8: the player's new name
//
// A key goes down once however long it is held (the browser's repeats
// are not sent) and up once; a page that loses the focus lets go of every
// key. The page sizes its font so that its grid is at least 80×24 and at
// most 200×60 where the window allows, and says when that grid changes,
// at most every 150 ms. A page left for another closes its socket, even
// one the browser keeps to show again, which then connects anew.
//
// Every message is checked whole before it is used: its type, its length,
// every field in its range, text as UTF-8 without control characters. A
// message that fails closes the connection with the reason (a
// [ProtocolError]'s), as do a message over [MaxMessage] bytes, a text
// message, more than 100 keys, 20 resizes or 5 pings in a second, a hello
// that is not first or not within [Config.HelloTimeout], and a silence
// of [Config.ReadTimeout]. Resizes between two frames count as one: the
// session reads the last.
//
// # Relays
//
// A page may be played by another server (of a fleet, over SSH): its
// server lends it with [Conn.Relay], which sends the other server the
// page's hello, keys, text, names and resizes as the page sent them, and
// the page the other server's frames and titles as they come; the other
// server plays it with [Handler.ServeStream], a Conn like any other but
// that its messages go over a byte stream, each after its 4-byte
// big-endian length. Neither decodes the frames: the page shows what the
// other server's Screen sent it, and once the relay is over its own
// server sends its newest frame whole.
//
// # Costs
//
// [Conn.Show] copies the grid and returns: a goroutine of the Conn sends
// it when the socket can take it, as the difference from what the page
// was sent. A slow page gets fewer frames, the newest, and a page that
// takes nothing for [Config.WriteTimeout] is dropped; the game and the
// other players never wait for it. A frame allocates nothing: the grids
// and the message buffer are reused. A [Screen]'s frames cost the cells
// that changed, not the grid: its grid marks the columns set in each
// row, and only those are copied and compared with what the page shows.
package web
