// CUBIC as Linux runs it (RFC 8312, tcp_cubic.c). After a loss the window follows a cubic curve in the
// time since the loss, W(t) = C(t − K)³ + Wmax: fast while far below the window where the loss came
// (Wmax), flat around it, then probing faster above it. The curve's pace depends on time, not on
// ACKs, so flows with different RTTs grow alike. It never grows slower than Reno would (the
// TCP-friendly region). Slow start ends by HyStart when the RTT of a round rises: the queue is filling.
// One reduction per window of packets; the timer follows RFC 6298.

// HyStart: RTT samples taken at the start of each round, and the window from which it watches
const HYSTART_MIN_SAMPLES = 8;
const HYSTART_LOW_WINDOW = 16;
const HYSTART_DELAY_MIN = 4; // ms, bounds of the RTT rise that ends slow start
const HYSTART_DELAY_MAX = 16;

export default {
  title: 'CUBIC (my copy)',
  params: [
    { name: 'c', unit: '', min: 0.1, max: 2, step: 0.05, default: 0.4, doc: 'Cubic scaling constant C' },
    { name: 'beta', unit: '', min: 0.5, max: 0.9, step: 0.05, default: 0.7, doc: 'Window kept after a loss' },
    { name: 'minRto', unit: 'ms', min: 10, max: 1000, step: 10, default: 200, doc: 'Lower bound of the retransmission timeout (Linux: 200 ms)' },
    { name: 'hystart', choices: ['on', 'off'], default: 'on', doc: 'HyStart ends slow start when the RTT of a round rises' },
  ],
  create(p) {
    let w = 1;
    let ssthresh = Infinity;
    let wMax = 0; // the window when the last loss came (0: no loss yet)
    let epochStart = -1; // when the current curve began (-1: at the next ACK)
    let k = 0; // seconds from the epoch's start until the curve is back at wMax
    let originPoint = 0;
    let rttMin = Infinity;
    let lastCumulative = -1;
    // One reduction per window: losses of packets sent before the cut belong to the same episode.
    let highestSent = -1;
    let cutAfter = -1;
    // HyStart's rounds: a round ends when the ACK of the first packet sent after it began arrives.
    let roundEnd = -1;
    let roundSamples = 0;
    let roundMinRtt = Infinity;
    let lastRoundMinRtt = Infinity;
    // RFC 6298: smoothed RTT, its variation, and the timeout with exponential backoff
    let srtt = NaN;
    let rttvar = NaN;
    let base = 1000;
    let backoff = 1;
    const rto = () => Math.min(60000, Math.max(p.minRto, base) * backoff);

    function sampleRtt(rtt) {
      if (Number.isNaN(srtt)) {
        srtt = rtt;
        rttvar = rtt / 2;
      } else {
        rttvar = 0.75 * rttvar + 0.25 * Math.abs(srtt - rtt);
        srtt = 0.875 * srtt + 0.125 * rtt;
      }
      base = srtt + Math.max(1, 4 * rttvar);
      backoff = 1;
    }

    // HyStart: leave slow start when this round's first RTTs rose clearly above the last round's.
    function hystartSample(seq, rtt) {
      if (seq >= roundEnd) {
        roundEnd = highestSent + 1;
        lastRoundMinRtt = roundMinRtt;
        roundMinRtt = Infinity;
        roundSamples = 0;
      }
      if (roundSamples >= HYSTART_MIN_SAMPLES) return;
      roundSamples++;
      if (rtt < roundMinRtt) roundMinRtt = rtt;
      if (roundSamples < HYSTART_MIN_SAMPLES || w < HYSTART_LOW_WINDOW || lastRoundMinRtt === Infinity) return;
      const threshold = Math.min(HYSTART_DELAY_MAX, Math.max(HYSTART_DELAY_MIN, lastRoundMinRtt / 8));
      if (roundMinRtt >= lastRoundMinRtt + threshold) ssthresh = w;
    }

    function congestionAvoidance(now) {
      if (epochStart < 0) {
        epochStart = now;
        if (w < wMax) {
          k = Math.cbrt((wMax - w) / p.c);
          originPoint = wMax;
        } else {
          k = 0;
          originPoint = w;
        }
      }
      // Linux aims one minimum RTT ahead: the window to be at when this ACK's successor returns
      const t = (now - epochStart + rttMin) / 1000;
      const target = p.c * Math.pow(t - k, 3) + originPoint;
      // ACKs per one-packet increase, as tcp_cubic.c counts: towards the target, or a probe of 1% per RTT
      let cnt = target > w ? w / (target - w) : 100 * w;
      // with no loss yet the curve starts flat: grow at least 5% per RTT
      if (wMax === 0 && cnt > 20) cnt = 20;
      // the window Reno would have reached since the loss: never grow slower than that
      const elapsed = (now - epochStart) / 1000;
      const reno = wMax * p.beta + ((3 * (1 - p.beta)) / (1 + p.beta)) * (elapsed / (rttMin / 1000));
      if (reno > w) cnt = Math.min(cnt, w / (reno - w));
      // never more than one packet per two ACKs (1.5× per RTT)
      w += 1 / Math.max(cnt, 2);
    }

    return {
      windowSize() {
        return w;
      },
      onSend(seq, now) {
        if (seq > highestSent) highestSent = seq;
      },
      onAck(ack) {
        const rtt = ack.now - ack.sentAt;
        if (rtt < rttMin) rttMin = rtt;
        sampleRtt(rtt);
        if (ack.cumulative <= lastCumulative) return; // a duplicate ACK grows nothing
        lastCumulative = ack.cumulative;
        if (w < ssthresh) {
          w += 1;
          if (p.hystart === 'on') hystartSample(ack.seq, rtt);
          return;
        }
        congestionAvoidance(ack.now);
      },
      onLoss(now, seq) {
        if (seq <= cutAfter) return;
        cutAfter = highestSent;
        // fast convergence: a flow losing below its last maximum leaves room for newer flows
        wMax = w < wMax ? (w * (1 + p.beta)) / 2 : w;
        w = Math.max(2, w * p.beta);
        ssthresh = w;
        epochStart = -1;
      },
      onTimeout(now) {
        wMax = w;
        ssthresh = Math.max(2, w * p.beta);
        w = 1;
        epochStart = -1;
        cutAfter = highestSent;
        backoff *= 2;
      },
      timeoutMs() {
        return rto();
      },
      estimates() {
        return { ssthresh, srtt, rto: rto(), rttMin };
      },
    };
  },
};
