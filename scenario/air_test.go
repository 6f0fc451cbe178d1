package scenario

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// trace.air captures every frame on the channel as IEEE 802.11: each data
// frame decodes down to its TCP segment, the frame counts by type match
// the MAC counters, and Wireshark (when installed) finds nothing
// malformed.
func TestAirCaptureDecodesAs80211(t *testing.T) {
	dir := t.TempDir()
	air := filepath.Join(dir, "air.pcap")
	s, err := Load("../examples/wifi-chain.yaml", []string{"trace.air=" + air, "duration=3s", "wireless.rts_threshold=0B"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Run()
	if err != nil {
		t.Fatal(err)
	}
	var wantData, wantRTS int64
	for _, st := range res.Wireless {
		wantData += st.DataFrames
		wantRTS += st.RTS
	}
	r := openPcap(t, air)
	if r.LinkType() != layers.LinkTypeIEEE802_11 {
		t.Fatalf("link type %v", r.LinkType())
	}
	counts := map[layers.Dot11Type]int64{}
	for {
		data, _, err := r.ReadPacketData()
		if err != nil {
			break
		}
		// The capture carries no FCS (Wireshark's default for this link
		// type); gopacket's decoder expects one: give it four bytes.
		p := gopacket.NewPacket(append(data, 0, 0, 0, 0), layers.LayerTypeDot11, gopacket.Default)
		d, ok := p.Layer(layers.LayerTypeDot11).(*layers.Dot11)
		if !ok {
			t.Fatalf("not an 802.11 frame: %v", p.ErrorLayer())
		}
		counts[d.Type]++
		if d.Type == layers.Dot11TypeData && p.Layer(layers.LayerTypeTCP) == nil {
			t.Fatalf("data frame without its TCP segment: %v", p)
		}
	}
	if counts[layers.Dot11TypeData] != wantData || counts[layers.Dot11TypeCtrlRTS] != wantRTS || counts[layers.Dot11TypeCtrlAck] == 0 || counts[layers.Dot11TypeCtrlCTS] == 0 {
		t.Fatalf("frames by type %v; MAC counters: %d data, %d RTS", counts, wantData, wantRTS)
	}
	if _, err := exec.LookPath("tshark"); err == nil {
		out, err := exec.Command("tshark", "-r", air, "-q", "-z", "expert,error").CombinedOutput()
		if err != nil {
			t.Fatalf("tshark: %v\n%s", err, out)
		}
		if strings.Contains(string(out), "Malformed") {
			t.Fatalf("tshark finds malformed frames:\n%s", out)
		}
	}
}
