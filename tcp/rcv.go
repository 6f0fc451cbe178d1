package tcp

// Receiver is the receiving half of a connection.
type Receiver struct{}
