package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A README command, where it was found.
type docCommand struct {
	line int
	text string
}

// readmeCommands returns the commands the README shows: every line of a
// fenced block (other than YAML and JSON) that starts with tcplab, go,
// sh or scripts/ (joined across trailing backslashes), and every inline
// code span that does, split at " ; ".
func readmeCommands(t *testing.T) []docCommand {
	t.Helper()
	f, err := os.Open("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	starts := regexp.MustCompile(`^(TCPLAB_\w+=\S+ )*(tcplab( |$)|go (run|test|vet) |sh |scripts/)`)
	inline := regexp.MustCompile("`([^`]+)`")
	var out []docCommand
	add := func(line int, text string) {
		for _, c := range strings.Split(text, " ; ") {
			if c = strings.TrimSpace(c); starts.MatchString(c) {
				out = append(out, docCommand{line, c})
			}
		}
	}
	sc := bufio.NewScanner(f)
	fence, lang, cont := false, "", ""
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if strings.HasPrefix(l, "```") {
			fence, lang = !fence, strings.TrimPrefix(l, "```")
			continue
		}
		if fence {
			if lang == "yaml" || lang == "json" {
				continue
			}
			if cont != "" {
				l = cont + " " + strings.TrimSpace(l)
				cont = ""
			}
			if s, ok := strings.CutSuffix(strings.TrimRight(l, " "), `\`); ok {
				cont = s
				continue
			}
			add(n, l)
			continue
		}
		for _, m := range inline.FindAllStringSubmatch(l, -1) {
			add(n, m[1])
		}
	}
	return out
}

// placeholder matches what makes a command a synopsis rather than one to
// run: FILE, PATH=VALUE, I/N, [optional], a|b, ..., $VARIABLE.
var placeholder = regexp.MustCompile(`(^|[\s=/])[A-Z][A-Z_]*($|[\s=/])|[\[\]|$]|\.\.\.`)

// Every command in the README works: synopses name real subcommands and
// flags, concrete commands run successfully in README order from an empty
// directory (repro and report in their reduced form, fuzz with at most 20
// scenarios), `go test -run X` names tests that exist, and the scripts
// named are there. The README cannot go stale without this failing.
func TestEveryReadmeCommandWorks(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every README command")
	}
	bin := tcplabBinary(t)
	work := t.TempDir()
	env := append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	cmds := readmeCommands(t)
	if len(cmds) < 30 {
		t.Fatalf("found only %d commands in the README: is the extraction broken?", len(cmds))
	}
	var ran, checked int
	for _, c := range cmds {
		text := strings.TrimSpace(regexp.MustCompile(`\s+#.*$`).ReplaceAllString(c.text, ""))
		text = strings.Replace(text, "go run ./cmd/tcplab", "tcplab", 1)
		words := strings.Fields(text)
		bare := regexp.MustCompile(`'[^']*'`).ReplaceAllString(text, "''") // single-quoted text is literal
		switch {
		case words[0] == "tcplab" && (placeholder.MatchString(bare) || len(words) == 2 && !strings.HasPrefix(words[1], "-")):
			checkSynopsis(t, bin, c, words)
			checked++
		case words[0] == "tcplab":
			runDoc(t, env, work, c, reduce(words))
			ran++
		case strings.Contains(text, "go test") || strings.Contains(text, "go vet"):
			checkGoTest(t, c, words)
			checked++
		default: // sh FILE, scripts/...: the file is there
			file := words[0]
			if file == "sh" {
				file = words[1]
			}
			if _, err := os.Stat(filepath.Join("../..", file)); err != nil {
				t.Errorf("README:%d: %s: %v", c.line, c.text, err)
			}
			checked++
		}
	}
	t.Logf("%d README commands run, %d checked as synopses, tests or files", ran, checked)
}

// reduce makes a README command quick enough for the test: repro and
// report in their reduced form, fuzz with at most 20 scenarios, and no
// progress display.
func reduce(words []string) []string {
	w := append([]string(nil), words...)
	switch w[1] {
	case "repro", "report":
		if len(w) > 2 && w[2] != "list" {
			w = append(w, "--short", "--progress", "none")
		}
	case "sweep":
		if !slicesContains(w, "--dry-run") {
			w = append(w, "--progress", "none")
		}
	case "fuzz":
		if n, err := strconv.Atoi(w[2]); err == nil && n > 20 {
			w[2] = "20"
		}
	}
	return w
}

func slicesContains(ws []string, s string) bool {
	for _, w := range ws {
		if w == s {
			return true
		}
	}
	return false
}

func runDoc(t *testing.T, env []string, dir string, c docCommand, words []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", strings.Join(words, " "))
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("README:%d: %s: %v\n%s", c.line, strings.Join(words, " "), err, lastLines(string(out), 8))
	}
}

// checkSynopsis checks that a synopsis's subcommands exist and take the
// flags it shows.
func checkSynopsis(t *testing.T, bin string, c docCommand, words []string) {
	t.Helper()
	var path []string
	for _, w := range words[1:] {
		if strings.HasPrefix(w, "-") || placeholder.MatchString(w) && !strings.Contains(w, "|") || strings.ContainsAny(w, "[=") {
			break
		}
		path = append(path, strings.Split(w, "|")[0])
		if strings.Contains(w, "|") {
			break
		}
	}
	help, err := exec.Command(bin, append(path, "--help")...).CombinedOutput()
	if err != nil || !strings.Contains(string(help), "Usage:") {
		t.Errorf("README:%d: %s: tcplab %s --help: %v", c.line, c.text, strings.Join(path, " "), err)
		return
	}
	if len(path) > 0 && !strings.Contains(string(help), "tcplab "+strings.Join(path, " ")) {
		t.Errorf("README:%d: %s: no subcommand %q", c.line, c.text, strings.Join(path, " "))
	}
	for _, w := range words {
		if f, ok := strings.CutPrefix(w, "--"); ok && f != "" {
			f = strings.TrimRight(strings.SplitN(f, "=", 2)[0], "]")
			if !strings.Contains(string(help), "--"+f+" ") && !strings.Contains(string(help), "--"+f+"\n") {
				t.Errorf("README:%d: %s: tcplab %s has no flag --%s", c.line, c.text, strings.Join(path, " "), f)
			}
		}
	}
}

// checkGoTest checks that the packages named exist and that -run, -bench
// and -fuzz patterns select at least one test.
func checkGoTest(t *testing.T, c docCommand, words []string) {
	t.Helper()
	var pkgs, patterns []string
	for i := 0; i < len(words); i++ {
		switch w := words[i]; {
		case w == "-run" || w == "-bench" || w == "-fuzz":
			p := strings.Trim(words[i+1], `'"`)
			if p != "^$" && p != "." {
				patterns = append(patterns, p)
			}
			i++
		case strings.HasPrefix(w, "./"):
			pkgs = append(pkgs, w)
		}
	}
	if len(pkgs) == 0 || slicesContains(pkgs, "./...") {
		return // the whole tree: what CI runs
	}
	for _, p := range patterns {
		// -list matches top-level names only: a pattern's first
		// slash-separated element is the one it can check.
		p, _, _ = strings.Cut(p, "/")
		cmd := exec.Command("go", append([]string{"test", "-list", p}, pkgs...)...)
		cmd.Dir = "../.."
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("README:%d: %s: go test -list: %v\n%s", c.line, c.text, err, lastLines(string(out), 5))
			continue
		}
		listed := 0
		for _, l := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(l, "Test") || strings.HasPrefix(l, "Benchmark") || strings.HasPrefix(l, "Fuzz") || strings.HasPrefix(l, "Example") {
				listed++
			}
		}
		if listed == 0 {
			t.Errorf("README:%d: %s: pattern %q selects no test", c.line, c.text, p)
		}
	}
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(ls[max(0, len(ls)-n):], "\n")
}

