package route_test

import (
	"context"
	"fmt"
	"net"

	"poolroids/ui/serve"
	"poolroids/ui/serve/route"
)

// A server hands every session to its Router's Play; a command it cannot
// serve is refused before anything is drawn.
func ExampleRouter_Play() {
	r, err := route.New(route.Config{})
	if err != nil {
		panic(err)
	}
	defer r.Close()
	_ = serve.Config{Play: r.Play} // how a server is wired to it

	s := serve.Session{
		Name:       "ann",
		RemoteAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)},
		Command:    serve.Command{Verb: serve.VerbWatch, Name: "bob"},
	}
	_, err = r.Play(context.Background(), nil, s)
	fmt.Println(err)
	// Output: refused: no live game of that name: bob
}
