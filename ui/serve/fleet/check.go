package fleet

import (
	"cmp"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"

	"poolroids/game"
	"poolroids/game/hub"
)

// The directory is read as a client's words are: whoever can write to the
// database could otherwise draw on every player's terminal with a room's
// name, or make the members dial any address. A row that breaks a rule
// below is left out of the lobbies (and logged); the rest of the
// directory is used.

// maxRooms bounds the rooms read from the directory: a member holds at
// most its arenas and its players' games.
const maxRooms = 4096

// maxWatchers bounds a room's watcher count: more than any server allows.
const maxWatchers = 1 << 16

// checkRoom reports why r, read from the directory, is no room a member
// holds: its name is not a room's (hub.ParseName, which every name of
// the directory follows, and is fit to draw), its counts are not a
// game's, or its member's address is not one self dials (see checkHop).
func checkRoom(r Room, self string) error {
	if n, err := hub.ParseName(r.Name); err != nil || n != r.Name {
		return fmt.Errorf("name %q: %w", r.Name, hub.ErrName)
	}
	switch {
	case r.Players < 1 || r.Players > game.MaxShips:
		return fmt.Errorf("room %s: %d players", r.Name, r.Players)
	case r.Arena && (r.Size < r.Players || r.Size > game.MaxShips):
		return fmt.Errorf("arena %s: %d seats for %d players", r.Name, r.Size, r.Players)
	case r.Watchers < 0 || r.Watchers > maxWatchers:
		return fmt.Errorf("room %s: %d watchers", r.Name, r.Watchers)
	}
	if err := checkHop(r.Member, self); err != nil {
		return fmt.Errorf("room %s: %w", r.Name, err)
	}
	return nil
}

// checkHop reports why hop, a member's address as the directory gives it,
// is not one a member at self dials. It is host:port, the port a number
// from 1 to 65535, the host a DNS name or an IP address; an address is a
// unicast one, and of self's kind when self's host is an address too:
// loopback for loopback, private for private, public for public (a fleet
// is one network). So a row cannot send relays to a link-local metadata
// service, a multicast group, or out of the fleet's network.
func checkHop(hop, self string) error {
	host, port, err := net.SplitHostPort(hop)
	if err != nil {
		return fmt.Errorf("member %q: %w", hop, err)
	}
	if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
		return fmt.Errorf("member %q: port %q", hop, port)
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		if !dnsName(host) {
			return fmt.Errorf("member %q: %q is no host name", hop, host)
		}
		return nil
	}
	k := kindOf(ip)
	if k == "" {
		return fmt.Errorf("member %q: not a unicast address", hop)
	}
	if own, _, err := net.SplitHostPort(self); err == nil {
		if ownIP, err := netip.ParseAddr(own); err == nil && kindOf(ownIP) != k {
			return fmt.Errorf("member %q: a %s address, and this member's is %s", hop, k, kindOf(ownIP))
		}
	}
	return nil
}

// kindOf is the kind of network ip is on, "" for an address no member
// has.
func kindOf(ip netip.Addr) string {
	ip = ip.Unmap()
	switch {
	case ip.IsLoopback():
		return "loopback"
	case ip.IsPrivate():
		return "private"
	case ip.IsGlobalUnicast():
		return "public"
	}
	return "" // unspecified, multicast, link-local
}

// dnsName reports whether s is a host name: dot-separated labels of
// letters, digits and inner hyphens, 1 to 63 of them each, 253 in all.
func dnsName(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	label := 0
	for i := range len(s) {
		switch c := s[i]; {
		case c == '.':
			if label == 0 || s[i-1] == '-' {
				return false
			}
			label = 0
			continue
		case c == '-':
			if label == 0 {
				return false
			}
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		default:
			return false
		}
		if label++; label > 63 {
			return false
		}
	}
	return label > 0 && s[len(s)-1] != '-'
}

// errHolder is why a claim's answer is not used.
var errHolder = errors.New("the directory names a holder no member dials")

// checked returns the rooms of rooms that pass checkRoom, in place, and
// logs those left out when their number changes, not every heartbeat.
func (d *Directory) checked(rooms []Room) []Room {
	ok := rooms[:0]
	var first error
	for _, r := range rooms {
		if err := checkRoom(r, d.cfg.Hop); err != nil {
			first = cmp.Or(first, err)
			continue
		}
		ok = append(ok, r)
	}
	if n := len(rooms) - len(ok); n != d.refused {
		d.refused = n
		if n > 0 {
			d.log.Warn("fleet directory: rows left out", "count", n, "first", first.Error())
		}
	}
	return ok
}
