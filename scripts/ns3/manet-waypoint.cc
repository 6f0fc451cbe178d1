// ns-3.37 reference for tcplab's examples/manet-waypoint.yaml: 50 nodes
// (m1..m50 = node 0..49 = setdest's $node_(0..49)) moving as an ns-2
// movement file (setdest -v 1 ..., loaded by Ns2MobilityHelper), 802.11b
// 11 Mbit/s ad hoc, "range" propagation 250 m (wifi-common.h), AODV with
// ns-3.37's default attributes and permanent ARP entries for every pair
// (as scripts/ns3/wifi-chain.cc --routing=aodv --arp=perm).
// Traffic: 10 CBR/UDP flows m_k -> m_(k+25), k=1..10, from 9+k s, 4 pkt/s of
// 512 bytes of UDP payload (SeqTsHeader + padding; 540-byte IP packets), first
// packet at the start time; 5 bulk TCP flows m_(10+k) -> m_(35+k), k=1..5,
// from 19+k s, ConfigureTcp("NewReno", 1024, 32, false, true) as wifi-chain.
// Counts AODV packets sent by kind (every IPv4 Tx on UDP port 654, hello = RREP
// with TTL 1 to the broadcast address), MAC drops by reason, IP drops by reason.
// usage: ./manet-waypoint --mv=../../compare/testdata/manet/seed1.ns_movements --seed=1 [--time=300]
// Reference data: compare/testdata/ns3-manet.txt (TestMANETFieldAsNS3).
//        ./manet-waypoint --mv=... --posonly=1 [--step=0.5]   (positions only)
#include "wifi-common.h"
#include "aodv-count.h"

#include "ns3/aodv-module.h"
#include "ns3/arp-cache.h"
#include "ns3/ipv4-interface.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ns2-mobility-helper.h"
#include "ns3/seq-ts-header.h"
#include "ns3/udp-header.h"

#include <chrono>
#include <set>

// CBR over UDP: a packet of `size` bytes of UDP payload every `interval`.
struct Cbr
{
    Ptr<Socket> tx, rx;
    uint32_t size = 512;
    Time interval = MilliSeconds(250);
    uint32_t seq = 0;
    uint64_t sent = 0, rcvd = 0, dups = 0;
    double delaySum = 0;
    std::set<uint32_t> seen;
};

static void
CbrSend(Cbr* c)
{
    SeqTsHeader h;
    h.SetSeq(c->seq++);
    Ptr<Packet> p = Create<Packet>(c->size - h.GetSerializedSize());
    p->AddHeader(h);
    c->tx->Send(p);
    c->sent++;
    Simulator::Schedule(c->interval, &CbrSend, c);
}

static void
CbrRecv(Cbr* c, Ptr<Socket> s)
{
    Ptr<Packet> p;
    while ((p = s->Recv()))
    {
        SeqTsHeader h;
        p->RemoveHeader(h);
        if (!c->seen.insert(h.GetSeq()).second)
        {
            c->dups++;
            continue;
        }
        c->rcvd++;
        c->delaySum += (Simulator::Now() - h.GetTs()).GetSeconds();
    }
}

static void
DumpPos(NodeContainer n, double step, double T)
{
    double t = Simulator::Now().GetSeconds();
    for (uint32_t i = 0; i < n.GetN(); i++)
    {
        Vector v = n.Get(i)->GetObject<MobilityModel>()->GetPosition();
        printf("POS %.3f %u %.9f %.9f\n", t, i, v.x, v.y);
    }
    if (t + step <= T + 1e-9)
    {
        Simulator::Schedule(Seconds(step), &DumpPos, n, step, T);
    }
}

