// Package webtest drives the game's page (package ui/web) in a real
// browser for the tests: Debian's headless Chromium, which .ci/run
// installs, through chromedp.
package webtest

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// Browser starts a headless Chromium for the test and returns its first
// tab, at 1280×800 once a page is loaded with [Open]. Without one the test
// is skipped, except under CI=true, where it fails. Its Cleanup stops the
// browser.
func Browser(t testing.TB) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium is not installed: .ci/run installs it")
		}
		t.Skip("chromium is not installed")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(cancelTab)
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		t.Fatalf("starting %s: %v", path, err)
	}
	return ctx
}

// Tab opens another tab of the browser of tab, closed when the test ends.
func Tab(t testing.TB, tab context.Context) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(tab)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	return ctx
}

// Run runs a on tab, failing the test if it fails or takes 20 s.
func Run[T any](t testing.TB, tab context.Context, what string, a chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// Open loads url in tab at 1280×800 and waits for the page's first frame.
func Open(t testing.TB, tab context.Context, url string) {
	t.Helper()
	Run(t, tab, "loading "+url, chromedp.Steps(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(url)))
	Run(t, tab, "the first frame of "+url, chromedp.Poll[bool](`poolroids.state().draws > 0`))
}

// Grid is the page's grid as its test hook (poolroids.grid()) gives it:
// each cell's text, colours and attributes, row after row.
type Grid struct {
	W, H               int
	Text               []string
	Fg, Bg, Attr, Wide []uint32
}

// Lines returns the grid's text, a line a row, covered cells and trailing
// blanks left out.
func (g Grid) Lines() []string {
	lines := make([]string, g.H)
	for y := range g.H {
		var b strings.Builder
		for x := 0; x < g.W; x++ {
			i := y*g.W + x
			t := g.Text[i]
			if t == "" {
				t = " "
			}
			b.WriteString(t)
			if g.Wide[i] != 0 {
				x++
			}
		}
		lines[y] = strings.TrimRight(b.String(), " ")
	}
	return lines
}

// String is the grid's lines joined.
func (g Grid) String() string { return strings.Join(g.Lines(), "\n") }

// Read returns the page's grid now.
func Read(t testing.TB, tab context.Context) Grid {
	t.Helper()
	return Run(t, tab, "reading the grid", chromedp.Evaluate[Grid](`poolroids.grid()`))
}

// WaitText polls the page's grid until ok holds for its text, failing the
// test with what it shows after 20 s, and returns that text.
func WaitText(t testing.TB, tab context.Context, what string, ok func(string) bool) string {
	t.Helper()
	var text string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if text = Read(t, tab).String(); ok(text) {
			return text
		}
	}
	t.Fatalf("waiting for %s; the page shows:\n%s", what, text)
	return ""
}

// keyParams are the events of a key as a keyboard sends them: a character
// ("a", " ", "Q" with Shift) or a key by the browser's name ("ArrowLeft",
// "Enter", "Escape", "Tab").
func keyParams(key string) input.DispatchKeyEventParams {
	codes := map[string]int64{"ArrowLeft": 37, "ArrowUp": 38, "ArrowRight": 39, "ArrowDown": 40, "Enter": 13, "Escape": 27, "Tab": 9, "Backspace": 8}
	if vk, ok := codes[key]; ok {
		p := input.DispatchKeyEventParams{Key: key, Code: key, WindowsVirtualKeyCode: vk}
		if key == "Enter" {
			p.Text = "\r"
		}
		return p
	}
	if key == " " {
		return input.DispatchKeyEventParams{Key: key, Code: "Space", Text: key, WindowsVirtualKeyCode: 32}
	}
	upper := strings.ToUpper(key)
	p := input.DispatchKeyEventParams{Key: key, Code: "Key" + upper, Text: key, WindowsVirtualKeyCode: int64(upper[0])}
	if key >= "0" && key <= "9" {
		p.Code = "Digit" + key
	}
	if key != strings.ToLower(key) {
		p.Modifiers = 8 // Shift
	}
	return p
}

// Key sends key going down (an auto-repeat if repeat) or up.
func Key(key string, down, repeat bool) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		p := keyParams(key)
		p.Type = input.DispatchKeyEventTypeKeyUp
		if down {
			p.Type = input.DispatchKeyEventTypeKeyDown
			p.AutoRepeat = &repeat
		} else {
			p.Text = ""
		}
		_, err := cdp.Call(ctx, t, input.DispatchKeyEvent, p)
		return err
	})
}

// Tap presses and lets go of each key in turn.
func Tap(keys ...string) chromedp.Action[chromedp.Void] {
	var steps []chromedp.Action[chromedp.Void]
	for _, k := range keys {
		steps = append(steps, Key(k, true, false), Key(k, false, false))
	}
	return chromedp.Steps(steps...)
}
