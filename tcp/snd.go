package tcp

// Sender is the sending half of a connection.
type Sender struct{}
