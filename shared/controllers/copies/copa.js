// Copa (Arun & Balakrishnan, NSDI 2018), default mode. It aims at the rate 1 / (δ × dq), where dq is
// the queueing delay: RTTstanding − RTTmin. RTTstanding is the smallest RTT of the last half smoothed
// RTT (recent enough to see the queue now, long enough to skip one unlucky sample); RTTmin is the
// smallest of the last 10 s (the path without a queue). Each ACK moves the window by v / (δ × w)
// towards the target, so the window moves by about v per round trip. The velocity v doubles once the
// window has moved the same way for three round trips, and falls back to 1 when it turns, so Copa
// closes a large gap quickly without overshooting a small one. It starts by adding a packet per ACK
// until the rate first exceeds the target, and paces at 2 × w / RTTstanding.
const RTT_MIN_WINDOW_MS = 10000;
const SAME_DIRECTION_BEFORE_DOUBLING = 3;

export default {
  title: 'Copa (my copy)',
  params: [{ name: 'delta', unit: '', min: 0.05, max: 2, step: 0.05, default: 0.5, doc: 'δ: smaller δ favours throughput, larger favours low delay' }],
  create(p) {
    let w = 10;
    let slowStart = true;
    const samples = []; // { at, rtt } of the last srtt/2, oldest first
    let standing = Infinity;
    let rttMin = Infinity;
    let rttMinAt = 0;
    let velocity = 1;
    let direction = 0;
    let sameDirection = 0;
    let windowAtRoundStart = 10;
    // A round ends when the ACK of the first packet sent after it began arrives.
    let highestSent = -1;
    let roundEnd = -1;
    // RFC 6298 timer (RTO at least 200 ms); its smoothed RTT also sets how far back RTTstanding looks
    let srtt = NaN;
    let rttvar = NaN;
    let base = 1000;
    let backoff = 1;
    const rto = () => Math.min(60000, Math.max(200, base) * backoff);

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

    // RTTstanding: the smallest RTT of the last srtt/2 (the newest sample always stays).
    function updateStanding(now, rtt) {
      samples.push({ at: now, rtt });
      const since = now - srtt / 2;
      let drop = 0;
      while (drop < samples.length - 1 && samples[drop].at < since) drop++;
      if (drop > 0) samples.splice(0, drop);
      let m = Infinity;
      for (const s of samples) if (s.rtt < m) m = s.rtt;
      standing = m;
    }

    // Once per round trip: the velocity doubles while the window keeps moving the same way.
    function endRound() {
      const d = Math.sign(w - windowAtRoundStart);
      windowAtRoundStart = w;
      if (slowStart) return;
      if (d !== 0 && d === direction) {
        if (++sameDirection >= SAME_DIRECTION_BEFORE_DOUBLING) velocity *= 2;
      } else {
        velocity = 1;
        sameDirection = 0;
      }
      direction = d;
    }

    const pacingRate = () => (standing === Infinity ? Infinity : (2 * w * 1000) / standing);

    return {
      windowSize() {
        return w;
      },
      pacingRate,
      onSend(seq, now) {
        if (seq > highestSent) highestSent = seq;
      },
      onAck(ack) {
        const rtt = ack.now - ack.sentAt;
        sampleRtt(rtt);
        if (rtt <= rttMin || ack.now - rttMinAt > RTT_MIN_WINDOW_MS) {
          rttMin = rtt;
          rttMinAt = ack.now;
        }
        updateStanding(ack.now, rtt);
        const queueing = standing - rttMin;
        // rate ≤ target ⇔ w / RTTstanding ≤ 1 / (δ × dq) ⇔ w × δ × dq ≤ RTTstanding
        const below = w * p.delta * queueing <= standing;
        if (slowStart) {
          if (below) w += 1;
          else slowStart = false;
        }
        if (!slowStart) w = Math.max(2, w + (below ? 1 : -1) * (velocity / (p.delta * w)));
        if (ack.seq >= roundEnd) {
          roundEnd = highestSent + 1;
          endRound();
        }
      },
      onTimeout(now) {
        w = 2;
        velocity = 1;
        backoff *= 2;
      },
      timeoutMs() {
        return rto();
      },
      estimates() {
        return { rttMin, srtt, pacingRate: pacingRate() };
      },
    };
  },
};
