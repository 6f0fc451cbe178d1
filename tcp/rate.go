package tcp

import "github.com/tcplab/tcplab/sim"

// Delivery-rate estimation, after the IETF draft "Delivery Rate
// Estimation" (Cheng, Cardwell, Hassas Yeganeh, Jacobson,
// draft-cheng-iccrg-delivery-rate-estimation) and Linux's tcp_rate.c: each
// segment sent carries a snapshot of the connection's delivery counters;
// when it is delivered (cumulatively acknowledged or SACKed) the bytes
// delivered since that snapshot, over the longer of the send and the ACK
// intervals, are one sample of the delivery rate. The engine keeps it for
// any variant that asks (RateController) and for pacing.

// RateSample is the delivery-rate sample of one ACK (the draft's rs).
type RateSample struct {
	// DeliveryRate is Delivered / Interval in bytes per second; 0 when the
	// ACK delivered nothing or the sample is not valid (an interval
	// shorter than the minimum RTT: the draft's §3.3 guard against ACK
	// compression).
	DeliveryRate float64
	Delivered    int64    // bytes delivered over the interval
	Interval     sim.Time // max(send interval, ACK interval)
	// PriorDelivered is the connection's delivered count when the most
	// recently sent segment this ACK delivered was sent: BBR counts round
	// trips by it.
	PriorDelivered int64
	// TotalDelivered is the connection's delivered count after this ACK.
	TotalDelivered int64
	// AppLimited: that segment was sent while the application, not the
	// network, limited sending; its rate is a lower bound only.
	AppLimited bool
	// RTT is the round-trip time of that segment if it was sent once (0
	// otherwise): Linux's ca_rtt.
	RTT sim.Time
	// Acked is the bytes this ACK newly delivered, cumulatively or by SACK.
	Acked int64
	// Losses is the segments newly judged lost on this ACK (a fast
	// retransmission or a lost retransmission detected), in bytes.
	Losses int64
	// PriorInFlight is the bytes in flight before the ACK, InFlight after
	// it (the engine's pipe: computed once for the variant).
	PriorInFlight, InFlight int64
}

// rateSnap is the snapshot a segment carries (the draft's
// P.delivered, P.delivered_time, P.first_sent_time, P.is_app_limited).
type rateSnap struct {
	delivered   int64
	deliveredAt sim.Time
	firstSent   sim.Time
	appLimited  bool
	counted     bool // its delivery was counted (SACKed before the cumulative ACK)
}

// rateEstimator is the connection's side of the estimate (the draft's C.*).
type rateEstimator struct {
	delivered   int64    // C.delivered, bytes
	deliveredAt sim.Time // C.delivered_time
	firstSent   sim.Time // C.first_sent_time
	// appLimited is C.app_limited: the delivered count up to which samples
	// are app-limited (0: not app-limited).
	appLimited int64
	lost       int64 // bytes judged lost so far
	reno       int64 // bytes duplicate ACKs counted delivered since the last new ACK
	// The sample being built from this ACK's deliveries.
	rs            RateSample
	priorTime     sim.Time // P.delivered_time of the chosen segment
	sendTime      sim.Time // its P.first_sent_time..sent_time interval
	have          bool     // the ACK delivered a segment with a snapshot
	lostReported  int64    // lost as of the last sample
	priorInFlight int64
	// marks, if set, reports the bytes marked lost on the scoreboard, and
	// a sample's losses are its change over the ACK (Recovery.LossByMarks,
	// ns-3.37); markedBefore is it as the ACK began.
	marks        func() int64
	markedBefore int64
}

// onSend takes the snapshot of a segment about to leave (the draft's
// OnPacketSent): a send interval starts whenever nothing is in flight.
func (r *rateEstimator) onSend(snap *rateSnap, now sim.Time, nothingInFlight bool) {
	if nothingInFlight {
		r.firstSent, r.deliveredAt = now, now
	}
	*snap = rateSnap{delivered: r.delivered, deliveredAt: r.deliveredAt, firstSent: r.firstSent, appLimited: r.appLimited != 0}
}