int
main(int argc, char* argv[])
{
    std::string mv;
    double T = 300;
    uint32_t seed = 1;
    bool posonly = false;
    double step = 0.5;
    CommandLine cmd;
    cmd.AddValue("mv", "ns-2 movement file (setdest output)", mv);
    cmd.AddValue("time", "simulated seconds", T);
    cmd.AddValue("seed", "RngRun", seed);
    cmd.AddValue("posonly", "only print node positions every --step s", posonly);
    cmd.AddValue("step", "position dump step, s", step);
    cmd.Parse(argc, argv);
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);
    auto t0 = std::chrono::steady_clock::now();

    const uint32_t N = 50;
    std::string label = ConfigureTcp("NewReno", 1024, 32, false, true);
    NodeContainer n;
    n.Create(N);
    Ns2MobilityHelper ns2(mv);
    ns2.Install(); // every node in NodeList, by index: exactly n
    if (posonly)
    {
        Simulator::Schedule(Seconds(0), &DumpPos, n, step, T);
        Simulator::Stop(Seconds(T + step / 2));
        Simulator::Run();
        Simulator::Destroy();
        return 0;
    }

    WifiProfile w;
    w.prop = "range";
    w.decodeRange = 250;
    w.rateMbps = 11;
    NetDeviceContainer devs = InstallWifi(n, w);
    InternetStackHelper st;
    AodvHelper aodv; // default attributes
    st.SetRoutingHelper(aodv);
    st.Install(n);
    Ipv4AddressHelper addr("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer ifs = addr.Assign(devs);
    TrafficControlHelper().Uninstall(devs);
    for (uint32_t i = 0; i < N; i++)
    {
        Ptr<Ipv4L3Protocol> l3 = n.Get(i)->GetObject<Ipv4L3Protocol>();
        Ptr<ArpCache> cache = l3->GetInterface(l3->GetInterfaceForDevice(devs.Get(i)))->GetArpCache();
        for (uint32_t j = 0; j < N; j++)
        {
            if (j == i)
            {
                continue;
            }
            ArpCache::Entry* e = cache->Add(ifs.GetAddress(j));
            e->SetMacAddress(devs.Get(j)->GetAddress());
            e->MarkPermanent();
        }
    }
    std::vector<WifiCounters> cs(N);
    for (uint32_t i = 0; i < N; i++)
    {
        Ptr<Ipv4L3Protocol> l3 = n.Get(i)->GetObject<Ipv4L3Protocol>();
        l3->TraceConnectWithoutContext("Tx", MakeCallback(&IpTx));
        l3->TraceConnectWithoutContext("Drop", MakeCallback(&IpDrop));
        DynamicCast<WifiNetDevice>(devs.Get(i))->GetMac()->TraceConnectWithoutContext("DroppedMpdu", MakeCallback(&MacDrop));
        AttachCounters(devs.Get(i), &cs[i]);
    }

    // CBR flows k=1..10: m_k (node k-1) -> m_(k+25) (node k+24), start 9+k s.
    std::vector<Cbr> cbr(10);
    for (uint32_t k = 1; k <= 10; k++)
    {
        Cbr* c = &cbr[k - 1];
        uint16_t port = 9000 + k;
        Ptr<Node> src = n.Get(k - 1), dst = n.Get(k + 24);
        c->rx = Socket::CreateSocket(dst, UdpSocketFactory::GetTypeId());
        c->rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
        c->rx->SetRecvCallback(MakeBoundCallback(&CbrRecv, c));
        c->tx = Socket::CreateSocket(src, UdpSocketFactory::GetTypeId());
        c->tx->Bind();
        c->tx->Connect(InetSocketAddress(ifs.GetAddress(k + 24), port));
        Simulator::Schedule(Seconds(9.0 + k), &CbrSend, c);
    }
    // TCP flows k=1..5: m_(10+k) (node 9+k) -> m_(35+k) (node 34+k), start 19+k s.
    std::vector<Flow> fl(5);
    for (uint32_t k = 1; k <= 5; k++)
    {
        BulkFlow(&fl[k - 1], n.Get(9 + k), n.Get(34 + k), ifs.GetAddress(34 + k), 5000 + k, 1024, 19.0 + k);
    }

    Simulator::Stop(Seconds(T));
    Simulator::Run();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    uint64_t sent = 0, rcvd = 0, dups = 0;
    double dsum = 0;
    std::string cbrPer;
    for (auto& c : cbr)
    {
        sent += c.sent;
        rcvd += c.rcvd;
        dups += c.dups;
        dsum += c.delaySum;
        cbrPer += (cbrPer.empty() ? "" : ",") + std::to_string(c.rcvd) + "/" + std::to_string(c.sent);
    }
    double gpSum = 0;
    std::string per, bytes;
    uint32_t rtos = 0, rexmits = 0;
    for (uint32_t k = 1; k <= 5; k++)
    {
        Flow& f = fl[k - 1];
        double g = f.sink->GetTotalRx() * 8.0 / (T - (19.0 + k)) / 1000.0;
        gpSum += g;
        rtos += f.rtos;
        rexmits += f.rexmits;
        char b[64];
        snprintf(b, sizeof b, "%s%.2f", per.empty() ? "" : ",", g);
        per += b;
        snprintf(b, sizeof b, "%s%llu", bytes.empty() ? "" : ",", (unsigned long long)f.sink->GetTotalRx());
        bytes += b;
    }
    uint64_t tx = 0, failed = 0, final = 0, qd = 0;
    for (auto& c : cs)
    {
        tx += c.dataTx;
        failed += c.dataFailed;
        final += c.finalFailed;
        qd += c.queueDrops;
    }
    printf("RESULT seed=%u mv=%s tcp=%s T=%g cbr_sent=%llu cbr_rcvd=%llu cbr_pdr=%.4f cbr_dups=%llu "
           "cbr_delay_ms=%.2f cbr_per_flow=%s tcp_goodput_kbps=%s tcp_sum_kbps=%.2f tcp_rx_bytes=%s "
           "tcp_rtos=%u tcp_rexmits=%u rreq=%llu rrep=%llu rerr=%llu rrep_ack=%llu hello=%llu "
           "aodv_other=%llu aodv_bytes=%llu macdrop_enq=%llu macdrop_expired=%llu macdrop_retry=%llu "
           "mac_tx_unicast=%llu missed_acks=%llu final_failed=%llu queue_drops=%llu "
           "ipdrop_ttl=%llu ipdrop_noroute=%llu ipdrop_routeerr=%llu ipdrop_ifdown=%llu ipdrop_dup=%llu wall_s=%.2f\n",
           seed, mv.c_str(), label.c_str(), T, (unsigned long long)sent, (unsigned long long)rcvd,
           sent ? double(rcvd) / sent : 0.0, (unsigned long long)dups, rcvd ? 1000 * dsum / rcvd : 0.0,
           cbrPer.c_str(), per.c_str(), gpSum, bytes.c_str(), rtos, rexmits,
           (unsigned long long)g_aodv[1], (unsigned long long)g_aodv[2], (unsigned long long)g_aodv[3],
           (unsigned long long)g_aodv[4], (unsigned long long)g_aodv[5], (unsigned long long)g_aodvOther,
           (unsigned long long)g_aodvBytes, (unsigned long long)g_macDrop[0], (unsigned long long)g_macDrop[1],
           (unsigned long long)g_macDrop[2], (unsigned long long)tx, (unsigned long long)failed,
           (unsigned long long)final, (unsigned long long)qd, (unsigned long long)g_ipDrop[1],
           (unsigned long long)g_ipDrop[2], (unsigned long long)g_ipDrop[5], (unsigned long long)g_ipDrop[4],
           (unsigned long long)g_ipDrop[7], wall);
    Simulator::Destroy();
    return 0;
}
