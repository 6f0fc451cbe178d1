// Package report writes static HTML pages for reproductions: one page per
// entry (its figures inline as SVG, each claim of the paper beside the
// measurement with its verdict, the command and the scenario that produced
// it, links to the data) and an index of all of them. The pages need no
// server and no network: they open from disk and can be archived with the
// stores and CSV files they link to.
package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tcplab/tcplab/repro"
	"github.com/tcplab/tcplab/scenario"
)

// Page is one reproduction's result as the report shows it.
type Page struct {
	Entry   *repro.Entry
	Outcome *repro.Outcome
	Command string        // the command line that reproduces it
	Runs    int           // runs behind it (stored, now and before)
	Ran     int           // of Runs, made by this invocation
	Wall    time.Duration // time this invocation spent
}

// Meta is what every page's footer says of the build and the moment.
type Meta struct {
	Version   string // tcplab's version and commit
	Generated time.Time
}

//go:embed page.html
var pageHTML string

//go:embed index.html
var indexHTML string

//go:embed style.css
var styleCSS string

var tmpl = template.Must(template.Must(template.New("page").Funcs(template.FuncMap{
	"verdictClass": func(v repro.Verdict) string { return "v-" + string(v) },
	"seconds":      func(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) },
}).Parse(pageHTML)).New("index").Parse(indexHTML))

// Write writes NAME.html for each page and index.html into dir, and
// returns the paths written. Figures and the scenario are read from the
// files the reproduction wrote; links to its data are relative, so dir
// can be moved together with the reproductions' outputs beneath it.
func Write(dir string, pages []Page, meta Meta) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var wrote []string
	rows, err := readManifest(dir)
	if err != nil {
		return nil, err
	}
	for _, p := range pages {
		v, err := viewOf(dir, p, meta)
		if err != nil {
			return wrote, fmt.Errorf("%s: %w", p.Entry.Name, err)
		}
		path := filepath.Join(dir, p.Entry.Name+".html")
		if err := render(path, "page", v); err != nil {
			return wrote, err
		}
		wrote = append(wrote, path)
		rows = keep(rows, v.row())
	}
	if err := writeManifest(dir, rows); err != nil {
		return wrote, err
	}
	path := filepath.Join(dir, "index.html")
	iv := indexView{Style: template.CSS(styleCSS), Meta: meta, Papers: groupByPaper(rows)}
	for _, r := range rows {
		if r.Preview != "" {
			iv.Previews++
			continue
		}
		iv.Total.add(r.Count)
	}
	if err := render(path, "index", iv); err != nil {
		return wrote, err
	}
	return append(wrote, path), nil
}

// manifest is the index's rows kept beside it, so that a report of one
// entry into a folder that holds others keeps them on the index.
const manifest = "index.json"

func readManifest(dir string) ([]indexRow, error) {
	b, err := os.ReadFile(filepath.Join(dir, manifest))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var rows []indexRow
	if err := json.Unmarshal(b, &rows); err != nil {
		return nil, fmt.Errorf("%s: %w (remove it to start the index afresh)", filepath.Join(dir, manifest), err)
	}
	return rows, nil
}

func writeManifest(dir string, rows []indexRow) error {
	b, err := json.MarshalIndent(rows, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, manifest), append(b, '\n'), 0o644)
}

