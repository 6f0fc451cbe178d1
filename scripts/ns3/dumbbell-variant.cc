// Scenario C "dumbbell-10flows" and C-big (ns-3.37) with any congestion
// control: the anchors' dumbbell-flows.cc, whose flows are NewReno, with a
// --variant flag (and pacing switched on for BBR, which ns-3.37 requires).
// The independent check of tcplab's `bbr` on C and C-big
// (compare/bbr_test.go).
//
//   S_i --100Mbps,1ms-- R1 --BW,50ms,DropTail 50, loss p on data-- R2 --100Mbps,1ms-- D_i
//
// usage: ./dumbbell-variant --variant=Bbr --n=10 --bw=6 --p=0.02 --seed=1 --sack=1
//        ./dumbbell-variant --variant=Bbr --n=100 --bw=100 --p=0.02 --seed=1 --sack=1
//        [--ns3::Type::Attribute=value ...]
// Build: g++ -std=c++17 -O2 -I ANCHORS/ns3 -o dumbbell-variant dumbbell-variant.cc $LIBS
// (LIBS as in the anchors' build.sh).
#include "common.h"

int
main(int argc, char* argv[])
{
    std::string variant = "Bbr";
    uint32_t nflows = 10;
    double bw = 6;
    double p = 0.02;
    uint32_t seed = 1;
    double T = 100.0;
    double stagger = -1;
    bool ns3defaults = false;
    bool sack = false;
    CommandLine cmd;
    cmd.AddValue("variant", "TCP variant (Bbr, NewReno, Cubic, ...)", variant);
    cmd.AddValue("n", "number of flows", nflows);
    cmd.AddValue("bw", "bottleneck rate in Mbit/s", bw);
    cmd.AddValue("p", "loss probability on the bottleneck (data direction)", p);
    cmd.AddValue("seed", "RNG run number", seed);
    cmd.AddValue("T", "simulated seconds", T);
    cmd.AddValue("stagger", "start offset between flows in s (default 1/n)", stagger);
    cmd.AddValue("ns3defaults", "keep ns-3's own TCP defaults instead of ns-2's", ns3defaults);
    cmd.AddValue("sack", "SACK on, other settings still matched to ns-2", sack);
    cmd.Parse(argc, argv);
    if (stagger < 0)
    {
        stagger = 1.0 / nflows;
    }

    const uint32_t seg = 1000;
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);
    std::string label = ConfigureTcp(variant, seg, 64, ns3defaults, sack);
    if (variant == "Bbr")
    {
        // TcpBbr asserts that the socket paces.
        Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(true));
    }
    cmd.Parse(argc, argv); // again, so that --ns3::Type::Attribute=value overrides win

    NodeContainer routers, src, dst;
    routers.Create(2);
    src.Create(nflows);
    dst.Create(nflows);
    InternetStackHelper stack;
    stack.Install(routers);
    stack.Install(src);
    stack.Install(dst);
    Ipv4AddressHelper addr("10.0.0.0", "255.255.255.0");
    NetDeviceContainer bott = Link(routers.Get(0), routers.Get(1),
                                   std::to_string(bw) + "Mbps", "50ms", addr);
    AddLoss(bott.Get(1), p);
    for (uint32_t i = 0; i < nflows; i++)
    {
        Link(src.Get(i), routers.Get(0), "100Mbps", "1ms", addr);
        Link(routers.Get(1), dst.Get(i), "100Mbps", "1ms", addr);
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    std::vector<Flow> flows(nflows);
    for (uint32_t i = 0; i < nflows; i++)
    {
        Ipv4Address dAddr = dst.Get(i)->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal();
        BulkFlow(&flows[i], src.Get(i), dst.Get(i), dAddr, 5000, seg, i * stagger);
    }

    Simulator::Stop(Seconds(T));
    Simulator::Run();
    double sum = 0, sumsq = 0;
    uint32_t rtos = 0, rexmits = 0;
    printf("FLOWS sim=ns3 var=n%u_bw%g_%s p=%g seed=%u kbps:", nflows, bw, label.c_str(), p, seed);
    for (const Flow& f : flows)
    {
        double g = f.GoodputKbps(T);
        sum += g;
        sumsq += g * g;
        rtos += f.rtos;
        rexmits += f.rexmits;
        printf(" %.1f", g);
    }
    double jain = sumsq > 0 ? sum * sum / (nflows * sumsq) : 0;
    printf("\nRESULT sim=ns3 scen=C var=n%u_bw%g_%s p=%g seed=%u goodput_kbps=%.2f "
           "mean_kbps=%.2f jain=%.4f rtos=%u rexmits=%u\n",
           nflows, bw, label.c_str(), p, seed, sum, sum / nflows, jain, rtos, rexmits);
    Simulator::Destroy();
    return 0;
}
