// Scenario B "chain-4hop" of the shared anchors for ns-3.37, with the random
// loss replaced by fixed drop lists so that tcplab can be run on exactly the
// same losses. Everything else is the anchors' chain-4hop.cc with --sack=1:
// n0 -- n1 -- n2 -- n3 -- n4, 1Mbps, 100ms, DropTail 50, one bulk flow,
// 1000-byte segments, a 50-segment window, 200 s.
// Build next to a copy of the anchors' ns3/common.h:
//   g++ -std=c++17 -O2 -I ANCHORS/ns3 -o chain-droplist chain-droplist.cc \
//     -Wl,--no-as-needed -lns3-applications -lns3-point-to-point -lns3-internet \
//     -lns3-traffic-control -lns3-bridge -lns3-network -lns3-core
// usage: ./chain-droplist --drops=FILE [--rtxrestart=1]
// FILE has four lines, one per forward link: the 0-based indices of the
// packets that link's receiving device drops (ReceiveListErrorModel).
#include "common.h"

#include <fstream>
#include <sstream>

int
main(int argc, char* argv[])
{
    std::string drops;
    CommandLine cmd;
    cmd.AddValue("drops", "file of drop lists, one line per link", drops);
    cmd.AddValue("rtxrestart", "restart the RTO timer on retransmissions in recovery",
                 g_restartRtoInRecovery);
    cmd.Parse(argc, argv);

    const double T = 200.0;
    const uint32_t seg = 1000;
    std::string label = ConfigureTcp("NewReno", seg, 50, false, true);

    std::vector<std::list<uint32_t>> lists;
    std::ifstream in(drops);
    std::string line;
    while (std::getline(in, line))
    {
        std::istringstream ss(line);
        std::list<uint32_t> l;
        uint32_t k;
        while (ss >> k)
        {
            l.push_back(k);
        }
        lists.push_back(l);
    }
    if (lists.size() != 4)
    {
        fprintf(stderr, "%s: want 4 lines, got %zu\n", drops.c_str(), lists.size());
        return 2;
    }

    NodeContainer n;
    n.Create(5);
    InternetStackHelper().Install(n);
    Ipv4AddressHelper addr("10.1.1.0", "255.255.255.0");
    for (uint32_t i = 0; i < 4; i++)
    {
        NetDeviceContainer d = Link(n.Get(i), n.Get(i + 1), "1Mbps", "100ms", addr);
        Ptr<ReceiveListErrorModel> em = CreateObject<ReceiveListErrorModel>();
        em->SetList(lists[i]);
        d.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    Ipv4Address dAddr = n.Get(4)->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal();
    Flow f;
    BulkFlow(&f, n.Get(0), n.Get(4), dAddr, 5000, seg, 0.0);

    Simulator::Stop(Seconds(T));
    Simulator::Run();
    printf("RESULT goodput_kbps=%.2f rtos=%u rexmits=%u\n", f.GoodputKbps(T), f.rtos, f.rexmits);
    Simulator::Destroy();
    return 0;
}
