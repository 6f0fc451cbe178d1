# 802.11b DSSS MAC and a TwoRayGround PHY whose decode and carrier-sense
# ranges are both 250 m, shared by wifi-chain-routing.tcl and manet-field.tcl
# (sourced before the nodes are made).
# 802.11b DSSS (ns-2.35 Mac/802_11 defaults are already 802.11b timing; set explicitly)
Mac/802_11 set SlotTime_          0.000020
Mac/802_11 set SIFS_              0.000010
Mac/802_11 set PreambleLength_    144
Mac/802_11 set PLCPHeaderLength_  48
Mac/802_11 set PLCPDataRate_      1.0e6
Mac/802_11 set dataRate_          11.0e6
Mac/802_11 set basicRate_         1.0e6
Mac/802_11 set CWMin_             31
Mac/802_11 set CWMax_             1023
Mac/802_11 set ShortRetryLimit_   7
Mac/802_11 set LongRetryLimit_    4
Mac/802_11 set RTSThreshold_      3000   ;# ns-2.35 default 0 = RTS before every frame

# --- range: TwoRayGround (914 MHz, 1.5 m antennas, Pt 0.28183815 W) power at 250 m,
# Pr = Pt Gt Gr ht^2 hr^2 / (d^4 L) (d = 250 m is past the 86 m crossover).
set Pt 0.28183815
Phy/WirelessPhy set Pt_ $Pt
Phy/WirelessPhy set freq_ 914e6
Phy/WirelessPhy set L_ 1.0
Antenna/OmniAntenna set Z_ 1.5
Antenna/OmniAntenna set Gt_ 1.0
Antenna/OmniAntenna set Gr_ 1.0
set thr [expr {$Pt * pow(1.5,4) / pow(250.0,4)}]
Phy/WirelessPhy set RXThresh_ $thr
Phy/WirelessPhy set CSThresh_ $thr
