package report

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tcplab/tcplab/repro"
)

// pages runs a few reduced reproductions into dir/NAME and writes their
// report into dir.
func pages(t *testing.T, dir string, names ...string) []Page {
	t.Helper()
	var ps []Page
	for _, n := range names {
		e, err := repro.Get(n)
		if err != nil {
			t.Fatal(err)
		}
		out, rep, err := repro.Run(context.Background(), e, repro.Options{Dir: filepath.Join(dir, n), Short: true, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, Page{Entry: e, Outcome: out, Command: "tcplab repro " + n + " --short", Runs: rep.Jobs, Ran: rep.Ran, Wall: rep.Wall})
	}
	if _, err := Write(dir, ps, Meta{Version: "test", Generated: time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	return ps
}

var reportEntries = []string{"abouzeid-fig5", "abouzeid-fig7", "adminrto-congestion"}

func TestEveryPageShowsEachClaimFigureAndWorkingLinks(t *testing.T) {
	dir := t.TempDir()
	ps := pages(t, dir, reportEntries...)
	index, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	href := regexp.MustCompile(`href="([^"#]+)"`)
	for _, p := range ps {
		b, err := os.ReadFile(filepath.Join(dir, p.Entry.Name+".html"))
		if err != nil {
			t.Fatal(err)
		}
		page := string(b)
		if !strings.Contains(string(index), `href="`+p.Entry.Name+`.html"`) {
			t.Errorf("index does not link %s", p.Entry.Name)
		}
		if got, want := strings.Count(page, `<span class="verdict v-`), len(p.Outcome.Claims)+3; got != want {
			t.Errorf("%s: %d verdict badges, want %d (3 in the tally)", p.Entry.Name, got, want)
		}
		if got, want := strings.Count(page, "<svg"), len(p.Outcome.Figures); got != want || got == 0 {
			t.Errorf("%s: %d inline figures, want %d", p.Entry.Name, got, want)
		}
		if strings.Contains(page, "<?xml") {
			t.Errorf("%s: an XML prolog inside the HTML", p.Entry.Name)
		}
		for _, m := range href.FindAllStringSubmatch(page, -1) {
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(m[1]))); err != nil {
				t.Errorf("%s: broken link %s", p.Entry.Name, m[1])
			}
		}
		if !strings.Contains(page, "tcplab repro "+p.Entry.Name) || !strings.Contains(page, "examples/") {
			t.Errorf("%s: the command or the scenario is missing", p.Entry.Name)
		}
	}
}