// keep puts r among rows, in place of an older row of the same entry,
// else in name order within its paper.
func keep(rows []indexRow, r indexRow) []indexRow {
	if i := slices.IndexFunc(rows, func(o indexRow) bool { return o.Name == r.Name }); i >= 0 {
		rows[i] = r
		return rows
	}
	rows = append(rows, r)
	slices.SortStableFunc(rows, func(a, b indexRow) int {
		if c := strings.Compare(a.Paper, b.Paper); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return rows
}

func render(path, name string, v any) error {
	var b bytes.Buffer
	if err := tmpl.ExecuteTemplate(&b, name, v); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// pageView is what page.html is executed with.
type pageView struct {
	Page
	Style    template.CSS
	Meta     Meta
	Figures  []figure
	Data     []link
	Sweep    string
	Scenario string // the base scenario's text
	ScenFile string
	Count    counts
	Paper    []claimRow // the paper's claims
	Own      []claimRow // tcplab's model and sanity checks
}

// claimRow is a claim as a table row shows it.
type claimRow struct {
	repro.Claim
	KindName string
}

type figure struct {
	Name string
	SVG  template.HTML
}

type link struct{ Name, Href string }

// counts tallies paper claims by verdict, and tcplab's own checks apart.
type counts struct {
	repro.Tally
	Claims int // paper claims
}

func countOf(cs []repro.Claim) counts {
	var n counts
	n.Tally.Add(cs)
	n.Claims = n.Tally.Claims()
	return n
}

func (n *counts) add(o counts) {
	n.Tally = n.Tally.Plus(o.Tally)
	n.Claims += o.Claims
}

func viewOf(dir string, p Page, meta Meta) (pageView, error) {
	v := pageView{Page: p, Style: template.CSS(styleCSS), Meta: meta, Sweep: strings.TrimSpace(p.Entry.Sweep),
		Count: countOf(p.Outcome.Claims)}
	for _, c := range p.Outcome.Claims {
		r := claimRow{Claim: c, KindName: c.Kind.String()}
		if c.Kind == repro.PaperClaim {
			v.Paper = append(v.Paper, r)
		} else {
			v.Own = append(v.Own, r)
		}
	}
	for _, f := range p.Outcome.Figures {
		if !strings.EqualFold(filepath.Ext(f), ".svg") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return v, err
		}
		svg, err := inlineSVG(b)
		if err != nil {
			return v, fmt.Errorf("%s: %w", f, err)
		}
		v.Figures = append(v.Figures, figure{Name: filepath.Base(f), SVG: svg})
	}
	for _, f := range p.Outcome.Files {
		if ext := filepath.Ext(f); ext != ".csv" && ext != ".db" && ext != ".png" {
			continue
		}
		href, err := filepath.Rel(dir, f)
		if err != nil {
			href, _ = filepath.Abs(f)
		}
		v.Data = append(v.Data, link{Name: filepath.Base(f), Href: filepath.ToSlash(href)})
	}
	if p.Outcome.Scenario != "" {
		b, err := scenario.ReadFile(p.Outcome.Scenario)
		if err != nil {
			return v, err
		}
		v.Scenario, v.ScenFile = string(b), filepath.ToSlash(p.Outcome.Scenario)
	}
	return v, nil
}

// inlineSVG returns an SVG file's <svg> element, without the XML prolog
// and comments before it, to sit inside an HTML page.
func inlineSVG(b []byte) (template.HTML, error) {
	i := bytes.Index(b, []byte("<svg"))
	if i < 0 {
		return "", fmt.Errorf("no <svg> element")
	}
	return template.HTML(b[i:]), nil
}

// indexRow is one entry on the index (and in its manifest).
type indexRow struct {
	Name, Paper, Title, Source string
	Count                      counts
	Runs, Ran                  int
	Wall                       time.Duration
	// Preview is the reduced form's banner: such a row's verdicts are
	// shown but not counted.
	Preview string `json:",omitempty"`
}

func (v pageView) row() indexRow {
	return indexRow{Name: v.Entry.Name, Paper: v.Entry.Paper, Title: v.Entry.Title, Source: v.Entry.Source,
		Count: v.Count, Runs: v.Runs, Ran: v.Ran, Wall: v.Wall, Preview: v.Outcome.Preview}
}

type paperGroup struct {
	Paper string
	Rows  []indexRow
	Count counts
}

type indexView struct {
	Style    template.CSS
	Meta     Meta
	Papers   []paperGroup
	Total    counts // of the full entries only
	Previews int    // entries shown from the reduced form, not counted
}

func groupByPaper(rows []indexRow) []paperGroup {
	var gs []paperGroup
	for _, r := range rows {
		i := slices.IndexFunc(gs, func(g paperGroup) bool { return g.Paper == r.Paper })
		if i < 0 {
			gs = append(gs, paperGroup{Paper: r.Paper})
			i = len(gs) - 1
		}
		gs[i].Rows = append(gs[i].Rows, r)
	}
	for i := range gs {
		for _, r := range gs[i].Rows {
			if r.Preview == "" {
				gs[i].Count.add(r.Count)
			}
		}
	}
	return gs
}
