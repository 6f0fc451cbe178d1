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
		if got, want := strings.Count(page, `<span class="verdict v-`), len(p.Outcome.Claims)+4; got != want {
			t.Errorf("%s: %d verdict badges, want %d (4 in the tally)", p.Entry.Name, got, want)
		}
		if !strings.Contains(page, `<p class="preview" id="preview">reduced: `) || !strings.Contains(page, "a preview, not a verdict") {
			t.Errorf("%s: the reduced form's page does not say it is a preview", p.Entry.Name)
		}
		// The figures' captions say so too, and give the runs as made.
		if !strings.Contains(page, "REDUCED: ") || strings.Contains(page, "10 runs of 200 s") {
			t.Errorf("%s: a reduced figure's caption does not say it is a preview, or claims the full form's runs", p.Entry.Name)
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
		if len(p.Entry.Setup) > 0 && strings.Count(page, "<tr><td>") < len(p.Entry.Setup) || len(p.Entry.Setup) > 0 && !strings.Contains(page, `<table id="setup">`) {
			t.Errorf("%s: the setup diff is missing", p.Entry.Name)
		}
		if !strings.Contains(page, "tcplab repro "+p.Entry.Name) || !strings.Contains(page, "examples/") {
			t.Errorf("%s: the command or the scenario is missing", p.Entry.Name)
		}
	}
}

func TestAReducedReportSaysPreviewAndCountsNothing(t *testing.T) {
	dir := t.TempDir()
	pages(t, dir, "adminrto-congestion")
	b, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	index := string(b)
	for _, want := range []string{"0 paper claims checked", "1 of the entries below are reduced: a preview, not a verdict", "a preview, not a verdict"} {
		if !strings.Contains(index, want) {
			t.Errorf("index lacks %q", want)
		}
	}
}

func TestReportingOneEntryKeepsTheOthersOnTheIndex(t *testing.T) {
	dir := t.TempDir()
	pages(t, dir, "adminrto-congestion")
	pages(t, dir, "abouzeid-fig5")
	b, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"adminrto-congestion", "abouzeid-fig5"} {
		if !strings.Contains(string(b), `href="`+n+`.html"`) {
			t.Errorf("index lost %s", n)
		}
	}
	// Reporting it again replaces its row rather than adding one.
	pages(t, dir, "abouzeid-fig5")
	b, _ = os.ReadFile(filepath.Join(dir, "index.html"))
	if n := strings.Count(string(b), `href="abouzeid-fig5.html"`); n != 1 {
		t.Errorf("abouzeid-fig5 on the index %d times", n)
	}
}
