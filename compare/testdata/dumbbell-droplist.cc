// Scenario A "dumbbell-lossy" of the shared anchors for ns-3.37 with the
// random loss replaced by a fixed drop list, so that tcplab can be run on
// exactly the same losses: S -100Mbps,6ms- R1 -2Mbps,50ms- R2 -9Mbps,1ms- D,
// one bulk flow, 1024-byte segments, a 32-segment window, SACK, 200 s.
// Build as chain-droplist.cc. usage: ./dumbbell-droplist --variant=Cubic --drops=FILE
// FILE holds the 0-based indices of the packets D's device drops.
#include "common.h"

#include <fstream>

int
main(int argc, char* argv[])
{
    std::string variant = "NewReno";
    std::string drops;
    CommandLine cmd;
    cmd.AddValue("variant", "TCP variant", variant);
    cmd.AddValue("drops", "file of packet indices to drop on the last link", drops);
    cmd.Parse(argc, argv);

    const double T = 200.0;
    const uint32_t seg = 1024;
    std::string label = ConfigureTcp(variant, seg, 32, false, true);
    cmd.Parse(argc, argv);

    std::list<uint32_t> list;
    std::ifstream in(drops);
    uint32_t k;
    while (in >> k)
    {
        list.push_back(k);
    }

    NodeContainer n;
    n.Create(4);
    InternetStackHelper().Install(n);
    Ipv4AddressHelper addr("10.1.1.0", "255.255.255.0");
    Link(n.Get(0), n.Get(1), "100Mbps", "6ms", addr);
    Link(n.Get(1), n.Get(2), "2Mbps", "50ms", addr);
    NetDeviceContainer last = Link(n.Get(2), n.Get(3), "9Mbps", "1ms", addr);
    Ptr<ReceiveListErrorModel> em = CreateObject<ReceiveListErrorModel>();
    em->SetList(list);
    last.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    Ipv4Address dAddr = n.Get(3)->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal();
    Flow f;
    BulkFlow(&f, n.Get(0), n.Get(3), dAddr, 5000, seg, 0.0);

    Simulator::Stop(Seconds(T));
    Simulator::Run();
    printf("RESULT goodput_kbps=%.2f rtos=%u rexmits=%u\n", f.GoodputKbps(T), f.rtos, f.rexmits);
    Simulator::Destroy();
    return 0;
}
