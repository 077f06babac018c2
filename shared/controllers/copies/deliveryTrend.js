// Delivery-time trend: the one-way delivery time (receiver's clock minus the echoed send time) is
// compared with an earlier one. The two clocks never agree, but their offset is the same in both
// times, so it cancels in the comparison: only the trend counts. A factor× faster delivery takes a
// packet off the window, a factor× slower one adds a packet. Underneath, a slow AIMD keeps probing:
// w + 1/w² per ACK, and w^¼ when the timer fires.
export default {
  title: 'Delivery-time trend (my copy)',
  params: [
    { name: 'interval', unit: 'ms', min: 10, max: 2000, step: 10, default: 200, doc: 'How far apart the compared delivery times are (interval comparison)' },
    { name: 'factor', unit: '×', min: 1.1, max: 10, step: 0.1, default: 2, doc: 'Change that counts as much faster (÷) or slower (×)' },
    { name: 'timeout', unit: 'ms', min: 20, max: 2000, step: 10, default: 100, doc: 'No ACK for this long: w ← w^¼' },
    {
      name: 'compare',
      choices: ['interval', 'per-packet', 'k-average'],
      default: 'interval',
      doc: 'Compare with the delivery time an interval ago, the previous packet’s, or mean of k with the k before',
    },
    { name: 'k', unit: 'packets', min: 2, max: 100, step: 1, default: 4, doc: 'Packets averaged in the k-average comparison' },
  ],
  create(p) {
    let w = 1;
    let reference = NaN; // the earlier delivery time (NaN until there is one: every comparison is false)
    let referenceAt = -Infinity;
    const recent = []; // k-average: the delivery times since the last mean

    // The delivery time to compare: this packet's, or the mean of the last k (NaN until k are in).
    function current(delivery) {
      if (p.compare !== 'k-average') return delivery;
      recent.push(delivery);
      if (recent.length < p.k) return NaN;
      let sum = 0;
      for (const d of recent) sum += d;
      recent.length = 0;
      return sum / p.k;
    }

    return {
      windowSize() {
        return w;
      },
      onAck(ack) {
        w += 1 / (w * w);
        const now = current(ack.receivedAt - ack.sentAt);
        if (Number.isNaN(now)) return;
        if (p.compare === 'interval' && ack.now - referenceAt < p.interval) return;
        if (now < reference / p.factor) w = Math.max(1, w - 1);
        else if (now > reference * p.factor) w += 1;
        reference = now;
        referenceAt = ack.now;
      },
      onTimeout(now) {
        w = Math.max(1, Math.pow(w, 0.25));
      },
      timeoutMs() {
        return p.timeout;
      },
    };
  },
};
