package report

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

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// browser finds a Chromium or Chrome; the test is skipped without one
// (.ci/run installs Chromium from the distribution's packages).
func browser(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no Chromium or Chrome on PATH")
	return ""
}

// The report opens from disk in a real headless browser: every page loads
// without a console error or an uncaught exception, every figure is drawn
// with a non-zero size, and the claims table has a row per claim. The
// screenshots go to $TCPLAB_SCREENSHOTS when set (else a temporary
// directory).
func TestReportRendersInAHeadlessBrowser(t *testing.T) {
	exe := browser(t)
	dir := t.TempDir()
	ps := pages(t, dir, reportEntries...)
	shots := os.Getenv("TCPLAB_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.WindowSize(1200, 900))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	var mu sync.Mutex
	var problems []string
	ctx, cancel := chromedp.NewContext(actx, chromedp.WithListener(func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
				problems = append(problems, fmt.Sprintf("console %s", ev.Type))
			}
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+ev.ExceptionDetails.Text)
		}
	}))
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	reported := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), problems...)
	}

	load := func(name string, shot string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Navigate("file://"+filepath.Join(dir, name)),
			chromedp.WaitReady(chromedp.CSS("footer"))); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(90))
		if err != nil {
			t.Fatalf("%s: screenshot: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(shots, shot), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	load("index.html", "report-index.png")
	links := evaluate(t, ctx, `document.querySelectorAll("a[href$='.html']").length`)
	if links != len(ps) {
		t.Errorf("index links %d pages, want %d", links, len(ps))
	}
	for _, p := range ps {
		load(p.Entry.Name+".html", "report-"+p.Entry.Name+".png")
		drawn := evaluate(t, ctx, `[...document.querySelectorAll("figure svg")].filter(s => { const r = s.getBoundingClientRect(); return r.width > 100 && r.height > 100 }).length`)
		figures := evaluate(t, ctx, `document.querySelectorAll("figure").length`)
		// The paper's claims and tcplab's own checks, each table less its
		// header row.
		rows := evaluate(t, ctx, `[...document.querySelectorAll("#claims, #checks")].reduce((n, tb) => n + tb.querySelectorAll("tr").length - 1, 0)`)
		if figures == 0 || drawn != figures {
			t.Errorf("%s: %d of %d figures drawn", p.Entry.Name, drawn, figures)
		}
		if rows != len(p.Outcome.Claims) {
			t.Errorf("%s: %d claim rows, want %d", p.Entry.Name, rows, len(p.Outcome.Claims))
		}
	}
	if p := reported(); len(p) > 0 {
		t.Errorf("browser reported: %s", strings.Join(p, "; "))
	}
	// The listener hears the console: a probe error is reported.
	evaluate(t, ctx, `console.error("probe"), 1`)
	for deadline := time.Now().Add(5 * time.Second); len(reported()) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("a console error went unheard: the check above cannot fail")
		}
	}
	t.Logf("screenshots in %s", shots)
}

// evaluate runs a JavaScript expression with an integer result in the page.
func evaluate(t *testing.T, ctx context.Context, js string) int {
	t.Helper()
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return n
}
