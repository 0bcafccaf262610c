// Package fleet makes several poolroids servers one world: a player who
// reaches any of them sees every open arena and watchable game of them
// all, and plays or watches it wherever it is held.
//
// # The directory
//
// A [Directory] is each server's entry in a PostgreSQL database the fleet
// shares (the one that keeps its high scores): the server is a member,
// named by its hop address, and registers what it holds, its rooms (open
// arenas and watchable games, with players and watchers), every
// heartbeat. A member's entry expires when it stops beating: a server
// stopped cleanly deregisters at once, one killed drops out of every
// lobby within TTL plus a heartbeat. A member writes what changed at its
// next heartbeat and says so with NOTIFY, and every member LISTENs, so
// that lobbies follow within a heartbeat; each also reads the directory
// every heartbeat, which is how a crash is noticed. There is no directory service of the fleet's
// own making, and no gossip: the database is the one source.
//
// Room names are unique across the fleet: a server opens an arena only
// after [Directory.Claim] has written its name down as its own. A name is
// the directory's to give: when a server that could not reach the
// database for a while (its entry expired, another member claimed a name
// it holds) comes back, the directory keeps the name with the member that
// claimed it, and the server learns that its room of that name is lost
// ([Directory.Lost]): it lists it no more and sends new players to the
// holder, while the players in it play on.
//
// # Health
//
// A member that cannot reach the database logs it once, and once again
// when it is back with the count of failed heartbeats ([outage.Log]);
// [Directory.Stats] has the figures for metrics and a readiness check.
//
// # The fleet's key
//
// Every member lists the SHA256 fingerprint of the fleet's key with its
// entry ([Config].Key). A server whose key is not that of the live
// members is refused at [Open] with [ErrKeyMismatch]: its relays would
// fail only once a player chose a room elsewhere. A fleet with no live
// member takes the key of the first that starts, so a key is changed by
// restarting every member with the new one.
//
// The directory is read as a client's words are: a room whose name,
// counts or member's address break the rules of rooms and members (see
// checkRoom) is left out, and a member dials no address of another kind
// than its own hop's (loopback, private or public).
//
// # The hop
//
// SSH has no redirect, so a player stays connected to the server they
// reached, which relays their terminal to the member that holds the room
// ([Relay]) over SSH authenticated by a key every member shares: see
// [serve.Server.ServeHop] for the other end.
package fleet

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"poolroids/game/scores/outage"
)

// Room is an arena or a watchable game, as the directory lists it.
type Room struct {
	Name     string // what join or watch takes; unique in the fleet
	Member   string // the hop address of the server that holds it
	Arena    bool   // an arena, not a solo game
	Players  int
	Size     int // an arena's seats
	Watchers int
	PvP      bool
}

// Config configures a [Directory].
type Config struct {
	// URL is the PostgreSQL database, postgres://…
	URL string
	// Hop is this member's hop address, as the others dial it: its name
	// in the directory. Required.
	Hop string
	// Holdings appends to rooms what this server holds now. It is called
	// every Heartbeat, and must be quick. Required.
	Holdings func(rooms []Room) []Room
	// Heartbeat is how often the entry is renewed and the directory read
	// (0: a second).
	Heartbeat time.Duration
	// TTL is how long an entry outlives its last heartbeat (0: 5 s).
	TTL time.Duration
	// Key is the SHA256 fingerprint of the fleet's key, which every live
	// member must share ("": not checked).
	Key string
	// Logger receives the directory's troubles (nil: slog.Default()).
	Logger *slog.Logger
}

// ErrKeyMismatch is wrapped by Open's error when the live members list
// another key than Config.Key.
var ErrKeyMismatch = errors.New("fleet: this server's fleet key is not the fleet's")

// claimGrace is how long a claimed name stays this member's while its
// arena is not open yet.
const claimGrace = 10 * time.Second

// channel is the NOTIFY channel of the directory's changes.
const channel = "poolroids_fleet"

// schema is created once, under an advisory lock; its tables are unlogged:
// the directory describes the present, which a database crash ends anyway.
var schema = []string{
	`CREATE UNLOGGED TABLE IF NOT EXISTS poolroids_fleet_members (
		id      text PRIMARY KEY,
		expires timestamptz NOT NULL
	)`,
	`ALTER TABLE poolroids_fleet_members ADD COLUMN IF NOT EXISTS key text NOT NULL DEFAULT ''`,
	`CREATE UNLOGGED TABLE IF NOT EXISTS poolroids_fleet_rooms (
		name     text PRIMARY KEY,
		member   text NOT NULL REFERENCES poolroids_fleet_members (id) ON DELETE CASCADE,
		arena    boolean NOT NULL DEFAULT true,
		players  integer NOT NULL DEFAULT 0,
		size     integer NOT NULL DEFAULT 0,
		watchers integer NOT NULL DEFAULT 0,
		pvp      boolean NOT NULL DEFAULT false,
		claimed  timestamptz NOT NULL DEFAULT now()
	)`,
}

