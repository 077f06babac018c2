// TCP Vegas (Brakmo & Peterson 1995). Once per round trip it compares the rate it expects with no
// queue, w / baseRTT, with the rate it gets, w / RTT (RTT: the smallest of the round). The difference,
// in packets, is what sits in the queue: diff = w × (RTT − baseRTT) / RTT. Below alpha it adds a
// packet, above beta it takes one off, so a few packets stay queued and the link stays busy.
// Slow start doubles the window every other round (the round between measures the RTT at the new
// window) and ends once diff exceeds gamma, as Linux's tcp_vegas.c does. A detected loss halves the
// window, a timeout restarts from two packets. The timer follows RFC 6298.
export default {
  title: 'TCP Vegas (my copy)',
  params: [
    { name: 'alpha', unit: 'packets', min: 0.5, max: 20, step: 0.5, default: 2, doc: 'Fewer packets queued than this: +1 per RTT' },
    { name: 'beta', unit: 'packets', min: 1, max: 40, step: 0.5, default: 4, doc: 'More packets queued than this: −1 per RTT' },
    { name: 'gamma', unit: 'packets', min: 0.5, max: 20, step: 0.5, default: 1, doc: 'Slow start ends when more than this many packets are queued' },
    { name: 'minRto', unit: 'ms', min: 10, max: 1000, step: 10, default: 200, doc: 'Lower bound of the retransmission timeout' },
  ],
  create(p) {
    let w = 2;
    let ssthresh = Infinity;
    let baseRtt = Infinity;
    let roundMinRtt = Infinity;
    let growThisRound = true;
    // A round ends when the ACK of the first packet sent after it began arrives.
    let highestSent = -1;
    let roundEnd = -1;
    // One halving per loss episode: losses of packets sent before the cut belong to the same episode.
    let cutAfter = -1;
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

    // The once-per-RTT decision, on the ACK that ends the round.
    function endRound() {
      const rtt = roundMinRtt;
      roundMinRtt = Infinity;
      if (rtt === Infinity) return;
      const diff = (w * (rtt - baseRtt)) / rtt;
      if (w < ssthresh) {
        if (diff > p.gamma) {
          // the queue has begun to build: leave slow start one packet below what the path holds
          w = Math.max(2, Math.min(w, (w * baseRtt) / rtt + 1));
          ssthresh = w;
        } else growThisRound = !growThisRound;
        return;
      }
      if (diff < p.alpha) w += 1;
      else if (diff > p.beta) w = Math.max(2, w - 1);
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
        sampleRtt(rtt);
        if (rtt < baseRtt) baseRtt = rtt;
        if (rtt < roundMinRtt) roundMinRtt = rtt;
        if (w < ssthresh && growThisRound) w += 1;
        if (ack.seq >= roundEnd) {
          roundEnd = highestSent + 1;
          endRound();
        }
      },
      onLoss(now, seq) {
        if (seq <= cutAfter) return;
        cutAfter = highestSent;
        w = Math.max(2, w / 2);
        ssthresh = w;
      },
      onTimeout(now) {
        ssthresh = Math.max(2, w / 2);
        w = 2;
        cutAfter = highestSent;
        backoff *= 2;
      },
      timeoutMs() {
        return rto();
      },
      estimates() {
        return { rttMin: baseRtt, ssthresh, srtt, rto: rto() };
      },
    };
  },
};
