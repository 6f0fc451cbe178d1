package model

func init() {
	Register(Model{
		Name: "abouzeid",
		Doc:  "Abouzeid & Roy ideal goodput under a two-state RTT, eqs. 2-3: 2·wm/(T1+T2)",
		Params: []Param{{Name: "wm", Default: 12, Unit: Packets, Help: "window", Min: 0, Max: Inf},
			{Name: "t1", Default: 0.1, Unit: Time, Help: "RTT in state 1", Min: 1e-9, Max: Inf},
			{Name: "t2", Default: 0.3, Unit: Time, Help: "RTT in state 2", Min: 1e-9, Max: Inf},
			{Name: "h", Default: 1, Help: "holding-time factor", Min: 0, Max: Inf}, MSS(1460)},
		Eval: func(in Inputs) ([]Output, error) {
			r := AbouzeidIdeal(AbouzeidParams{Wm: in["wm"], T1: in["t1"], T2: in["t2"], H: in["h"]})
			return []Output{{"pkts_per_s", r, PacketRate}, {"bits_per_s", BitsPerSecond(r, in.Int("mss")), BitRate}}, nil
		},
	})
}

// AbouzeidParams describe Abouzeid & Roy's two-state RTT process (GLOBECOM
// 2001): the path RTT alternates between T1 and T2, staying V_i = T_i + X_i
// in state i with X_i exponential of mean h·T_i.
type AbouzeidParams struct {
	Wm     float64 // window limit, packets
	T1, T2 float64 // the two RTTs, seconds
	H      float64 // holding-time factor h ≥ 0
}

// AbouzeidIdealGeneral is their eq. 2: a genie-aided sender never shrinks its
// window below Wm, so in state i it delivers Wm/T_i packets/s, and the
// long-run goodput weights the two rates by the mean holding times:
// R = (E[V1]·Wm/T1 + E[V2]·Wm/T2) / (E[V1] + E[V2]).
func AbouzeidIdealGeneral(wm, t1, t2, ev1, ev2 float64) float64 {
	return (ev1*wm/t1 + ev2*wm/t2) / (ev1 + ev2)
}

// AbouzeidIdeal is eq. 3: with E[V_i] = (1+h)·T_i the factor (1+h) cancels
// and each state contributes Wm per unit of T_i, so R = 2·Wm/(T1+T2),
// independent of h (packets/s).
func AbouzeidIdeal(a AbouzeidParams) float64 {
	ev1, ev2 := (1+a.H)*a.T1, (1+a.H)*a.T2
	return AbouzeidIdealGeneral(a.Wm, a.T1, a.T2, ev1, ev2)
}