// begin starts the sample of an ACK.
func (r *rateEstimator) begin(flight int64) {
	r.rs = RateSample{}
	r.have = false
	r.priorInFlight = flight
	if r.marks != nil {
		r.markedBefore = r.marks()
	}
}

// onDelivered counts a segment of size bytes, last sent at sentAt, as
// delivered now (the draft's UpdateRateSample): the sample takes the
// snapshot of the most recently sent of the segments an ACK delivers.
func (r *rateEstimator) onDelivered(snap *rateSnap, size int64, sentAt, now sim.Time, sentOnce bool) {
	if snap.counted {
		return
	}
	snap.counted = true
	r.delivered += size
	r.deliveredAt = now
	r.rs.Acked += size
	if !r.have || snap.delivered > r.rs.PriorDelivered {
		r.have = true
		r.rs.PriorDelivered = snap.delivered
		r.priorTime = snap.deliveredAt
		r.rs.AppLimited = snap.appLimited
		r.sendTime = sentAt - snap.firstSent
		r.rs.RTT = 0
		if sentOnce {
			r.rs.RTT = now - sentAt
		}
		// The next send interval starts at this segment's transmission.
		r.firstSent = sentAt
	}
}

// onDupDelivered counts a duplicate ACK without SACK as one segment
// delivered, without a snapshot (Linux's tcp_add_reno_sack).
func (r *rateEstimator) onDupDelivered(size int64, now sim.Time) {
	r.delivered += size
	r.deliveredAt = now
	r.rs.Acked += size
	r.reno += size
}

// settleDupDelivered: a cumulative ACK of acked bytes after duplicate
// ACKs counted some of them already; it counts at least one segment (Linux's
// tcp_remove_reno_sacks).
func (r *rateEstimator) settleDupDelivered(acked, mss int64) {
	if r.reno == 0 {
		return
	}
	over := min(r.reno, acked-mss)
	if over > 0 {
		r.delivered -= over
		r.rs.Acked -= over
	}
	r.reno = 0
}

// onLost records bytes newly judged lost.
func (r *rateEstimator) onLost(size int64) { r.lost += size }

// finish completes the sample (the draft's GenerateRateSample): minRTT
// guards against intervals shortened by ACK compression.
func (r *rateEstimator) finish(now, minRTT sim.Time, flight int64) *RateSample {
	rs := &r.rs
	rs.InFlight = flight
	if r.appLimited != 0 && r.delivered > r.appLimited {
		r.appLimited = 0 // the app-limited bubble has been delivered
	}
	rs.TotalDelivered = r.delivered
	// Losses are counted as retransmissions leave: those an ACK's sends
	// make go into the next ACK's sample.
	rs.Losses = r.lost - r.lostReported
	r.lostReported = r.lost
	if r.marks != nil {
		d := r.marks() - r.markedBefore
		rs.Losses = max(d, -d)
	}
	rs.PriorInFlight = r.priorInFlight
	if !r.have {
		return rs
	}
	rs.Delivered = r.delivered - rs.PriorDelivered
	rs.Interval = max(r.sendTime, now-r.priorTime)
	if rs.Interval <= 0 || minRTT != sim.Never && rs.Interval < minRTT {
		rs.Interval = 0
		return rs
	}
	rs.DeliveryRate = float64(rs.Delivered) / rs.Interval.Seconds()
	return rs
}

// markAppLimited is the draft's OnApplicationLimited / Linux's
// tcp_rate_check_app_limited: with less than a segment left to send and
// the window not full, the samples until what is in flight is delivered
// measure the application, not the path.
func (r *rateEstimator) markAppLimited(flight int64) {
	r.appLimited = max(r.delivered+flight, 1)
}
