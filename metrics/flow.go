// Package metrics holds per-flow results and time series.
package metrics

// Flow is the result of one flow, in the stable JSON form `tcplab run
// --format json` prints (README: "JSON contract").
type Flow struct {
	ID        string `json:"id"`
	Variant   string `json:"variant"`
	Transport string `json:"transport"` // tcp or udp
	Src       string `json:"src"`
	Dst       string `json:"dst"`
	// StartSeconds and StopSeconds bound the flow's active time, which
	// goodput and throughput are averaged over.
	StartSeconds float64 `json:"start_seconds"`
	StopSeconds  float64 `json:"stop_seconds"`
	// GoodputBps is application bytes delivered in order, per second of
	// active time, in bits per second.
	GoodputBps float64 `json:"goodput_bps"`
	// ThroughputBps is every data byte sent on the wire (headers and
	// retransmissions included) per second of active time.
	ThroughputBps        float64 `json:"throughput_bps"`
	DeliveredBytes       int64   `json:"delivered_bytes"`
	SentPackets          int64   `json:"sent_packets"`
	RetransmittedPackets int64   `json:"retransmitted_packets"`
	FastRetransmits      int64   `json:"fast_retransmits"`
	Timeouts             int64   `json:"timeouts"`
	// TimeoutsAfterLostFastRetransmit counts timeouts whose cause was the
	// loss of a fast retransmission (ground truth).
	TimeoutsAfterLostFastRetransmit int64 `json:"timeouts_after_lost_fast_retransmit"`
	// SpuriousRetransmits counts retransmissions whose original had
	// already reached the receiver (ground truth).
	SpuriousRetransmits int64 `json:"spurious_retransmits"`
	// SpuriousTimeouts counts timeouts whose head segment was not lost,
	// only late (ground truth).
	SpuriousTimeouts int64 `json:"spurious_timeouts"`
	// SpuriousTimeoutsDetected counts timeouts the sender's F-RTO or Eifel
	// detection declared spurious.
	SpuriousTimeoutsDetected int64 `json:"spurious_timeouts_detected"`
	// ECNReductions counts window reductions for ECN echoes (RFC 3168).
	ECNReductions int64 `json:"ecn_reductions,omitempty"`
	// RTOMinCostSeconds is the time the sender's timeouts waited beyond
	// the RTO estimate because of the minimum RTO (AdMINRTO paper §2's
	// cost function), summed over the run; absent for policies that
	// cannot tell (ns2) and when it is zero.
	RTOMinCostSeconds float64 `json:"rto_min_cost_seconds,omitempty"`
	// Pages and PageSecondsMean: a web application's completed pages and
	// their mean response time (first object requested to last byte
	// acknowledged).
	Pages           int64   `json:"pages,omitempty"`
	PageSecondsMean float64 `json:"page_seconds_mean,omitempty"`
	// Dropped counts this flow's lost packets by cause.
	Dropped map[string]int64 `json:"dropped"`
	// CompletionSeconds is when a fixed-size transfer finished (0 if not).
	CompletionSeconds float64 `json:"completion_seconds,omitempty"`
	// Accuracy of loss classifications against ground truth, for variants
	// that classify (filled by later variants).
	Accuracy map[string]float64 `json:"accuracy,omitempty"`
	// Stack is "kernel" for a kernel host's socket (tcplab emulate), whose
	// figures come from the network and from the kernel's TCP_INFO; absent
	// for simulated flows.
	Stack string `json:"stack,omitempty"`
	// Kernel holds a kernel socket's TCP_INFO, sampled through the run.
	Kernel *KernelInfo `json:"kernel,omitempty"`
	// Coding holds the counters of a flow's network-coding layer (TCP-NC).
	Coding map[string]float64 `json:"coding,omitempty"`
}

// KernelInfo is what a kernel sender's TCP_INFO said through its run,
// sampled every SampleSeconds.
type KernelInfo struct {
	CongestionControl string  `json:"congestion_control"`
	Samples           int     `json:"samples"`
	SampleSeconds     float64 `json:"sample_seconds"`
	// CwndMean and CwndLast are in segments (tcpi_snd_cwnd).
	CwndMean float64 `json:"cwnd_mean"`
	CwndLast int     `json:"cwnd_last"`
	// RTTMeanMs is the mean of the smoothed RTT samples (tcpi_rtt);
	// MinRTTMs the kernel's windowed minimum at the end (tcpi_min_rtt).
	RTTMeanMs float64 `json:"rtt_mean_ms"`
	MinRTTMs  float64 `json:"min_rtt_ms"`
	// DeliveryRateMeanBps is the mean of tcpi_delivery_rate, bit/s.
	DeliveryRateMeanBps float64 `json:"delivery_rate_mean_bps"`
	// TotalRetrans is tcpi_total_retrans; Timeouts and FastRetransmits
	// the namespace's TCPTimeouts and TCPFastRetrans (TcpExt), given only
	// when the flow is its host's only sender.
	TotalRetrans int64 `json:"total_retrans"`
}
