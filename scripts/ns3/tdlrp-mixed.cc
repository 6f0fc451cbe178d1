// T-DLRP's mixed wired-wireless topology (Sreekumari et al. 2013, Fig. 8)
// in ns-3.37, for the comparators ns-3 has (NewReno, Vegas, Veno): the
// independent check of tcplab's examples/tdlrp-mixed.yaml behind the T-DLRP
// refutations.
//
//   S --100Mbps,6ms-- R1 --2Mbps,50ms,DropTail 50-- R2 --9Mbps,1ms, loss-- D
//
// N bulk flows S->D 100 ms apart (1024-byte segments, window 32, the
// anchors' ns-2-matched TCP with timestamps on, as tcplab's entries run
// it), an optional 500 kbit/s CBR of 1052-byte UDP packets from 1 s.
// At D's receiving device, in tcplab's order: random loss p on every
// packet, then the retransmission loss as tcplab's targeted model with
// rate_of: packets: each packet that survives arms a loss with
// probability fr, and an armed loss falls on the next fast retransmission.
// A fast retransmission is recognised on the wire as a segment below the
// flow's highest sequence that arrives within 100 ms of the flow's
// previous packet (a timeout's retransmission follows at least the 200 ms
// minimum RTO of silence); tcplab reads it from the sender instead.
// The T-DLRP marker's queue is a 50-packet drop-tail one for these
// variants, which do not read its mark.
// usage: ./tdlrp-mixed --variant=NewReno --flows=1 --p=0.05 --fr=0.01 [--cbr=1 --bottleneck=2Mbps --time=200 --seed=1]
#include "common.h"

#include "ns3/error-model.h"
#include "ns3/ppp-header.h"

#include <map>

class TdlrpLoss : public ErrorModel
{
  public:
    double p = 0, fr = 0;
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    Ptr<UniformRandomVariable> v = CreateObject<UniformRandomVariable>();
    uint64_t armed = 0, randomLost = 0, retxLost = 0;

  private:
    std::map<uint16_t, SequenceNumber32> m_high;
    std::map<uint16_t, Time> m_last;

    bool DoCorrupt(Ptr<Packet> pkt) override
    {
        if (p > 0 && u->GetValue() < p)
        {
            randomLost++;
            return true;
        }
        Ptr<Packet> c = pkt->Copy();
        PppHeader ppp;
        Ipv4Header ip;
        TcpHeader tcp;
        c->RemoveHeader(ppp);
        c->RemoveHeader(ip);
        if (fr > 0 && v->GetValue() < fr)
        {
            armed++;
        }
        if (ip.GetProtocol() != 6)
        {
            return false;
        }
        c->RemoveHeader(tcp);
        if (c->GetSize() == 0)
        {
            return false;
        }
        uint16_t port = tcp.GetSourcePort();
        SequenceNumber32 seq = tcp.GetSequenceNumber();
        Time now = Simulator::Now();
        bool seen = m_high.count(port) > 0;
        bool fast = seen && seq < m_high[port] && now - m_last[port] < MilliSeconds(100);
        m_last[port] = now;
        if (!seen || seq + c->GetSize() > m_high[port])
        {
            m_high[port] = seq + c->GetSize();
        }
        if (fast && armed > 0)
        {
            armed--;
            retxLost++;
            return true;
        }
        return false;
    }

    void DoReset() override {}
};

int
main(int argc, char* argv[])
{
    std::string variant = "NewReno";
    uint32_t flows = 1;
    double p = 0.01, fr = 0.01, T = 200;
    bool cbr = false;
    std::string bottleneck = "2Mbps";
    uint32_t seed = 1;
    CommandLine cmd;
    cmd.AddValue("variant", "TCP variant (NewReno, Vegas, Veno, ...)", variant);
    cmd.AddValue("flows", "TCP connections, 100 ms apart", flows);
    cmd.AddValue("p", "random loss at D, per packet", p);
    cmd.AddValue("fr", "retransmission loss: a share of D's packets, falling on fast retransmissions", fr);
    cmd.AddValue("cbr", "a 500 kbit/s CBR source from 1 s", cbr);
    cmd.AddValue("bottleneck", "R1-R2 bandwidth", bottleneck);
    cmd.AddValue("time", "seconds", T);
    cmd.AddValue("seed", "RNG run number", seed);
    cmd.Parse(argc, argv);
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);
    std::string label = ConfigureTcp(variant, 1024, 32, false, false);
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(true));
    cmd.Parse(argc, argv);

    NodeContainer n;
    n.Create(4); // S, R1, R2, D
    InternetStackHelper().Install(n);
    Ipv4AddressHelper addr("10.1.1.0", "255.255.255.0");
    Link(n.Get(0), n.Get(1), "100Mbps", "6ms", addr);
    Link(n.Get(1), n.Get(2), bottleneck, "50ms", addr);
    NetDeviceContainer last = Link(n.Get(2), n.Get(3), "9Mbps", "1ms", addr);
    Ptr<TdlrpLoss> em = CreateObject<TdlrpLoss>();
    em->p = p;
    em->fr = fr;
    last.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    Ipv4Address dAddr = n.Get(3)->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal();
    std::vector<Flow> fs(flows);
    for (uint32_t i = 0; i < flows; i++)
    {
        BulkFlow(&fs[i], n.Get(0), n.Get(3), dAddr, 5000 + i, 1024, 0.1 * i);
    }
    if (cbr)
    {
        PacketSinkHelper sink("ns3::UdpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 9000));
        sink.Install(n.Get(3)).Start(Seconds(0));
        OnOffHelper onoff("ns3::UdpSocketFactory", InetSocketAddress(dAddr, 9000));
        onoff.SetConstantRate(DataRate("500kbps"), 1052);
        ApplicationContainer a = onoff.Install(n.Get(0));
        a.Start(Seconds(1));
    }

    Simulator::Stop(Seconds(T));
    Simulator::Run();
    double sum = 0;
    uint32_t rtos = 0;
    for (uint32_t i = 0; i < flows; i++)
    {
        // Goodput over the flow's own active time, as tcplab counts it.
        sum += fs[i].sink->GetTotalRx() * 8.0 / (T - 0.1 * i) / 1000.0;
        rtos += fs[i].rtos;
    }
    printf("RESULT sim=ns3 scen=tdlrp-mixed var=%s flows=%u p=%g fr=%g cbr=%d bottleneck=%s seed=%u "
           "goodput_per_conn_kbps=%.2f rtos=%u random_lost=%llu retx_lost=%llu\n",
           label.c_str(), flows, p, fr, cbr ? 1 : 0, bottleneck.c_str(), seed, sum / flows, rtos,
           (unsigned long long)em->randomLost, (unsigned long long)em->retxLost);
    Simulator::Destroy();
    return 0;
}
