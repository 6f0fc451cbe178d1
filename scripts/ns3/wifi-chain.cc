// TCP over an 802.11b chain in ns-3.37, the reference for tcplab's
// examples/wifi-chain.yaml: hops+1 nodes on a line, 200 m apart, static
// routes along the line, one NewReno+SACK bulk transfer from the first
// node to the last (1024-byte segments, window 32, ns-2-matched TCP as in
// the wired anchors), optional loss at the last receiver either at its PHY
// (frames corrupted: the MAC retries) or above its MAC (packets lost after
// the MAC's ACK). Built against the shared anchors' wifi-common.h.
// usage: ./wifi-chain --hops=10 --rate=11 --prop=range [--time=60 --seed=1 --loss=0.05 --lossmode=phy|ip]
#include "wifi-common.h"

#include "ns3/error-model.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-static-routing-helper.h"

#include <chrono>

static Ptr<UniformRandomVariable> g_u;
static double g_loss = 0;
static uint64_t g_ipDrops = 0;

// Above-MAC loss: the device's receive callback, wrapped.
static bool
LossyRx(Ptr<Ipv4L3Protocol> ip, Ptr<NetDevice> d, Ptr<const Packet> p, uint16_t proto, const Address& from)
{
    if (proto == Ipv4L3Protocol::PROT_NUMBER && g_u->GetValue() < g_loss)
    {
        g_ipDrops++;
        return true;
    }
    ip->Receive(d, p, proto, from, d->GetAddress(), NetDevice::PACKET_HOST);
    return true;
}

int
main(int argc, char* argv[])
{
    uint32_t hops = 10;
    double rate = 11;
    std::string prop = "range";
    double T = 60;
    uint32_t seed = 1;
    std::string lossmode = "phy";
    CommandLine cmd;
    cmd.AddValue("hops", "hops of the chain", hops);
    cmd.AddValue("rate", "data rate, Mbit/s", rate);
    cmd.AddValue("prop", "range | friis | tworay", prop);
    cmd.AddValue("time", "seconds of transfer", T);
    cmd.AddValue("seed", "run number", seed);
    cmd.AddValue("loss", "loss probability at the last receiver", g_loss);
    cmd.AddValue("lossmode", "phy | ip", lossmode);
    cmd.Parse(argc, argv);
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);
    auto t0 = std::chrono::steady_clock::now();

    std::string label = ConfigureTcp("NewReno", 1024, 32, false, true);
    NodeContainer n;
    n.Create(hops + 1);
    MobilityHelper mob;
    Ptr<ListPositionAllocator> pos = CreateObject<ListPositionAllocator>();
    for (uint32_t i = 0; i <= hops; i++)
    {
        pos->Add(Vector(200.0 * i, 0, 0));
    }
    mob.SetPositionAllocator(pos);
    mob.Install(n);
    WifiProfile w;
    w.prop = prop;
    w.rateMbps = rate;
    NetDeviceContainer devs = InstallWifi(n, w);
    Ipv4InterfaceContainer ifs = SetupIp(n, devs);
    // Static host routes along the line, both ways.
    Ipv4StaticRoutingHelper sr;
    for (uint32_t i = 0; i <= hops; i++)
    {
        Ptr<Ipv4StaticRouting> r = sr.GetStaticRouting(n.Get(i)->GetObject<Ipv4>());
        for (uint32_t j = 0; j <= hops; j++)
        {
            if (j == i || j == i + 1 || j + 1 == i)
            {
                continue;
            }
            uint32_t via = j > i ? i + 1 : i - 1;
            r->AddHostRouteTo(ifs.GetAddress(j), ifs.GetAddress(via), 1);
        }
    }
    g_u = CreateObject<UniformRandomVariable>();
    Ptr<NetDevice> last = devs.Get(hops);
    if (g_loss > 0 && lossmode == "phy")
    {
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
        em->SetRate(g_loss);
        DynamicCast<WifiNetDevice>(last)->GetPhy()->SetPostReceptionErrorModel(em);
    }
    else if (g_loss > 0)
    {
        Ptr<Ipv4L3Protocol> ip = n.Get(hops)->GetObject<Ipv4L3Protocol>();
        last->SetReceiveCallback(
            [ip](Ptr<NetDevice> d, Ptr<const Packet> p, uint16_t proto, const Address& from) {
                return LossyRx(ip, d, p, proto, from);
            });
    }
    std::vector<WifiCounters> cs(hops + 1);
    for (uint32_t i = 0; i <= hops; i++)
    {
        AttachCounters(devs.Get(i), &cs[i]);
    }
    Flow f;
    BulkFlow(&f, n.Get(0), n.Get(hops), ifs.GetAddress(hops), 5001, 1024, 1.0);
    Simulator::Stop(Seconds(1.0 + T));
    Simulator::Run();
    uint64_t tx = 0, failed = 0, final = 0, qd = 0;
    for (auto& c : cs)
    {
        tx += c.dataTx;
        failed += c.dataFailed;
        final += c.finalFailed;
        qd += c.queueDrops;
    }
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    printf("RESULT prop=%s rate=%g hops=%u loss=%g lossmode=%s seed=%u goodput_kbps=%.1f rtos=%u rexmits=%u "
           "mac_tx=%llu missed_acks=%llu retry_drops=%llu queue_drops=%llu ip_drops=%llu wall_s=%.2f\n",
           prop.c_str(), rate, hops, g_loss, lossmode.c_str(), seed, f.GoodputKbps(T), f.rtos, f.rexmits,
           (unsigned long long)tx, (unsigned long long)failed, (unsigned long long)final,
           (unsigned long long)qd, (unsigned long long)g_ipDrops, wall);
    Simulator::Destroy();
    return 0;
}
