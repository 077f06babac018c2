// Copa (Arun & Balakrishnan, NSDI 2018), default mode. It aims at the rate 1 / (δ × dq), where dq is
// the queueing delay: RTTstanding − RTTmin. RTTstanding is the smallest RTT of the last half smoothed
// RTT (recent enough to see the queue now, long enough to skip one unlucky sample); RTTmin is the
// smallest of the last 10 s (the path without a queue), kept as Linux keeps a windowed minimum. Each ACK
// moves the window by v / (δ × w) towards the target, so the window moves by about v per round trip. The
// velocity v doubles once the window has moved the same way for three round trips, and falls back to 1
// as soon as an ACK asks to move the other way, so Copa closes a large gap quickly without overshooting a
// small one (a velocity built up one way and kept for a whole round the other way runs the window into
// the thousands when the link stalls). It starts by adding a packet per ACK
// until the rate first exceeds the target, and paces at 2 × w / RTTstanding.
const RTT_MIN_WINDOW_MS = 10000;
const SAME_DIRECTION_BEFORE_DOUBLING = 3;

// Kathleen Nichols' windowed minimum (Linux's win_minmax.c): the best, 2nd and 3rd best samples
// spread across the window, each kept until the window has passed since it
function windowedMin(window) {
  const t = [0, 0, 0];
  const v = [Infinity, Infinity, Infinity];
  const set = (i, ti, vi) => {
    t[i] = ti;
    v[i] = vi;
  };
  const shift = (ti, vi) => {
    set(0, t[1], v[1]);
    set(1, t[2], v[2]);
    set(2, ti, vi);
  };
  return {
    value: () => v[0],
    update(ti, vi) {
      if (vi <= v[0] || ti - t[2] > window) {
        for (let i = 0; i < 3; i++) set(i, ti, vi);
        return vi;
      }
      if (vi <= v[1]) {
        set(2, ti, vi);
        set(1, ti, vi);
      } else if (vi <= v[2]) set(2, ti, vi);
      const dt = ti - t[0];
      if (dt > window) {
        shift(ti, vi);
        if (ti - t[0] > window) shift(ti, vi);
      } else if (t[1] === t[0] && dt > Math.floor(window / 4)) {
        set(2, ti, vi);
        set(1, ti, vi);
      } else if (t[2] === t[1] && dt > Math.floor(window / 2)) set(2, ti, vi);
      return v[0];
    },
  };
}

export default {
  title: 'Copa (my copy)',
  params: [{ name: 'delta', unit: '', min: 0.05, max: 2, step: 0.05, default: 0.5, doc: 'δ: smaller δ favours throughput, larger favours low delay' }],
  create(p) {
    let w = 10;
    let slowStart = true;
    const samples = []; // { at, rtt } of the last srtt/2, oldest first
    let standing = Infinity;
    const rttMin = windowedMin(RTT_MIN_WINDOW_MS);
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

    // A new direction: the velocity starts again from 1, and the next round is judged from the window now.
    function turn(d) {
      velocity = 1;
      sameDirection = 0;
      direction = d;
      windowAtRoundStart = w;
    }

    // One ACK's step of v / (δ × w) up (+1) or down (−1); a velocity built up the other way starts again from 1.
    function move(d) {
      if (d !== direction && velocity > 1) turn(d);
      w = Math.max(2, w + (d * velocity) / (p.delta * w));
    }

    // Once per round trip: the velocity doubles while the window keeps moving the same way.
    function endRound() {
      const d = Math.sign(w - windowAtRoundStart);
      windowAtRoundStart = w;
      if (slowStart) return;
      if (d !== 0 && d === direction) {
        if (++sameDirection >= SAME_DIRECTION_BEFORE_DOUBLING) velocity *= 2;
      } else turn(d);
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
        const min = rttMin.update(ack.now, rtt);
        updateStanding(ack.now, rtt);
        const queueing = standing - min;
        // rate ≤ target ⇔ w / RTTstanding ≤ 1 / (δ × dq) ⇔ w × δ × dq ≤ RTTstanding
        const below = w * p.delta * queueing <= standing;
        if (slowStart) {
          if (below) w += 1;
          else slowStart = false;
        }
        if (!slowStart) move(below ? 1 : -1);
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
        return { rttMin: rttMin.value(), srtt, pacingRate: pacingRate() };
      },
    };
  },
};
