// AIMD: additive increase each ACK, multiplicative (or root) decrease when the timer fires.
// With loss detection on, an inferred loss also decreases the window, at most once per window of packets.
export default {
  title: 'AIMD (my copy)',
  params: [
    { name: 'a', unit: 'packets', min: 0.1, max: 10, step: 0.1, default: 1, doc: 'Additive increase per window of ACKs' },
    { name: 'increase', choices: ['a/w', 'a/w2'], default: 'a/w', doc: 'Increase per ACK: a/w (≈ a per RTT) or a/w² (slower)' },
    { name: 'decrease', choices: ['multiplicative', 'sqrt', 'quartic'], default: 'multiplicative', doc: 'On a loss: w·b, √w or w^¼' },
    { name: 'b', unit: '', min: 0.05, max: 0.95, step: 0.05, default: 0.5, doc: 'Multiplicative decrease factor' },
    { name: 'timeout', unit: 'ms', min: 20, max: 1000, step: 10, default: 1000, doc: 'No ACK for this long: the timer fires' },
    { name: 'loss', choices: ['timer-only', 'detect'], default: 'timer-only', doc: 'Also react to losses inferred from later ACKs' },
  ],
  create(p) {
    let w = 1;
    // the highest packet sent, and the highest sent when the window was last cut (one cut per window)
    let highestSent = -1;
    let cutAfter = -1;
    const decreased = () => {
      const next = p.decrease === 'multiplicative' ? w * p.b : p.decrease === 'sqrt' ? Math.sqrt(w) : Math.pow(w, 0.25);
      return next < 1 ? 1 : next;
    };
    return {
      windowSize() {
        return w;
      },
      onSend(seq) {
        if (seq > highestSent) highestSent = seq;
      },
      onAck(ack) {
        w += p.increase === 'a/w2' ? p.a / (w * w) : p.a / w;
      },
      onLoss(now, seq) {
        if (p.loss !== 'detect' || seq <= cutAfter) return;
        cutAfter = highestSent;
        w = decreased();
      },
      onTimeout(now) {
        w = decreased();
        cutAfter = highestSent;
      },
      timeoutMs() {
        return p.timeout;
      },
    };
  },
};
