// What the routing reference programs (wifi-chain.cc, manet-waypoint.cc)
// count in ns-3.37: AODV control packets sent, by kind (every IPv4
// transmission on UDP port 654, so a forwarded RREQ counts at each node; a
// hello is an RREP with TTL 1 to a broadcast address), TCP data segments
// sent or forwarded, MAC drops by WifiMacDropReason, IP drops by
// Ipv4L3Protocol::DropReason. Connect IpTx and IpDrop to Ipv4L3Protocol's
// "Tx" and "Drop", MacDrop to WifiMac's "DroppedMpdu".
#pragma once

#include "ns3/aodv-module.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/tcp-header.h"
#include "ns3/udp-header.h"
#include "ns3/wifi-module.h"

using namespace ns3;

static uint64_t g_aodv[6] = {0, 0, 0, 0, 0, 0}; // 1 RREQ, 2 RREP (not hello), 3 RERR, 4 RREP_ACK, 5 hello
static uint64_t g_aodvBytes = 0;
static uint64_t g_aodvOther = 0;
static uint64_t g_macDrop[4] = {0, 0, 0, 0};
static uint64_t g_ipDrop[8] = {0, 0, 0, 0, 0, 0, 0, 0};
static uint64_t g_ipTxTcpData = 0;

static void
IpTx(Ptr<const Packet> p, Ptr<Ipv4>, uint32_t)
{
    Ptr<Packet> c = p->Copy();
    Ipv4Header ih;
    c->RemoveHeader(ih);
    if (ih.GetProtocol() == 6)
    {
        TcpHeader th;
        c->RemoveHeader(th);
        if (c->GetSize() > 0)
        {
            g_ipTxTcpData++;
        }
        return;
    }
    if (ih.GetProtocol() != 17)
    {
        return;
    }
    UdpHeader uh;
    c->RemoveHeader(uh);
    if (uh.GetDestinationPort() != aodv::RoutingProtocol::AODV_PORT)
    {
        return;
    }
    g_aodvBytes += p->GetSize();
    aodv::TypeHeader t;
    c->RemoveHeader(t);
    if (!t.IsValid())
    {
        g_aodvOther++;
        return;
    }
    uint32_t k = t.Get();
    if (k == aodv::AODVTYPE_RREP && ih.GetTtl() == 1 &&
        (ih.GetDestination().IsBroadcast() || ih.GetDestination().IsSubnetDirectedBroadcast(Ipv4Mask("255.255.255.0"))))
    {
        k = 5; // a hello (the /24 interface's broadcast address)
    }
    g_aodv[k]++;
}

static void
MacDrop(WifiMacDropReason r, Ptr<const WifiMpdu>)
{
    if (r < 4)
    {
        g_macDrop[r]++;
    }
}

static void
IpDrop(const Ipv4Header&, Ptr<const Packet>, Ipv4L3Protocol::DropReason r, Ptr<Ipv4>, uint32_t)
{
    if (r < 8)
    {
        g_ipDrop[r]++;
    }
}
