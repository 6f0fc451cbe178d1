package units

// Quantities as scenarios and component parameters hold them; a scenario
// reads each from its text with the unit required.

// Bandwidth is a rate in bits per second: "2Mbps", "100kbps", "1Gbps".
type Bandwidth float64

// Bytes is a size in bytes: "1024B", "64KB" (10^3), "64KiB" (2^10).
type Bytes int64

// Fraction is a probability in [0, 1]: "2%" or 0.02.
type Fraction float64
