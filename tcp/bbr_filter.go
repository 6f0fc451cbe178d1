package tcp

// maxFilter is a windowed running maximum that keeps the best, second-best
// and third-best samples of the window (Kathleen Nichols' algorithm, as
// Linux's lib/win_minmax.c): BBR's bottleneck-bandwidth filter, whose
// "time" is the round-trip count. O(1) per sample, no allocation.
type maxFilter struct {
	s [3]filterSample
}

type filterSample struct {
	t int64   // when (round trips)
	v float64 // the sample
}

// get is the maximum over the window.
func (m *maxFilter) get() float64 { return m.s[0].v }

// reset forgets everything but one sample.
func (m *maxFilter) reset(t int64, v float64) float64 {
	m.s = [3]filterSample{{t, v}, {t, v}, {t, v}}
	return v
}

// update adds sample v at time t for a window of win and returns the
// maximum (minmax_running_max).
func (m *maxFilter) update(win, t int64, v float64) float64 {
	val := filterSample{t, v}
	if v >= m.s[0].v || t-m.s[2].t > win {
		return m.reset(t, v) // a new maximum, or nothing left in the window
	}
	switch {
	case v >= m.s[1].v:
		m.s[2], m.s[1] = val, val
	case v >= m.s[2].v:
		m.s[2] = val
	}
	return m.subwin(win, val)
}

// subwin ages the best samples: once the best is older than the window
// the second takes its place, and the second and third are refreshed a
// quarter and a half window in, so that a sample that stops being beaten
// gives way within the window (minmax_subwin_update).
func (m *maxFilter) subwin(win int64, val filterSample) float64 {
	dt := val.t - m.s[0].t
	switch {
	case dt > win:
		m.s[0], m.s[1], m.s[2] = m.s[1], m.s[2], val
		if val.t-m.s[0].t > win {
			m.s[0], m.s[1], m.s[2] = m.s[1], m.s[2], val
		}
	case m.s[1].t == m.s[0].t && dt > win/4:
		m.s[2], m.s[1] = val, val
	case m.s[2].t == m.s[1].t && dt > win/2:
		m.s[2] = val
	}
	return m.s[0].v
}