// The README's JSON example is what its command prints: every "key":
// number it shows (but the wall time) is the run's, every field it names
// is in the run's output, and its drop causes are all the causes.
func TestReadmeJSONExampleIsTheRunsOutput(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	i := strings.Index(text, "The JSON result of `tcplab run examples/dumbbell-lossy.yaml --format json`")
	if i < 0 {
		t.Fatal("README: the JSON example's sentence is gone")
	}
	start := strings.Index(text[i:], "```\n") + i + 4
	end := strings.Index(text[start:], "```") + start
	block := text[start:end]

	bin := tcplabBinary(t)
	out, err := exec.Command(bin, "run", "../../examples/dumbbell-lossy.yaml", "--format", "json").Output()
	if err != nil {
		t.Fatal(err)
	}
	var res map[string]any
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	flow := res["flows"].([]any)[0].(map[string]any)
	drops := res["drops"].(map[string]any)
	lookup := func(k string) (any, bool) {
		for _, m := range []map[string]any{res, flow, drops} {
			if v, ok := m[k]; ok {
				return v, true
			}
		}
		return nil, false
	}
	for _, m := range regexp.MustCompile(`"(\w+)": ([0-9.]+)`).FindAllStringSubmatch(block, -1) {
		if m[1] == "wall_seconds" {
			continue
		}
		v, ok := lookup(m[1])
		want, _ := strconv.ParseFloat(m[2], 64)
		if got, isNum := v.(float64); !ok || !isNum || got != want {
			t.Errorf("README shows %q: %s, the run prints %v", m[1], m[2], v)
		}
	}
	for _, m := range regexp.MustCompile(`"(\w+)"`).FindAllStringSubmatch(block, -1) {
		if _, ok := lookup(m[1]); !ok && m[1] != "dumbbell" {
			t.Errorf("README names %q, which the run does not print", m[1])
		}
	}
	for k := range drops {
		if !strings.Contains(block, `"`+k+`"`) {
			t.Errorf("README's drops lack %q", k)
		}
	}
}