// lockKey keys the advisory lock of the schema's creation.
const lockKey = 0x666c656574 // "fleet"

// Directory is this server's entry in the fleet's directory, and its view
// of the others'. Open one with [Open]; its methods are safe for
// concurrent use and, but for Claim, never wait on the database.
type Directory struct {
	cfg  Config
	pool *pgxpool.Pool
	log  *slog.Logger
	stop context.CancelFunc
	done chan struct{}
	poke chan struct{} // a NOTIFY from another member: read again
	once sync.Once     // of Close
	down *outage.Log   // the heartbeats' outages

	mu      sync.Mutex
	others  []Room            // the other members' rooms, by name
	last    []Room            // what was last published
	lost    map[string]string // rooms held here whose names the directory gives to another member
	members int               // live members at the last read, this one included

	refused int // rows of the last read left out (run's goroutine only)
}

// Stats is a member's view of the directory, for metrics and a readiness
// check.
type Stats struct {
	Down     bool   // the last heartbeat failed
	Members  int    // live members at the last read, this one included
	Rooms    int    // rooms listed: the other members' and this one's
	Failures uint64 // heartbeats and reads that failed
}

// Open registers this server in the directory at cfg.URL, creating the
// schema if needed, and keeps the entry alive until Close.
func Open(ctx context.Context, cfg Config) (*Directory, error) {
	if cfg.Hop == "" || cfg.Holdings == nil {
		return nil, errors.New("fleet: Config.Hop and Holdings are required")
	}
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = time.Second
	}
	if cfg.TTL <= 0 {
		cfg.TTL = 5 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	pool, err := pgxpool.New(ctx, cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("fleet: %w", err)
	}
	d := &Directory{cfg: cfg, pool: pool, log: cfg.Logger, done: make(chan struct{}), poke: make(chan struct{}, 1),
		down: outage.New("fleet directory", "this server drops out of the others' lobbies")}
	d.down.SetLogger(cfg.Logger)
	if err := d.create(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	if err := d.beat(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("fleet: %w", err)
	}
	d.down.OK()
	run, stop := context.WithCancel(context.Background())
	d.stop = stop
	go d.listen(run)
	go d.run(run)
	return d, nil
}

// create creates the schema if needed and lists this member, unless the
// live members' key is another: all under one lock, so that two members
// starting with different keys cannot both be let in.
func (d *Directory) create(ctx context.Context) error {
	err := pgx.BeginFunc(ctx, d.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, lockKey); err != nil {
			return err
		}
		for _, q := range schema {
			if _, err := tx.Exec(ctx, q); err != nil {
				return err
			}
		}
		// A server that restarts on the same address takes its old entry
		// over: whatever it held died with the process.
		if _, err := tx.Exec(ctx, `DELETE FROM poolroids_fleet_members WHERE id = $1`, d.cfg.Hop); err != nil {
			return err
		}
		if d.cfg.Key != "" {
			var other, key string
			err := tx.QueryRow(ctx, `SELECT id, key FROM poolroids_fleet_members
				WHERE expires > now() AND key <> '' AND key <> $1 ORDER BY id LIMIT 1`, d.cfg.Key).Scan(&other, &key)
			switch {
			case err == nil:
				return fmt.Errorf("%w: this server's is %s, the live member %s's is %s", ErrKeyMismatch, d.cfg.Key, other, key)
			case !errors.Is(err, pgx.ErrNoRows):
				return err
			}
		}
		_, err := tx.Exec(ctx, `INSERT INTO poolroids_fleet_members (id, expires, key)
			VALUES ($1, now() + $2 * interval '1 second', $3)`, d.cfg.Hop, d.cfg.TTL.Seconds(), d.cfg.Key)
		return err
	})
	if err != nil && !errors.Is(err, ErrKeyMismatch) {
		err = fmt.Errorf("fleet: %w", err)
	}
	return err
}

// Close deregisters the server, so that it leaves every lobby at once.
// Later calls do nothing.
func (d *Directory) Close() { d.once.Do(d.close) }

