package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"

	"github.com/tcplab/tcplab/experiment"
)

// newProgress picks how a sweep shows its progress: a bar with an ETA on
// a terminal, a line every few seconds otherwise (logs, Slurm output
// files), nothing if mode is "none".
func newProgress(mode string, w *os.File, label string) (experiment.Progress, error) {
	if mode == "auto" {
		mode = "lines"
		if isatty.IsTerminal(w.Fd()) {
			mode = "bar"
		}
	}
	switch mode {
	case "bar":
		return &barProgress{w: w, label: label}, nil
	case "lines":
		return &lineProgress{w: w, label: label, every: 5 * time.Second}, nil
	case "none":
		return nil, nil
	}
	return nil, fmt.Errorf("unknown --progress %q (want auto, bar, lines or none)", mode)
}

type barProgress struct {
	w     io.Writer
	label string
	p     *mpb.Progress
	bar   *mpb.Bar
	start int
}

func (b *barProgress) Start(total, already int) {
	b.p = mpb.New(mpb.WithOutput(b.w), mpb.WithWidth(40))
	b.start = already
	b.bar = b.p.AddBar(int64(total),
		mpb.PrependDecorators(decor.Name(b.label+" "), decor.CountersNoUnit("%d/%d runs")),
		mpb.AppendDecorators(decor.Percentage(), decor.Name(" ETA "),
			decor.OnComplete(decor.AverageETA(decor.ET_STYLE_GO), "done")))
	b.bar.SetCurrent(int64(already))
	// The ETA averages over the runs made now, not the resumed ones.
	b.bar.DecoratorAverageAdjust(time.Now())
}

func (b *barProgress) Advance(done int) { b.bar.SetCurrent(int64(done)) }

func (b *barProgress) Finish() {
	if b.bar != nil && !b.bar.Completed() {
		b.bar.Abort(false)
	}
	if b.p != nil {
		b.p.Wait()
	}
}

type lineProgress struct {
	w           io.Writer
	label       string
	every       time.Duration
	total, from int
	t0, last    time.Time
	done        int
}

func (l *lineProgress) Start(total, already int) {
	l.total, l.from, l.done = total, already, already
	l.t0 = time.Now()
	l.last = l.t0
	fmt.Fprintf(l.w, "%s: %d runs, %d already stored\n", l.label, total, already)
}

func (l *lineProgress) Advance(done int) {
	l.done = done
	if now := time.Now(); now.Sub(l.last) >= l.every {
		l.last = now
		l.line(now)
	}
}

func (l *lineProgress) line(now time.Time) {
	el := now.Sub(l.t0)
	eta := "?"
	if made := l.done - l.from; made > 0 {
		eta = (time.Duration(float64(el) / float64(made) * float64(l.total-l.done))).Round(time.Second).String()
	}
	fmt.Fprintf(l.w, "%s: %d/%d runs (%.0f%%), %s elapsed, ETA %s\n", l.label, l.done, l.total,
		100*float64(l.done)/float64(max(1, l.total)), el.Round(time.Second), eta)
}

func (l *lineProgress) Finish() { l.line(time.Now()) }
