package model

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
