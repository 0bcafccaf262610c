package serve

import (
	"errors"
	"net"

	"golang.org/x/crypto/ssh"
)

// command reads what a shell or exec request asks for: a shell is the
// lobby; an exec request must be one of the commands ParseCommand knows.
// Anything else is refused with a line that shows a command that works.
func (c *conn) command(req *ssh.Request) (Command, *ending) {
	if req.Type != "exec" {
		return Command{}, nil
	}
	var line struct{ Command string }
	if ssh.Unmarshal(req.Payload, &line) != nil {
		return Command{}, endExec
	}
	port := 0
	if a, ok := c.nc.LocalAddr().(*net.TCPAddr); ok {
		port = a.Port
	}
	cmd, err := ParseCommand(line.Command, port)
	if err != nil {
		return Command{}, &ending{reason: "exec refused", message: "poolroids runs no commands but these: " + err.Error()}
	}
	return cmd, nil
}

// RefusedError is an error a Play func returns when it will not play what
// the player asked for (a full arena, a taken name): the player is told
// Message, and the session ends with status 1.
type RefusedError struct{ Message string }

func (e *RefusedError) Error() string { return "refused: " + e.Message }

// EndError is an error a Play func returns when what the player asked for
// ended by itself (the watched game is over): the player is told Message,
// and the session ends with status 0.
type EndError struct{ Message string }

func (e *EndError) Error() string { return "ended: " + e.Message }

// told returns how a Play error that tells the player why ends the
// session: a RefusedError with status 1, an EndError with status 0; nil
// for any other error.
func told(err error) (*ending, uint32) {
	if r, ok := errors.AsType[*RefusedError](err); ok {
		return &ending{reason: "refused", message: r.Message}, 1
	}
	if e, ok := errors.AsType[*EndError](err); ok {
		return &ending{reason: "ended", message: e.Message}, 0
	}
	return nil, 0
}
