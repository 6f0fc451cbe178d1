// Package model holds closed-form and Markov-chain models of TCP throughput
// and reliability: Mathis et al. and PFTK (Padhye, Firoiu, Towsley, Kurose)
// for Reno-style TCP, Abouzeid & Roy's ideal goodput under a two-state RTT,
// the TCP-NC Markov chain of Zhang, Lan & Li (KSII TIIS 2014) with the
// Kim, Médard & Barros model it is compared with, and the end-to-end versus
// segment-by-segment reliability model of ALL-TCP (Al Shinwan et al., MTAP
// 2020).
//
// Throughputs are in packets per second unless a name says otherwise;
// BitsPerSecond converts with a segment size.
//
// Every model is also registered (Register, in the model's own file) with
// its parameters, units and bounds, which is how `tcplab model NAME`
// finds, checks and evaluates it; other packages register theirs the
// same way. Lookup, Model.Evaluate and Model.Grid are the library's way
// to the same.
package model
