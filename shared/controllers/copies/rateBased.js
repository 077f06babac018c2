// Rate-based: the window is what the path delivered lately, scaled to one round trip.
// w = (ACKs per ms over the last span) × minimum RTT × k + c. The minimum RTT is the round trip
// without a queue, so k = 1 aims at a full pipe and nothing queued; c keeps a few packets going when
// the rate estimate is still near zero.
export default {
  title: 'Rate-based (my copy)',
  params: [
    { name: 'span', unit: 'ms', min: 10, max: 2000, step: 10, default: 150, doc: 'Window over which the ACK rate is measured' },
    { name: 'k', unit: '×', min: 0.5, max: 5, step: 0.05, default: 2, doc: 'Multiplier on the bandwidth-delay product' },
    { name: 'c', unit: 'packets', min: 0, max: 20, step: 0.5, default: 1, doc: 'Packets added on top' },
  ],
  create(p) {
    let w = 1;
    let rttMin = Infinity;
    let rate = 0; // ACKs per ms
    // arrival times of the ACKs; those before `head` have left the span. The front is cut off now and
    // then rather than on every ACK, which would copy the whole list each time.
    const ackTimes = [];
    let head = 0;

    return {
      windowSize() {
        return w;
      },
      onAck(ack) {
        const rtt = ack.now - ack.sentAt;
        if (rtt < rttMin) rttMin = rtt;
        ackTimes.push(ack.now);
        while (ackTimes[head] <= ack.now - p.span) head++;
        if (head > 4096) {
          ackTimes.splice(0, head);
          head = 0;
        }
        rate = (ackTimes.length - head) / p.span;
        w = rate * rttMin * p.k + p.c;
      },
      onTimeout(now) {},
      estimates() {
        return { rttMin, bandwidth: rate * 1000 };
      },
    };
  },
};
