package admin_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// browser is a headless Chromium tab for one test. A failed step saves a PNG screenshot in the
// test's temp dir, or in $FRONTDESK_TEST_SCREENSHOTS/<test name>/ if set; with that set, every
// step saves one (a full-page PNG per step is most of a browser test's CPU, so only on request).
// Any JavaScript error or Content-Security-Policy violation on a page fails the test.
type browser struct {
	t       *testing.T
	ctx     context.Context
	dir     string
	keep    bool // every step's screenshot is kept ($FRONTDESK_TEST_SCREENSHOTS)
	step    int
	mu      sync.Mutex
	console []string
}

// chromiumPath finds Debian's chromium: $CHROMIUM, /usr/bin/chromium, or chromium on PATH.
// Without it the browser tests skip on a laptop but fail in CI (CI=true).
func chromiumPath(t *testing.T) string {
	t.Helper()
	candidates := []string{os.Getenv("CHROMIUM"), "/usr/bin/chromium"}
	if p, err := exec.LookPath("chromium"); err == nil {
		candidates = append(candidates, p)
	}
	for _, p := range candidates {
		if p == "" {
			continue
		}
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium not found ($CHROMIUM, /usr/bin/chromium, PATH); CI must install it (apt-get install chromium)")
	}
	t.Skip("chromium not found; install it (apt-get install chromium) or set $CHROMIUM to run the browser tests")
	return ""
}

// newBrowser starts Chromium with a viewport of width×height CSS pixels; pass
// chromedp.EmulateMobile to be a phone (then the page's viewport meta decides the layout
// width, as on a real phone).
func newBrowser(t *testing.T, width, height int, opts ...chromedp.EmulateViewportOption) *browser {
	t.Helper()
	exe := chromiumPath(t)
	dir := t.TempDir()
	keep := os.Getenv("FRONTDESK_TEST_SCREENSHOTS")
	if keep != "" {
		dir = filepath.Join(keep, strings.ReplaceAll(t.Name(), "/", "_"))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The flags keep Chromium from reaching for the network on its own: this machine has
	// none, and background fetches otherwise stall it.
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.WindowSize(width, height),
	)
	ctx, cancel := chromedp.NewContext(allocCtx)
	b := &browser{t: t, ctx: ctx, dir: dir, keep: keep != ""}
	var wg sync.WaitGroup
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
		wg.Wait()
	})
	// The first call starts the browser and ties its life to the context it gets, so it gets
	// the test's context, not one with a timeout.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	logs := chromedp.Events(ctx, cdplog.EntryAdded)
	exceptions := chromedp.Events(ctx, runtime.ExceptionThrown)
	wg.Add(2)
	go func() {
		defer wg.Done()
		for ev, err := range logs {
			if err != nil {
				return
			}
			// Failed loads of 4xx answers (a form re-rendered with 422) are expected.
			if ev.Entry.Level == cdplog.EntryLevelError && ev.Entry.Source != cdplog.EntrySourceNetwork {
				b.addConsole(fmt.Sprintf("%s: %s (%s)", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL))
			}
		}
	}()
	go func() {
		defer wg.Done()
		for ev, err := range exceptions {
			if err != nil {
				return
			}
			b.addConsole("exception: " + ev.ExceptionDetails.Text)
		}
	}()
	if _, err := chromedp.Call(ctx, cdplog.Enable, cdp.Empty{}); err != nil {
		t.Fatalf("enable log domain: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), int64(height), opts...)); err != nil {
		t.Fatalf("viewport: %v", err)
	}
	return b
}

func (b *browser) addConsole(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.console = append(b.console, s)
}

// do runs one named step, then screenshots the page and checks the console.
func (b *browser) do(name string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.screenshot(name + "-failed")
		b.t.Fatalf("step %q: %v", name, err)
	}
	b.record(name)
	b.checkConsole(name)
}

// eval evaluates a JavaScript expression on the current page.
func evalJS[T any](b *browser, expr string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		b.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// text returns the text of the first element matching a CSS selector.
func (b *browser) text(sel string) string {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		b.t.Fatalf("text of %s: %v", sel, err)
	}
	return strings.TrimSpace(s)
}

// present reports whether an element matches a CSS selector now.
func (b *browser) present(sel string) bool {
	b.t.Helper()
	return evalJS[bool](b, fmt.Sprintf("document.querySelector(%q) !== null", sel))
}

// record screenshots a step that went well, when screenshots are kept.
func (b *browser) record(name string) {
	b.t.Helper()
	if b.keep {
		b.screenshot(name)
	}
}

// screenshot saves the page as it is now, to look at why a step failed.
func (b *browser) screenshot(name string) {
	b.t.Helper()
	b.step++
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Errorf("screenshot %s: %v", name, err)
		return
	}
	file := filepath.Join(b.dir, fmt.Sprintf("%02d-%s.png", b.step, name))
	if err := os.WriteFile(file, png, 0o644); err != nil {
		b.t.Errorf("save screenshot: %v", err)
	}
}

func (b *browser) checkConsole(step string) {
	b.t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, msg := range b.console {
		b.t.Errorf("step %q: browser console: %s", step, msg)
	}
	b.console = nil
}

// css selects by CSS; tests use data-testid attributes where they can.
func css(sel string) chromedp.CSS { return chromedp.CSS(sel) }

func testID(id string) chromedp.CSS { return chromedp.CSS(fmt.Sprintf("[data-testid=%q]", id)) }
