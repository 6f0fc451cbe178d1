package metrics

import (
	"bufio"
	"io"
	"strconv"
)

// SeriesHeader is the header of a TCP time-series CSV (one row per event of
// a flow's sender).
const SeriesHeader = "time_s,flow,event,seq,ack,tsecr,una,high,cwnd_bytes,ssthresh_bytes,flight_bytes,rto_s,srtt_s,retx\n"

// SeriesWriter writes TCP time-series rows as CSV without allocating per
// row (strconv appends into one reused buffer).
type SeriesWriter struct {
	w   *bufio.Writer
	buf []byte
}

// NewSeriesWriter writes the header to w.
func NewSeriesWriter(w io.Writer) *SeriesWriter {
	s := &SeriesWriter{w: bufio.NewWriterSize(w, 1<<16), buf: make([]byte, 0, 256)}
	s.w.WriteString(SeriesHeader)
	return s
}

// Row is one time-series row; times are in seconds.
type Row struct {
	Time                       float64
	Flow                       string
	Event                      byte
	Seq, Ack, TSecr, Una, High int64
	Cwnd, Ssthresh             float64
	Flight                     int64
	RTO, SRTT                  float64
	Retx                       bool
}

// Write appends one row.
func (s *SeriesWriter) Write(r *Row) {
	b := s.buf[:0]
	b = strconv.AppendFloat(b, r.Time, 'f', 9, 64)
	b = append(b, ',')
	b = append(b, r.Flow...)
	b = append(b, ',', r.Event, ',')
	for _, v := range [...]int64{r.Seq, r.Ack, r.TSecr, r.Una, r.High} {
		b = strconv.AppendInt(b, v, 10)
		b = append(b, ',')
	}
	b = strconv.AppendFloat(b, r.Cwnd, 'f', 1, 64)
	b = append(b, ',')
	b = strconv.AppendFloat(b, min(r.Ssthresh, 1e15), 'f', 1, 64)
	b = append(b, ',')
	b = strconv.AppendInt(b, r.Flight, 10)
	b = append(b, ',')
	b = strconv.AppendFloat(b, r.RTO, 'f', 6, 64)
	b = append(b, ',')
	b = strconv.AppendFloat(b, r.SRTT, 'f', 6, 64)
	b = append(b, ',')
	b = strconv.AppendBool(b, r.Retx)
	b = append(b, '\n')
	s.buf = b
	s.w.Write(b)
}

// Flush writes buffered rows out.
func (s *SeriesWriter) Flush() error { return s.w.Flush() }
