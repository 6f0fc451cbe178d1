package wireless

// Stats are a radio's MAC counters.
type Stats struct {
	DataFrames  int64 `json:"data_frames"`          // data frames sent, retransmissions included
	Retries     int64 `json:"retries"`              // of them, retransmissions
	MissedACKs  int64 `json:"missed_acks"`          // ACK (or CTS) timeouts
	RetryDrops  int64 `json:"retry_drops"`          // packets given up at the retry limit
	QueueDrops  int64 `json:"queue_drops"`          // packets dropped by the interface queue (full)
	AgeDrops    int64 `json:"age_drops"`            // packets dropped for waiting too long
	Collisions  int64 `json:"collisions"`           // frames this radio locked onto and lost with another signal on the air
	PHYErrors   int64 `json:"phy_errors"`           // frames lost to noise or a receive error model, without interference
	Received    int64 `json:"received"`             // data frames received for this radio, duplicates included
	Duplicates  int64 `json:"duplicates"`           // of them, retransmissions of frames already delivered
	AboveMAC    int64 `json:"above_mac"`            // packets acknowledged by the MAC and lost before IP (the receive error model above the MAC)
	RTS         int64 `json:"rts"`                  // RTS frames sent
	Broadcasts  int64 `json:"broadcasts,omitempty"` // group-addressed frames sent (a routing protocol's floods and hellos); included in data_frames
	MaxQueueLen int   `json:"max_queue"`            // the interface queue's high-water mark, packets
}
