// Delay trigger: grows while the RTT is under a threshold and shrinks above it.
export default {
  title: 'Delay trigger (my copy)',
  params: [
    { name: 'threshold', unit: 'ms', min: 20, max: 1000, step: 5, default: 100, doc: 'RTT at or above which the window shrinks' },
    { name: 'increase', unit: 'packets', min: 0.1, max: 2, step: 0.1, default: 1, doc: 'Added below the threshold (per ACK, or per window of ACKs)' },
    { name: 'increaseMode', choices: ['per-ack', 'per-window'], default: 'per-ack', doc: 'per-ack: w += increase; per-window: w += increase/w' },
    { name: 'decrease', unit: 'packets', min: 0.1, max: 2, step: 0.1, default: 1, doc: 'Taken per ACK above the threshold (additive variant)' },
    { name: 'variant', choices: ['additive', 'multiplicative'], default: 'additive', doc: 'Above the threshold: w − decrease, or w·beta' },
    { name: 'beta', unit: '', min: 0.05, max: 0.95, step: 0.05, default: 0.5, doc: 'Factor of the multiplicative variant' },
    { name: 'cut', choices: ['every-ack', 'once-per-window'], default: 'every-ack', doc: 'Shrink on every ACK above the threshold, or once per window' },
  ],
  create(p) {
    let w = 1;
    let cutAt = -Infinity;
    let rttMin = Infinity;
    return {
      windowSize() {
        return w;
      },
      onAck(ack) {
        const rtt = ack.now - ack.sentAt;
        if (rtt < rttMin) rttMin = rtt;
        if (rtt < p.threshold) {
          w += p.increaseMode === 'per-window' ? p.increase / w : p.increase;
          return;
        }
        // once per window: ACKs of packets sent before the last cut still carry the delay that caused it
        if (p.cut === 'once-per-window' && ack.sentAt < cutAt) return;
        const next = p.variant === 'multiplicative' ? w * p.beta : w - p.decrease;
        w = next < 1 ? 1 : next;
        cutAt = ack.now;
      },
      onTimeout(now) {},
      estimates() {
        return { threshold: p.threshold, rttMin };
      },
    };
  },
};
