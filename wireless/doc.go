// Package wireless is an IEEE 802.11b shared channel: radios at positions
// in the plane, a propagation model (hard range, Friis, two-ray ground),
// a PHY that tracks every signal within sensing range and turns the SINR
// of each part of a frame into its chance of arriving intact (the DSSS and
// CCK error curves), and the DCF MAC above it: carrier sense, NAV, binary
// exponential backoff with post-backoff, MAC ACKs and retries, EIFS,
// optional RTS/CTS, an interface queue with an age limit, and duplicate
// detection. A node with a radio routes over its neighbours like over
// links (network.Radio), so a scenario can mix wired links and wireless
// nodes.
//
// The timing, overheads and defaults follow 802.11-2020 §16 (DSSS) and
// §10.3 (DCF) as ns-3.37 configures them for an ad-hoc 802.11b network;
// where ns-3 departs from the standard (ACKs at the data rate) the choice
// is a setting. Every lost frame and packet keeps its cause: collisions
// and radio errors (frames, retried by the MAC), the retry limit, the
// queue's overflow and age limit, and a loss above the MAC (packets).
package wireless
