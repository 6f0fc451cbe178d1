package trace_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/tcp"
	"github.com/tcplab/tcplab/trace"
)

// logged is what the simulator put in one packet, in its own units.
type logged struct {
	fromSender   bool
	seq, ack     int64
	tsval, tsecr int64
	hasTS        bool
	sack         []network.SackBlock
	payload      int32
	flow         int32
	syn, ackFlag bool
}

// recorder is a LinkTracer that keeps the simulator's view of every
// transmission, to check the pcap against.
type recorder struct {
	src  network.NodeID
	pkts []logged
}

func (r *recorder) Trace(ev byte, _ *network.Link, p *network.Packet, _ sim.Time) {
	if ev != '-' {
		return
	}
	r.pkts = append(r.pkts, logged{fromSender: p.Src == r.src, seq: p.Seq, ack: p.Ack,
		tsval: p.TSval, tsecr: p.TSecr, hasTS: p.HasTS, sack: append([]network.SackBlock(nil), p.Sack[:p.NSack]...),
		payload: p.Payload, flow: p.Flow, syn: p.Flags&network.FlagSYN != 0, ackFlag: p.Flags&network.FlagACK != 0})
}

// lossyRun runs one SACK+timestamps flow over a lossy 2 Mb/s link for
// d and traces both directions of that link into a pcap file.
func lossyRun(t *testing.T, d sim.Time, pcapPath string) *recorder {
	t.Helper()
	net := network.New(7)
	s, r, dst := net.AddNode("S"), net.AddNode("R"), net.AddNode("D")
	dropTail := func() network.Queue { return network.NewDropTail(50, 0) }
	net.Connect("access", s, r, network.LinkConfig{Bandwidth: 10e6, Delay: 10 * sim.Millisecond}, dropTail)
	rd, dr := net.Connect("lossy", r, dst, network.LinkConfig{Bandwidth: 2e6, Delay: 20 * sim.Millisecond}, dropTail)
	rd.SetErrorModel(network.NewBernoulli(0.03, net.Stream("errors")))
	net.ComputeRoutes()
	cfg, err := tcp.Profile("linux") // SACK, timestamps, 3-way handshake
	if err != nil {
		t.Fatal(err)
	}
	f, err := tcp.NewFlow(net, 0, "f", cfg, s, dst)
	if err != nil {
		t.Fatal(err)
	}
	f.Start(0)
	out, err := os.Create(pcapPath)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	flows := []trace.Flow{{Name: "f", Src: s.ID, MSS: cfg.Segments.MSS}}
	pc, err := trace.NewPcap(out, flows, trace.PcapOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{src: s.ID}
	for _, l := range []*network.Link{rd, dr} {
		trace.Attach(l, pc)
		trace.Attach(l, rec)
	}
	net.Run(d)
	if pc.Err() != nil {
		t.Fatal(pc.Err())
	}
	if int(pc.Packets()) != len(rec.pkts) {
		t.Fatalf("pcap has %d packets, simulator sent %d", pc.Packets(), len(rec.pkts))
	}
	return rec
}

// want is what a decoder should read in the pcap for a logged packet.
func want(p logged) (seq, ack uint32, sack string) {
	isnS, isnR := trace.ISN(p.flow, false), trace.ISN(p.flow, true)
	if p.fromSender {
		seq = trace.Fold(isnS, p.seq)
		if p.ackFlag { // the opening SYN acknowledges nothing
			ack = isnR + 1
		}
	} else {
		seq = isnR + 1 // the receiver's SYN (SYN-ACK) takes one sequence number
		if p.syn {
			seq = isnR
		}
		ack = trace.Fold(isnS, p.ack)
	}
	var le, re []string
	for _, b := range p.sack {
		le = append(le, strconv.FormatUint(uint64(trace.Fold(isnS, b.Start)), 10))
		re = append(re, strconv.FormatUint(uint64(trace.Fold(isnS, b.End)), 10))
	}
	return seq, ack, strings.Join(le, ",") + "/" + strings.Join(re, ",")
}

func TestPcapDecodesToSimulatorValues(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lossy.pcap")
	rec := lossyRun(t, 20*sim.Second, path)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd, err := pcapgo.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var sacks int
	for i, p := range rec.pkts {
		data, _, err := rd.ReadPacketData()
		if err != nil {
			t.Fatalf("packet %d: %v", i+1, err)
		}
		pkt := gopacket.NewPacket(data, layers.LayerTypeEthernet, gopacket.Default)
		tl, _ := pkt.Layer(layers.LayerTypeTCP).(*layers.TCP)
		if tl == nil {
			t.Fatalf("packet %d: no TCP layer", i+1)
		}
		seq, ack, _ := want(p)
		if tl.Seq != seq || (tl.ACK && tl.Ack != ack) {
			t.Fatalf("packet %d: seq/ack %d/%d, want %d/%d", i+1, tl.Seq, tl.Ack, seq, ack)
		}
		if len(tl.Payload) != int(p.payload) {
			t.Fatalf("packet %d: payload %d bytes, want %d", i+1, len(tl.Payload), p.payload)
		}
		if len(p.sack) > 0 {
			sacks++
		}
	}
	if sacks == 0 {
		t.Fatal("no SACK blocks in 20 s at 3% loss: the test exercises nothing")
	}
}

// tshark (Wireshark's decoder) must read the sequence numbers, timestamps
// and SACK blocks the simulator sent, with good checksums.
func TestTsharkReadsSimulatorValues(t *testing.T) {
	tshark, err := exec.LookPath("tshark")
	if err != nil {
		t.Skip("tshark not installed (apt-get install tshark)")
	}
	path := filepath.Join(t.TempDir(), "lossy.pcap")
	rec := lossyRun(t, 20*sim.Second, path)
	cmd := exec.Command(tshark, "-n", "-r", path,
		"-o", "tcp.relative_sequence_numbers:FALSE", "-o", "tcp.check_checksum:TRUE", "-o", "ip.check_checksum:TRUE",
		"-T", "fields", "-E", "separator=;",
		"-e", "tcp.seq", "-e", "tcp.ack", "-e", "tcp.options.timestamp.tsval", "-e", "tcp.options.timestamp.tsecr",
		"-e", "tcp.options.sack_le", "-e", "tcp.options.sack_re", "-e", "tcp.len",
		"-e", "tcp.checksum.status", "-e", "ip.checksum.status")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tshark: %v\n%s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != len(rec.pkts) {
		t.Fatalf("tshark read %d packets, simulator sent %d", len(lines), len(rec.pkts))
	}
	var sacks, multi int
	for i, p := range rec.pkts {
		f := strings.Split(lines[i], ";")
		seq, ack, sack := want(p)
		got := fmt.Sprintf("seq=%s ack=%s ts=%s/%s sack=%s/%s len=%s", f[0], f[1], f[2], f[3], f[4], f[5], f[6])
		w := fmt.Sprintf("seq=%d ack=%d ts=%d/%d sack=%s len=%d", seq, ack, uint32(p.tsval), uint32(p.tsecr), sack, p.payload)
		if got != w {
			t.Fatalf("packet %d: tshark read\n  %s\nsimulator sent\n  %s", i+1, got, w)
		}
		if f[7] != "1" || f[8] != "1" { // tshark: 0 bad, 1 good, 2 unverified
			t.Fatalf("packet %d: checksum status tcp=%s ip=%s, want 1 (good)", i+1, f[7], f[8])
		}
		if len(p.sack) > 0 {
			sacks++
		}
		if len(p.sack) > 1 {
			multi++
		}
	}
	if sacks == 0 || multi == 0 {
		t.Fatalf("%d packets with SACK, %d with several blocks: the test needs both", sacks, multi)
	}
	t.Logf("%d packets agree; %d carry SACK blocks (%d several)", len(rec.pkts), sacks, multi)
}

// rawIP is a packet body carrying a real IP packet (a kernel host's).
type rawIP []byte

func (r rawIP) IPBytes() []byte { return r }

// A real IP packet (network.Wire) is written as it was sent, behind the
// Ethernet header, not rebuilt from the simulator's fields.
func TestPcapWritesARealPacketAsSent(t *testing.T) {
	var buf bytes.Buffer
	w, err := trace.NewPcap(&buf, nil, trace.PcapOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ip := rawIP{0x45, 0, 0, 24, 0xab, 0xcd, 0x40, 0, 64, 17, 0x12, 0x34, 10, 213, 0, 1, 10, 213, 0, 2, 'd', 'a', 't', 'a'}
	w.Trace('-', nil, &network.Packet{Src: 0, Dst: 1, Proto: network.UDP, Size: 24, Payload: 4, Body: ip}, sim.Second)
	if w.Err() != nil {
		t.Fatal(w.Err())
	}
	rd, err := pcapgo.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	data, ci, err := rd.ReadPacketData()
	if err != nil {
		t.Fatal(err)
	}
	// Ethernet pads a frame to 60 bytes; the IP header's length ends the packet.
	if len(data) < 14+len(ip) || !bytes.Equal(data[14:14+len(ip)], ip) || len(bytes.Trim(data[14+len(ip):], "\x00")) != 0 || ci.Timestamp.Unix() != 1 {
		t.Errorf("frame % x, want the Ethernet header then % x", data, []byte(ip))
	}
}
