// Watermarks: two RTT thresholds. Below the low mark the path is empty enough to take one more
// packet; above the high mark a queue has built, so give one back. Between them the window holds.
export default {
  title: 'Watermarks (my copy)',
  params: [
    { name: 'low', unit: 'ms', min: 10, max: 1000, step: 5, default: 50, doc: 'RTT below which the window grows by one per ACK' },
    { name: 'high', unit: 'ms', min: 10, max: 2000, step: 5, default: 150, doc: 'RTT above which the window shrinks by one per ACK' },
  ],
  create(p) {
    let w = 1;
    return {
      windowSize() {
        return w;
      },
      onAck(ack) {
        const rtt = ack.now - ack.sentAt;
        if (rtt < p.low) w += 1;
        else if (rtt > p.high) w = Math.max(1, w - 1); // never below one packet, or the sender stalls
      },
      onTimeout(now) {},
    };
  },
};
