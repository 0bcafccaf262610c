// Package route takes each SSH session of a poolroids server where it asked
// to go — the lobby, an arena, a live game to watch — here or on another
// server of the fleet.
//
// # A session's route
//
// A [Router] holds one server's arenas ([hub.Hub]) and its registry of
// live games ([play.Live]), and [Router.Play] is the server's
// [serve.PlayFunc]. The session's command ([serve.Command]) chooses once
// where it goes:
//
//	(none)            the lobby (ui.PlayLobby): solo games, the arenas to
//	                  join or open, the live games to watch, the best
//	                  games' replays; it comes back there after each
//	join NAME         a seat in the arena NAME (ui.Run with a hub.Seat)
//	new NAME [--pvp]  the same, in the arena it opens
//	watch NAME        the live game NAME, read-only (ui.Watch)
//
// A command the server cannot serve (a full arena, a name taken, no such
// game, too many watchers) ends the session with [serve.RefusedError]; a
// watched game that ends, with [serve.EndError]. Every solo game is
// offered to watchers through the registry under its player's name, made
// unique.
//
// A session counts as a game against the server's limit of games per
// address (serve.Session.SetPlaying) only while it plays one here: join
// and new from their start, a game chosen in the lobby until the lobby
// shows again. The lobby, watching and replays are no games, nor a game
// played on another server of the fleet, which counts it there.
//
// # In a browser
//
// [Router.PlayWeb] is the server's serve.WebPlayFunc: the same routes on
// a browser's screen (ui's RunOn, WatchOn, PlayLobbyOn), and
// "/replay/NAME", a replay of the boards. What another server of the
// fleet holds is played there, the page relayed (fleet.RelayWeb) as a
// terminal is, a new arena asked for in its mode ("/new/NAME/pvp" as
// "new NAME --pvp"), and the lobby shows again after.
// [Router.WebPages] serves the boards at /scores and their replays.
//
// # Posts and boards
//
// [Router.Exec] is the server's [serve.ExecFunc], for the commands that
// need no terminal: post proves a daily game's replay ([daily.Verify],
// at most Config.Proofs at once) and adds it to the store's daily board
// as the session's player; scores prints a board. In a fleet every server
// shares the store's database: a game posted to any ranks once.
//
// # Across a fleet
//
// After [Router.JoinFleet] the server is a member of its fleet (package
// fleet): it lists the rooms it holds in the fleet's directory, and its
// lobbies list the other members' too. What another member holds is
// played there: the session's terminal is relayed to it over its hop
// ([fleet.Relay]), and a command's session ends as it ends there, while
// the lobby's player comes back to the lobby. An arena opens where it is
// first asked for, once the directory has written the name down as this
// server's. While the directory cannot be reached, no arena opens: a name
// another server was last seen holding is relayed there, any other is
// refused with the reason, so that no two servers ever open one name.
// An arena here whose name the directory gives another server (claimed
// while this one could not reach it) is no longer listed, and new players
// go to the other's.
// Solo games' names avoid the names held elsewhere. A session that
// another member relays here ([serve.Session.Relayed]) plays here: a
// relay is never relayed again.
package route
