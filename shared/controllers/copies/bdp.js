// BDP estimator ("poor man's BBR"): window = average ACK rate of the last intervals (at least one
// minimum RTT of them) × minimum RTT × gain. Packets delivered are counted by the advance of the
// cumulative ACK, so a lost ACK loses no count. Intervals close on ACKs and on the timer.
const HISTORY = 4096; // intervals of history kept
const MAX_BACKOFF = 4; // the timer's wait doubles each time it fires, up to 2⁴ × the base

export default {
  title: 'BDP estimator (my copy)',
  params: [
    { name: 'interval', unit: 'ms', min: 5, max: 500, step: 5, default: 25, doc: 'Length of one rate-measurement interval' },
    { name: 'samples', unit: 'intervals', min: 1, max: 50, step: 1, default: 5, doc: 'How many recent intervals are averaged' },
    { name: 'gain', unit: '×', min: 1, max: 3, step: 0.05, default: 1.75, doc: 'Multiplier on the estimated bandwidth-delay product' },
    { name: 'initial', unit: 'packets', min: 1, max: 100, step: 1, default: 10, doc: 'Window before the first estimate' },
    { name: 'minWindow', unit: 'packets', min: 1, max: 10, step: 1, default: 4, doc: 'Floor of the window' },
    { name: 'timeout', unit: 'ms', min: 0, max: 1000, step: 5, default: 0, doc: 'Timer wait (0: min(RTTmin × gain, 100 ms))' },
  ],
  create(p) {
    let w = p.initial;
    const counts = new Uint32Array(HISTORY);
    let open = -1; // index of the open interval, in intervals since the first ACK
    let openStart = 0;
    let rttMin = Infinity;
    let rate = 0; // packets per ms
    let cumulative = 0;
    let backoff = 0;

    function estimate() {
      const span = Math.min(HISTORY - 1, open, Math.max(p.samples, Math.ceil(rttMin / p.interval)));
      let acked = 0;
      for (let k = 1; k <= span; k++) acked += counts[(open - k) % HISTORY];
      rate = acked / (span * p.interval);
      const bdp = rate * rttMin * p.gain;
      w = Math.max(p.minWindow, bdp);
      if (bdp > p.minWindow) backoff = 0; // the link delivers again: the timer returns to its base wait
    }

    function closeUntil(now) {
      while (now >= openStart + p.interval) {
        open++;
        openStart += p.interval;
        counts[open % HISTORY] = 0;
        estimate();
      }
    }

    return {
      windowSize() {
        return w;
      },
      onAck(ack) {
        const rtt = ack.now - ack.sentAt;
        if (rtt < rttMin) rttMin = rtt;
        if (open < 0) {
          open = 0;
          openStart = ack.now;
        }
        closeUntil(ack.now);
        if (ack.cumulative > cumulative) {
          counts[open % HISTORY] += ack.cumulative - cumulative;
          cumulative = ack.cumulative;
        }
      },
      onTimeout(now) {
        if (open >= 0) closeUntil(now);
        if (backoff < MAX_BACKOFF) backoff++;
      },
      timeoutMs() {
        const base = p.timeout > 0 ? p.timeout : Math.min(rttMin * p.gain, 100);
        return base * 2 ** backoff;
      },
      estimates() {
        return { rttMin, bandwidth: rate * 1000 };
      },
    };
  },
};
