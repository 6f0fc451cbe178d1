#!/bin/sh
# build.sh ANCHORS_DIR: builds wifi-chain and manet-waypoint against Debian's libns3-dev (3.37)
# and the shared anchors' 802.11b harness (ANCHORS_DIR/wifi/ns3/wifi-common.h).
set -e
A=${1:?usage: build.sh ANCHORS_DIR}
cd "$(dirname "$0")"
LIBS="-Wl,--no-as-needed -lns3-aodv -lns3-wifi -lns3-propagation -lns3-mobility -lns3-spectrum -lns3-antenna \
 -lns3-energy -lns3-applications -lns3-point-to-point -lns3-internet -lns3-traffic-control \
 -lns3-bridge -lns3-network -lns3-core"
g++ -std=c++17 -O2 -I"$A/wifi/ns3" -o wifi-chain wifi-chain.cc $LIBS
g++ -std=c++17 -O2 -I"$A/wifi/ns3" -o manet-waypoint manet-waypoint.cc $LIBS
