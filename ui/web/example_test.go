package web_test

import (
	"context"
	"fmt"
	"log"

	"poolroids/ui/web"
)

// A frame carries only what changed: here the digit that changed (after a
// skip of 7 cells) and a braille cell in yellow on the next row.
func ExampleAppendFrame() {
	before := web.NewGrid(20, 2)
	before.SetText(0, 0, "score 450", web.DefaultColor, web.DefaultColor, 0)
	after := web.NewGrid(20, 2)
	after.CopyFrom(before)
	after.SetText(6, 0, "460", web.DefaultColor, web.DefaultColor, 0)
	after.Set(3, 1, web.Cell{Text: "⣿", Fg: web.PaletteColor(11)})

	msg := web.AppendFrame(nil, before, after)
	fmt.Printf("% x\n", msg)

	page := web.NewGrid(20, 2)
	page.CopyFrom(before)
	if err := page.Apply(msg); err != nil {
		log.Fatal(err)
	}
	fmt.Println(page.At(7, 0).Text, page.At(3, 1).Text, page.At(3, 1).Fg == web.PaletteColor(11))
	// Output:
	// 01 46 00 36 c1 42 c9 01 0b c2 28 00 ff
	// 6 ⣿ true
}

// A server serves the page and plays each browser's connection with its
// session; this one shows the page's path and closes on any key.
func ExampleNewHandler() {
	h, err := web.NewHandler(web.Config{
		Session: web.SessionFunc(func(ctx context.Context, c *web.Conn) error {
			g := web.NewGrid(c.Size())
			g.SetText(0, 0, "you asked for "+c.Hello().Path, web.DefaultColor, web.DefaultColor, web.Bold)
			c.Show(g)
			select {
			case <-c.Events():
				c.Close("bye")
			case <-ctx.Done():
			}
			return nil
		}),
	})
	if err != nil {
		log.Fatal(err)
	}
	defer h.Shutdown(context.Background())
	// Then serve it: http.ListenAndServe("127.0.0.1:8080", h)
}
