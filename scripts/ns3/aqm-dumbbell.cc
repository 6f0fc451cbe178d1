// CoDel and PIE on a dumbbell in ns-3.37 (CoDelQueueDisc, PieQueueDisc with
// their default parameters; FifoQueueDisc, a drop-tail one, as the
// baseline): the independent check of tcplab's `codel`, `pie` and
// `droptail` queues (examples/aqm-dumbbell.yaml,
// scenario/aqm_ns3_test.go).
//
//   S0..Sn-1 --100Mbps,1ms-- R1 --10Mbps,20ms, AQM-- R2 --100Mbps,1ms-- D
//
// n bulk TCP flows (the anchors' ns-2-matched NewReno with SACK, receive
// window of 500 segments of 1024 bytes, with window scaling, so that the
// window never limits and the queue stands); flow i starts at
// (7919·seed + 104729·i) mod 1000 ms, the same rule the tcplab test uses.
// The queueing delays and the drops are counted after a warm-up (--warmup,
// 10 s), once the flows' slow starts are over: the steady state, as
// RFC 7928 asks AQM comparisons to report. The bottleneck's device queue holds
// one packet, which stops the queue disc while a packet waits there, so a
// packet leaves the queue disc when its transmission starts: the queue
// disc's SojournTime (enqueue to dequeue) is then the queueing delay tcplab
// measures from its queue's enqueue to its dequeue at the start of the
// transmission. (It also counts the packets CoDel drops as it dequeues
// them, a few hundred in 70 000.)
// usage: ./aqm-dumbbell --aqm=CoDel|Pie|Fifo [--flows=4 --time=60 --seed=1 --warmup=10]
// Build: g++ -std=c++17 -O2 -I ANCHORS/ns3 -o aqm-dumbbell aqm-dumbbell.cc $LIBS
#include "common.h"

#include <algorithm>
#include <vector>

static std::vector<double> g_delays; // ms
static double g_warmupS = 10;
static uint32_t g_drops = 0;

static void
OnDrop(Ptr<const QueueDiscItem>)
{
    if (Simulator::Now() >= Seconds(g_warmupS))
    {
        g_drops++;
    }
}

static void
OnSojourn(Time t)
{
    if (Simulator::Now() >= Seconds(g_warmupS))
    {
        g_delays.push_back(t.GetSeconds() * 1000);
    }
}

static double
Percentile(std::vector<double> v, double q)
{
    if (v.empty())
    {
        return 0;
    }
    std::sort(v.begin(), v.end());
    size_t k = std::min(v.size() - 1, (size_t)(q * (v.size() - 1) + 0.5));
    return v[k];
}

int
main(int argc, char* argv[])
{
    std::string aqm = "CoDel";
    uint32_t flows = 4;
    double T = 60;
    uint32_t seed = 1;
    CommandLine cmd;
    cmd.AddValue("aqm", "CoDel or Pie", aqm);
    cmd.AddValue("flows", "bulk TCP flows", flows);
    cmd.AddValue("time", "simulated seconds", T);
    cmd.AddValue("seed", "run number", seed);
    cmd.AddValue("warmup", "seconds at the start whose queueing delays are left out", g_warmupS);
    cmd.Parse(argc, argv);
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);

    const uint32_t seg = 1024;
    ConfigureTcp("NewReno", seg, 500, false, true);
    // The 500-segment window needs window scaling (common.h turns it off
    // as ns-2 has none: without it the window is 65 535 bytes) and a send
    // buffer to match (ns-3's default of 131 072 bytes caps a flow at 128
    // segments in flight).
    Config::SetDefault("ns3::TcpSocketBase::WindowScaling", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(2 * 500 * seg));

    NodeContainer senders;
    senders.Create(flows);
    Ptr<Node> r1 = CreateObject<Node>(), r2 = CreateObject<Node>(), d = CreateObject<Node>();
    InternetStackHelper stack;
    stack.Install(senders);
    stack.Install(r1);
    stack.Install(r2);
    stack.Install(d);
    Ipv4AddressHelper addr("10.1.0.0", "255.255.255.0");
    for (uint32_t i = 0; i < flows; i++)
    {
        Link(senders.Get(i), r1, "100Mbps", "1ms", addr);
    }
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    p2p.SetChannelAttribute("Delay", StringValue("20ms"));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("1p"));
    NetDeviceContainer bn = p2p.Install(r1, r2);
    TrafficControlHelper tch;
    tch.SetRootQueueDisc("ns3::" + aqm + "QueueDisc", "MaxSize", StringValue("1000p"));
    QueueDiscContainer qd = tch.Install(bn.Get(0));
    addr.Assign(bn);
    addr.NewNetwork();
    Ptr<NetDevice> back = bn.Get(1);
    TrafficControlHelper().Uninstall(back);
    NetDeviceContainer last = Link(r2, d, "100Mbps", "1ms", addr);
    Ipv4Address dAddr = d->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal();
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    qd.Get(0)->TraceConnectWithoutContext("SojournTime", MakeCallback(&OnSojourn));
    qd.Get(0)->TraceConnectWithoutContext("Drop", MakeCallback(&OnDrop));

    std::vector<Flow> fs(flows);
    std::vector<double> starts(flows);
    for (uint32_t i = 0; i < flows; i++)
    {
        starts[i] = ((7919ULL * seed + 104729ULL * i) % 1000) * 0.001;
        BulkFlow(&fs[i], senders.Get(i), d, dAddr, 9000 + i, seg, starts[i]);
    }
    Simulator::Stop(Seconds(T));
    Simulator::Run();

    double goodput = 0;
    for (uint32_t i = 0; i < flows; i++)
    {
        goodput += fs[i].sink->GetTotalRx() * 8.0 / (T - starts[i]) / 1000.0;
    }
    double mean = 0;
    for (double x : g_delays)
    {
        mean += x;
    }
    mean /= std::max<size_t>(1, g_delays.size());
    printf("RESULT aqm=%s seed=%u flows=%u goodput_kbps=%.3f drops=%u qdelay_mean_ms=%.4f "
           "qdelay_p50_ms=%.4f qdelay_p90_ms=%.4f qdelay_p99_ms=%.4f\n",
           aqm.c_str(), seed, flows, goodput, g_drops, mean,
           Percentile(g_delays, 0.5), Percentile(g_delays, 0.9), Percentile(g_delays, 0.99));
    Simulator::Destroy();
    return 0;
}
