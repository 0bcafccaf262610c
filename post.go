package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strings"

	"golang.org/x/crypto/ssh"
	"golang.org/x/term"

	"poolroids/game/daily"
	"poolroids/levels/regfile"
	"poolroids/ui/serve/dial"
)

// postMain is `poolroids post`: it sends a daily game's replay to a
// server over SSH, as the exec command post whose input is the file, and
// prints the server's answer. Exit status: 0 posted, 1 refused (the
// server says why) or not sent (the server unreachable, or its key not
// trusted), 2 for bad flags or a file it cannot read.
func postMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("poolroids post", "usage: poolroids post FILE --to [USER@]HOST[:PORT] [flags]\n\n"+
		"Posts the daily game's replay FILE (poolroids record --daily makes one) to\n"+
		"a poolroids server, as ssh -p PORT HOST post < FILE does: the server plays\n"+
		"it again and ranks what it proves on the day's board, if it is your first\n"+
		"game of the day there; a later one is practice. Your SSH key is who you\n"+
		"are on the board (see -i); without one, your name, which anyone may type.\n"+
		"Exit status: 0 posted, 1 refused (the server says why) or not sent, 2 bad\n"+
		"flags or a file it cannot read.", stderr)
	to := fs.String("to", "", "the server, `[USER@]HOST[:PORT]` (port 22 if none)")
	user := fs.String("l", "", "the `NAME` to post as: the SSH user name (default: your login name)")
	var ids files
	fs.Var(&ids, "i", "log in with the private key `FILE` only, as ssh -i FILE -o IdentitiesOnly=yes (again for more; default: the agent's keys, then ~/.ssh/id_ed25519, id_ecdsa and id_rsa)")
	useAgent := fs.Bool("agent", true, "use the ssh-agent at SSH_AUTH_SOCK")
	known := fs.String("known-hosts", "", "the known_hosts `FILE` the server's key must be in (default: ~/.ssh/known_hosts)")
	acceptNew := fs.Bool("accept-new", false, "trust a server whose key known_hosts does not hold yet, and add it there, as ssh -o StrictHostKeyChecking=accept-new does; a changed key is always refused")
	paths, code, done := parseInterspersed(fs, args, stderr)
	if done {
		return code
	}
	bad := func(format string, a ...any) int { return usageError(stderr, fs.Name(), format, a...) }
	if len(paths) != 1 {
		return bad("want one replay FILE, found %d arguments", len(paths))
	}
	if *to == "" {
		return bad("-to: which server? -to HOST:PORT")
	}
	login, addr, err := serverAddr(*to)
	if err != nil {
		return bad("-to %q: %v", *to, err)
	}
	if *user != "" {
		login = *user
	}
	if login == "" {
		login = playerName("")
	}
	path := paths[0]
	data, err := regfile.Read(path, daily.MaxBytes)
	switch {
	case errors.Is(err, regfile.ErrTooLarge):
		fmt.Fprintf(stderr, "poolroids post: %s: refused, %s: over %d bytes, the most a daily replay may take\n", path, daily.TooLarge, daily.MaxBytes)
		return 1
	case err != nil:
		fmt.Fprintf(stderr, "poolroids post: %v\n", err)
		return 2
	}

	c, err := dial.Dial(addr, dial.Config{
		User: login, Identities: ids, NoAgent: !*useAgent, KnownHosts: *known, AcceptNew: *acceptNew,
		Passphrase: askPassphrase,
		Warn:       func(s string) { fmt.Fprintln(stderr, "poolroids post: "+s) },
	})
	if err != nil {
		fmt.Fprintf(stderr, "poolroids post: %s: %v\n", addr, err)
		return 1
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	sess, err := c.NewSession()
	if err != nil {
		fmt.Fprintf(stderr, "poolroids post: %s: %v\n", addr, err)
		return 1
	}
	sess.Stdin, sess.Stdout, sess.Stderr = bytes.NewReader(data), stdout, stderr
	err = sess.Run("post")
	if ee, ok := errors.AsType[*ssh.ExitError](err); ok {
		return min(ee.ExitStatus(), 1) // the server has said why
	}
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "poolroids post: interrupted: whether the server took it, scores daily tells")
			return 1
		}
		fmt.Fprintf(stderr, "poolroids post: %s: %v\n", addr, err)
		return 1
	}
	return 0
}

// parseInterspersed parses args into fs, flags before and after the
// arguments (post FILE --to HOST), and the environment (see parseArgs),
// and returns the arguments. done reports that the command ends here with
// code: 0 after -h, 2 after a bad flag.
func parseInterspersed(fs *flag.FlagSet, args []string, stderr io.Writer) (rest []string, code int, done bool) {
	for {
		if err := fs.Parse(args); err != nil {
			code, done := argsError(fs, err, stderr)
			return nil, code, done
		}
		if fs.NArg() == 0 {
			break
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
	_, err := parseArgs(fs, nil)
	code, done = argsError(fs, err, stderr)
	return rest, code, done
}

// files is a flag given once per file.
type files []string

func (f *files) String() string { return strings.Join(*f, ",") }

func (f *files) Set(path string) error {
	*f = append(*f, path)
	return nil
}

// serverAddr splits -to's [USER@]HOST[:PORT] into the user ("": none) and
// the address to dial.
func serverAddr(to string) (user, addr string, err error) {
	if i := strings.LastIndex(to, "@"); i >= 0 {
		user, to = to[:i], to[i+1:]
	}
	host, port, err := net.SplitHostPort(to)
	if err != nil { // no port: ssh's
		host, port = strings.TrimSuffix(strings.TrimPrefix(to, "["), "]"), "22"
	}
	if host == "" || strings.ContainsAny(host, " /") {
		return "", "", errors.New("want [USER@]HOST[:PORT]")
	}
	return user, net.JoinHostPort(host, port), nil
}

// askPassphrase asks for the passphrase of the key file path on the
// terminal, as ssh does, without echo.
func askPassphrase(path string) ([]byte, error) {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("no terminal to ask its passphrase on: %w", err)
	}
	defer tty.Close()
	fmt.Fprintf(tty, "Enter passphrase for key '%s': ", path)
	pass, err := term.ReadPassword(int(tty.Fd()))
	fmt.Fprintln(tty)
	return pass, err
}