func (d *Directory) close() {
	d.stop()
	<-d.done
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := d.pool.Exec(ctx, `DELETE FROM poolroids_fleet_members WHERE id = $1`, d.cfg.Hop); err == nil {
		_, _ = d.pool.Exec(ctx, `SELECT pg_notify($1, $2)`, channel, d.cfg.Hop)
	}
	d.pool.Close()
}

// Rooms returns the other members' rooms, by name. The slice is the
// caller's.
func (d *Directory) Rooms() []Room {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.others)
}

// Lost returns the member the directory gives the name of a room this
// server holds, if it gives it to another: this server's room of that
// name is then listed nowhere, and new players go to that member's (see
// the package doc). It is as the last heartbeat read.
func (d *Directory) Lost(name string) (member string, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	member, ok = d.lost[name]
	return member, ok
}

// Stats returns the member's view of the directory now.
func (d *Directory) Stats() Stats {
	d.mu.Lock()
	defer d.mu.Unlock()
	return Stats{Down: d.down.Down(), Members: d.members, Rooms: len(d.others) + len(d.last) - len(d.lost), Failures: d.down.Failures()}
}

// Elsewhere returns the hop address of the other member that holds the
// room called name, if one does, as the directory last read.
func (d *Directory) Elsewhere(name string) (member string, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	i, found := slices.BinarySearchFunc(d.others, name, func(r Room, n string) int { return strings.Compare(r.Name, n) })
	if !found {
		return "", false
	}
	return d.others[i].Member, true
}

// Claim writes name down as this member's, to open an arena of that name,
// unless a live member holds it: then it returns that member's hop
// address (this member's own when it holds it already). A claim not
// followed by the arena's opening lapses after claimGrace.
func (d *Directory) Claim(ctx context.Context, name string) (holder string, err error) {
	err = d.pool.QueryRow(ctx, `
		INSERT INTO poolroids_fleet_rooms AS r (name, member) VALUES ($1, $2)
		ON CONFLICT (name) DO UPDATE SET member = excluded.member, claimed = now(), players = 0
			WHERE r.member NOT IN (SELECT id FROM poolroids_fleet_members WHERE expires > now())
		RETURNING member`, name, d.cfg.Hop).Scan(&holder)
	if errors.Is(err, pgx.ErrNoRows) {
		err = d.pool.QueryRow(ctx, `SELECT member FROM poolroids_fleet_rooms WHERE name = $1`, name).Scan(&holder)
	}
	if err == nil && holder != d.cfg.Hop {
		if herr := checkHop(holder, d.cfg.Hop); herr != nil {
			err = fmt.Errorf("%w: %w", errHolder, herr)
		}
	}
	if err != nil {
		return "", fmt.Errorf("fleet: claiming %s: %w", name, err)
	}
	return holder, nil
}

// run beats until ctx is done.
func (d *Directory) run(ctx context.Context) {
	defer close(d.done)
	t := time.NewTicker(d.cfg.Heartbeat)
	defer t.Stop()
	for {
		var err error
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			err = d.beat(ctx)
		case <-d.poke:
			err = d.read(ctx)
		}
		switch {
		case ctx.Err() != nil:
		case err != nil:
			d.down.Failed(err)
		default:
			d.down.OK()
		}
	}
}

