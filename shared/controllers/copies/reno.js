// TCP Reno: slow start to ssthresh, then one packet per window of ACKs; three duplicate ACKs halve the
// window, a timeout restarts from one packet. The retransmission timeout follows RFC 6298.
export default {
  title: 'TCP Reno (my copy)',
  params: [
    { name: 'ssthresh', unit: 'packets', min: 2, max: 10000, step: 1, default: 64, doc: 'Initial slow-start threshold' },
    { name: 'minRto', unit: 'ms', min: 10, max: 1000, step: 10, default: 1000, doc: 'Lower bound of the retransmission timeout' },
  ],
  create(p) {
    let w = 1;
    let ssthresh = p.ssthresh;
    let lastCumulative = -1;
    let recoveryUntil = -1; // recovery lasts until everything sent before the loss is acknowledged
    let highestSent = -1;
    // RFC 6298: smoothed RTT, its variation, and the timeout with exponential backoff
    let srtt = NaN;
    let rttvar = NaN;
    let base = 1000;
    let backoff = 1;
    const rto = () => Math.min(60000, Math.max(p.minRto, base) * backoff);

    return {
      windowSize() {
        return w;
      },
      onSend(seq) {
        if (seq > highestSent) highestSent = seq;
      },
      onAck(ack) {
        const rtt = ack.now - ack.sentAt;
        if (Number.isNaN(srtt)) {
          srtt = rtt;
          rttvar = rtt / 2;
        } else {
          rttvar = 0.75 * rttvar + 0.25 * Math.abs(srtt - rtt);
          srtt = 0.875 * srtt + 0.125 * rtt;
        }
        base = srtt + Math.max(1, 4 * rttvar);
        backoff = 1;
        if (ack.cumulative <= lastCumulative) return; // a duplicate ACK grows nothing
        lastCumulative = ack.cumulative;
        if (recoveryUntil >= 0) {
          if (ack.cumulative <= recoveryUntil) return;
          recoveryUntil = -1;
        }
        if (w < ssthresh) w += 1;
        else w += 1 / w;
      },
      onLoss(now, seq) {
        if (recoveryUntil >= 0) return; // one halving per loss episode
        ssthresh = Math.max(2, w / 2);
        w = ssthresh;
        recoveryUntil = highestSent;
      },
      onTimeout(now) {
        ssthresh = Math.max(2, w / 2);
        w = 1;
        recoveryUntil = -1;
        backoff *= 2;
      },
      timeoutMs() {
        return rto();
      },
      estimates() {
        return { ssthresh, srtt, rto: rto() };
      },
    };
  },
};
