package trace

import (
	"bytes"
	"testing"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

func TestNS2Lines(t *testing.T) {
	a, b := &network.Node{ID: 2}, &network.Node{ID: 3}
	l := &network.Link{From: a, To: b}
	flows := []Flow{{Name: "f", Src: 0, MSS: 1000}}
	cases := []struct {
		name string
		ev   byte
		p    network.Packet
		want string
	}{
		{"data segment 3", '-', network.Packet{ID: 9, Flow: 0, Src: 0, Dst: 4, Size: 1040, Payload: 1000, Seq: 3001},
			"- 1.500000 2 3 tcp 1040 ------- 0 0.0 4.0 3 9\n"},
		{"ack of segment 3", 'r', network.Packet{ID: 10, Flow: 0, Src: 4, Dst: 0, Size: 40, Ack: 4001, Flags: network.FlagACK | network.FlagECE},
			"r 1.500000 2 3 ack 40 C------ 0 4.0 0.0 4 10\n"},
		{"ECN data marked CE", 'd', network.Packet{ID: 11, Flow: 0, Src: 0, Dst: 4, Size: 1040, Payload: 1000, Seq: 1, ECT: true, CE: true},
			"d 1.500000 2 3 tcp 1040 ---E-N- 0 0.0 4.0 0 11\n"},
		{"udp", '+', network.Packet{ID: 12, Flow: 1, Src: 0, Dst: 4, Size: 210, Payload: 210, Proto: network.UDP},
			"+ 1.500000 2 3 cbr 210 ------- 1 0.0 4.0 12 12\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			tr := NewNS2(&buf, flows)
			tr.Trace(c.ev, l, &c.p, 1500*sim.Millisecond)
			if err := tr.Flush(); err != nil {
				t.Fatal(err)
			}
			if buf.String() != c.want {
				t.Fatalf("got  %q\nwant %q", buf.String(), c.want)
			}
		})
	}
}