// beat renews the entry, publishes what changed of this server's rooms
// (and tells the others when something did), then reads the directory.
func (d *Directory) beat(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, d.cfg.Heartbeat+d.cfg.TTL/2)
	defer cancel()
	rooms := d.cfg.Holdings(nil)
	slices.SortFunc(rooms, func(a, b Room) int { return strings.Compare(a.Name, b.Name) })
	d.mu.Lock()
	changed := !slices.Equal(rooms, d.last)
	d.mu.Unlock()
	var lost map[string]string
	err := pgx.BeginFunc(ctx, d.pool, func(tx pgx.Tx) error {
		ttl := d.cfg.TTL.Seconds()
		if _, err := tx.Exec(ctx, `
			INSERT INTO poolroids_fleet_members (id, expires, key) VALUES ($1, now() + $2 * interval '1 second', $3)
			ON CONFLICT (id) DO UPDATE SET expires = excluded.expires`, d.cfg.Hop, ttl, d.cfg.Key); err != nil {
			return err
		}
		// The long dead are swept by whoever beats: their rooms go with them.
		if _, err := tx.Exec(ctx, `DELETE FROM poolroids_fleet_members WHERE expires < now() - interval '1 minute'`); err != nil {
			return err
		}
		// Every beat writes the rooms again, in case the entry was swept
		// while this server could not reach the database.
		names := make([]string, len(rooms))
		for i, r := range rooms {
			names[i] = r.Name
			if _, err := tx.Exec(ctx, `
				INSERT INTO poolroids_fleet_rooms AS r (name, member, arena, players, size, watchers, pvp)
				VALUES ($1, $2, $3, $4, $5, $6, $7)
				ON CONFLICT (name) DO UPDATE SET member = excluded.member, arena = excluded.arena,
					players = excluded.players, size = excluded.size, watchers = excluded.watchers, pvp = excluded.pvp
				WHERE r.member = excluded.member
					OR r.member NOT IN (SELECT id FROM poolroids_fleet_members WHERE expires > now())`,
				r.Name, d.cfg.Hop, r.Arena, r.Players, r.Size, r.Watchers, r.PvP); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `
			DELETE FROM poolroids_fleet_rooms WHERE member = $1 AND NOT (name = ANY ($2))
				AND claimed < now() - $3 * interval '1 second'`, d.cfg.Hop, names, claimGrace.Seconds()); err != nil {
			return err
		}
		// The rooms another member holds now, claimed while this one could
		// not reach the database: theirs.
		rows, _ := tx.Query(ctx, `SELECT name, member FROM poolroids_fleet_rooms
			WHERE name = ANY ($1) AND member <> $2`, names, d.cfg.Hop)
		lost = make(map[string]string)
		var name, member string
		if _, err := pgx.ForEachRow(rows, []any{&name, &member}, func() error {
			if checkHop(member, d.cfg.Hop) == nil { // a row naming no member's address is none
				lost[name] = member
			}
			return nil
		}); err != nil {
			return err
		}
		if !changed {
			return nil
		}
		_, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, channel, d.cfg.Hop)
		return err
	})
	if err != nil {
		return err
	}
	d.mu.Lock()
	for name, member := range lost {
		if _, was := d.lost[name]; !was {
			d.log.Warn("fleet: a room of this server's has the name of another member's, claimed while this one could not reach the directory: it is listed no more, and new players go there",
				"room", name, "holder", member)
		}
	}
	d.lost = lost
	if changed {
		d.last = rooms
	}
	d.mu.Unlock()
	return d.read(ctx)
}

// read reads the other live members' rooms.
func (d *Directory) read(ctx context.Context) error {
	rows, _ := d.pool.Query(ctx, `
		SELECT r.name, r.member, r.arena, r.players, r.size, r.watchers, r.pvp
		FROM poolroids_fleet_rooms r JOIN poolroids_fleet_members m ON m.id = r.member
		WHERE m.expires > now() AND m.id <> $1 AND r.players > 0
		ORDER BY r.name COLLATE "C" LIMIT $2`, d.cfg.Hop, maxRooms)
	others, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Room, error) {
		var r Room
		err := row.Scan(&r.Name, &r.Member, &r.Arena, &r.Players, &r.Size, &r.Watchers, &r.PvP)
		return r, err
	})
	if err != nil {
		return err
	}
	others = d.checked(others)
	var members int
	if err := d.pool.QueryRow(ctx, `SELECT count(*) FROM poolroids_fleet_members WHERE expires > now()`).Scan(&members); err != nil {
		return err
	}
	d.mu.Lock()
	d.others, d.members = others, members
	d.mu.Unlock()
	return nil
}

// listen LISTENs on a connection of its own until ctx is done, poking run
// at every other member's change; a lost connection is made again.
func (d *Directory) listen(ctx context.Context) {
	for ctx.Err() == nil {
		err := d.listenOnce(ctx)
		if ctx.Err() != nil {
			return
		}
		// The heartbeats say when the database is out of reach.
		d.log.Debug("fleet directory: listening", "err", err)
		select {
		case <-ctx.Done():
		case <-time.After(d.cfg.Heartbeat):
		}
	}
}

func (d *Directory) listenOnce(ctx context.Context) error {
	pc, err := d.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	// The connection LISTENs: it goes back to no one.
	c := pc.Hijack()
	defer c.Close(context.Background())
	if _, err := c.Exec(ctx, "LISTEN "+channel); err != nil {
		return err
	}
	for {
		n, err := c.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		if n.Payload == d.cfg.Hop {
			continue
		}
		select {
		case d.poke <- struct{}{}:
		default:
		}
	}
}
