// CUBIC as Linux runs it (tcp_cubic.c, RFC 8312). After a loss the window follows a cubic curve in
// the time since the loss, W(t) = C(t − K)³ + Wmax: fast while far below the window where the loss came
// (Wmax), flat around it, then probing faster above it. The curve's pace depends on time, not on ACKs,
// so flows with different RTTs grow alike. It never grows slower than Reno would over the same ACKs
// (the TCP-friendly region). HyStart ends slow start before the first loss: when a round's ACK train
// spans half the minimum RTT (the pipe is full) or the round's RTT rises (a queue is building). Only a
// loss bounds the window: with no loss it grows without end, as Linux's would. One reduction per
// window of packets; the timer follows RFC 6298.

// HyStart: the samples a round's delay check takes, and the window from which it watches
const HYSTART_MIN_SAMPLES = 8;
const HYSTART_LOW_WINDOW = 16;
const HYSTART_DELAY_MIN = 4; // ms, bounds of the RTT rise that ends slow start
const HYSTART_DELAY_MAX = 16;
const HYSTART_ACK_DELTA = 2; // ms: ACKs this close together continue an ACK train

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
    let roundStart = -1;
    let lastTrainAck = -1;
    // Reno's window counted over the same ACKs since the curve began (tcp_cubic.c's tcp_cwnd and ack_cnt)
    let renoW = 0;
    let renoAcks = 0;
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

    // HyStart: a new round starts its ACK train and its RTT samples. Slow start ends when the train (ACKs
    // at most 2 ms apart) spans more than half the minimum RTT, or when the least of the round's first
    // eight RTTs exceeds the minimum by an eighth of it (4–16 ms).
    function hystartSample(ack, rtt) {
      if (ack.seq >= roundEnd) {
        roundEnd = highestSent + 1;
        roundStart = lastTrainAck = ack.now;
        roundMinRtt = Infinity;
        roundSamples = 0;
      }
      if (w < HYSTART_LOW_WINDOW) return;
      if (ack.now - lastTrainAck <= HYSTART_ACK_DELTA) {
        lastTrainAck = ack.now;
        if (ack.now - roundStart > rttMin / 2) {
          ssthresh = w;
          return;
        }
      }
      if (roundSamples < HYSTART_MIN_SAMPLES) {
        roundSamples++;
        if (rtt < roundMinRtt) roundMinRtt = rtt;
      } else if (roundMinRtt > rttMin + Math.min(HYSTART_DELAY_MAX, Math.max(HYSTART_DELAY_MIN, rttMin / 8))) {
        ssthresh = w;
      }
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
        renoW = w;
        renoAcks = 0;
      }
      // Linux aims one minimum RTT ahead: the window to be at when this ACK's successor returns
      const t = (now - epochStart + rttMin) / 1000;
      const target = p.c * Math.pow(t - k, 3) + originPoint;
      // ACKs per one-packet increase, as tcp_cubic.c counts: towards the target, or a probe of 1% per RTT
      let cnt = target > w ? w / (target - w) : 100 * w;
      // with no loss yet the curve starts flat: grow at least 5% per RTT
      if (wMax === 0 && cnt > 20) cnt = 20;
      // Reno grows 3(1 − β)/(1 + β) packets per window of ACKs: counted in ACKs, not in minimum RTTs, so
      // a deep queue does not make it race ahead
      renoAcks++;
      const acksPerPacket = (w * (1 + p.beta)) / (3 * (1 - p.beta));
      while (renoAcks > acksPerPacket) {
        renoAcks -= acksPerPacket;
        renoW++;
      }
      if (renoW > w) cnt = Math.min(cnt, w / (renoW - w));
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
        // as in Linux, HyStart sees the ACK before slow start counts it: the ACK that ends slow start
        // grows as congestion avoidance does
        if (p.hystart === 'on' && w < ssthresh) hystartSample(ack, rtt);
        if (w < ssthresh) w += 1;
        else congestionAvoidance(ack.now);
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
        // Linux: ssthresh from the same β, then the loss state resets CUBIC (no Wmax) and re-arms HyStart
        ssthresh = Math.max(2, w * p.beta);
        wMax = 0;
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
