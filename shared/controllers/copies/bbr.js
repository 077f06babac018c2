// BBR v1 (Cardwell et al. 2016) as Linux runs it (tcp_bbr.c, tcp_rate.c). Instead of reacting to loss it
// models the path: the bottleneck bandwidth (the largest delivery rate of the last ten rounds) and the
// round-trip propagation time (the smallest RTT of the last ten seconds). Their product is what the path
// holds without a queue. It paces at gain × bandwidth and caps the window at gain × that product (plus
// room for ACKs that come in bursts), moving through phases: startup doubles the rate each round until
// the bandwidth stops growing, drain empties the queue startup built, probe-bw cycles the gain (1.25:
// look for more bandwidth, 0.75: drain what that queued, then six rounds at 1), and probe-rtt drops to 4
// packets for 200 ms when the RTT estimate is ten seconds old, to see the path empty again.
//
// variant linux-v1 is Linux's. The default, time-rounds, changes one thing: a round is a minimum RTT of
// time, not a packet-timed round (which a queue stretches), for the bandwidth filter and startup's
// plateau check, and the window never exceeds gain × what was delivered over the last minimum RTT. On
// LTE at long delays Linux's rounds last seconds, and after a rate drop the stale maximum keeps two of
// its bandwidth-delay products in flight: seconds of queue.
//
// create(params, random): random() draws from the run's seeded stream, so a run can be made again.

// Linux's gains are fractions of 256: 2/ln 2 rounded up, its inverse rounded down.
const HIGH_GAIN = 739 / 256;
const DRAIN_GAIN = 88 / 256;
const CWND_GAIN = 2;
const CYCLE = [1.25, 0.75, 1, 1, 1, 1, 1, 1];
const PACING_MARGIN = 0.99; // pace 1% below the estimate, so the queue tends to empty
const MIN_RTT_WINDOW_MS = 10000;
const TCP_MIN_RTT_WINDOW_MS = 300000; // TCP's own minimum RTT, which judges rate samples
const PROBE_RTT_MS = 200;
const MIN_CWND = 4;
const INIT_CWND = 10;
const EXTRA_ACKED_WINDOW_ROUNDS = 5; // an aggregation extra is remembered for 5 to 10 rounds
const EXTRA_ACKED_MAX_MS = 100; // and allows at most 100 ms of bandwidth more in flight

// Kathleen Nichols' windowed best (Linux's win_minmax.c): the best, 2nd and 3rd best samples
function windowedFilter(window, better, initial) {
  const t = [0, 0, 0];
  const v = [initial, initial, initial];
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
      if (better(vi, v[0]) || ti - t[2] > window) {
        for (let i = 0; i < 3; i++) set(i, ti, vi);
        return vi;
      }
      if (better(vi, v[1])) {
        set(2, ti, vi);
        set(1, ti, vi);
      } else if (better(vi, v[2])) set(2, ti, vi);
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
  title: 'BBR v1 (my copy)',
  params: [
    { name: 'initialCwnd', unit: 'packets', min: 1, max: 100, step: 1, default: 10, doc: 'Window before the first estimate' },
    { name: 'bwRounds', unit: 'rounds', min: 2, max: 50, step: 1, default: 10, doc: 'Rounds over which the bandwidth maximum is kept (packet-timed, or minimum RTTs of time under time-rounds)' },
    { name: 'probeGain', unit: '×', min: 1.05, max: 2, step: 0.05, default: 1.25, doc: 'Pacing gain of the probing phase (the draining phase uses 2 − gain)' },
    {
      name: 'variant',
      choices: ['time-rounds', 'linux-v1'],
      default: 'time-rounds',
      doc: 'linux-v1: Linux’s packet-timed rounds; time-rounds: rounds of one minimum RTT, window within gain × the last minimum RTT’s deliveries',
    },
  ],
  create(p, random) {
    const timeRounds = p.variant === 'time-rounds';
    const toPacing = (bw, gain) => bw * gain * PACING_MARGIN * 1000; // packets per ms → per second
    let mode = 'startup';
    let cwnd = p.initialCwnd;
    const maxBw = windowedFilter(p.bwRounds, (a, b) => a >= b, 0); // packets per ms
    const tcpMinRtt = windowedFilter(TCP_MIN_RTT_WINDOW_MS, (a, b) => a <= b, Infinity);
    let minRtt = Infinity;
    let minRttStamp = 0;
    let pacing = toPacing(p.initialCwnd, HIGH_GAIN); // before any RTT sample Linux assumes 1 ms
    let hasSeenRtt = false;
    let nextDeparture = 0; // when the pacer lets the next packet go
    // Delivery-rate sampling as tcp_rate.c: what was delivered, and when, as each packet left
    let delivered = 0;
    let deliveredTime = 0;
    let firstSentTime = 0;
    let inFlight = 0;
    let appLimited = 0; // samples are app-limited until `delivered` passes it
    const sent = new Map(); // seq → { delivered, deliveredTime, firstSentTime, sentAt, appLimited }
    // A round ends when a packet sent after the last round's end is ACKed.
    let round = 0;
    let roundStart = false;
    let nextRoundDelivered = 0;
    let fullBw = 0;
    let fullBwCount = 0;
    let filledPipe = false;
    let pacingGain = HIGH_GAIN;
    let cwndGain = HIGH_GAIN;
    let cycleIndex = 0;
    let cycleStamp = 0;
    let probeRttDone = -1;
    let probeRttRoundDone = false;
    let priorCwnd = 0; // the window to go back to after probing the RTT or a timeout
    let afterTimeout = false; // a timeout fired and no ACK has come since
    // ACK aggregation: packets ACKed beyond what the bandwidth explains since the ACK rate last fell below it
    let epochStart = 0;
    let epochAcked = 0;
    const extraAcked = [0, 0];
    let extraIndex = 0;
    let extraRounds = 0;
    // time-rounds: rounds of one minimum RTT of time, and the ACKs of the last minimum RTT
    let now = 0;
    let filterRounds = 0;
    const filterRound = { stamp: 0 };
    const plateauRound = { stamp: 0 };
    const recentAcks = [];
    let recentHead = 0;

    function roundEnded(timer) {
      if (!timeRounds) return roundStart;
      if (!(now - timer.stamp > minRtt)) return false;
      timer.stamp = now;
      return true;
    }

    function countTime() {
      recentAcks.push(now);
      while (recentAcks[recentHead] <= now - minRtt) recentHead++;
      if (recentHead > 1024 && recentHead * 2 > recentAcks.length) {
        recentAcks.splice(0, recentHead);
        recentHead = 0;
      }
    }

    function rateSample(state, ack) {
      const rtt = now - ack.sentAt;
      tcpMinRtt.update(now, rtt);
      delivered++;
      if (appLimited !== 0 && delivered > appLimited) appLimited = 0;
      deliveredTime = now;
      firstSentTime = state.sentAt;
      // the longer of the send and ACK phases: ACKs that come in a burst do not overstate the rate
      const interval = Math.max(state.sentAt - state.firstSentTime, now - state.deliveredTime);
      const valid = interval >= tcpMinRtt.value();
      return { delivered: delivered - state.delivered, interval: valid ? interval : -1, appLimited: state.appLimited, priorDelivered: state.delivered, priorInFlight: ack.inFlight + 1, rtt };
    }

    function updateBandwidth(rs) {
      roundStart = false;
      if (rs.interval <= 0) return;
      if (rs.priorDelivered >= nextRoundDelivered) {
        nextRoundDelivered = delivered;
        round++;
        roundStart = true;
      }
      const bw = rs.delivered / rs.interval;
      // an app-limited sample may raise the maximum, never lower it
      if (!rs.appLimited || bw >= maxBw.value()) {
        if (roundEnded(filterRound)) filterRounds++;
        maxBw.update(timeRounds ? filterRounds : round, bw);
      }
    }

    function updateAggregation() {
      if (roundStart) {
        extraRounds = Math.min(31, extraRounds + 1);
        if (extraRounds >= EXTRA_ACKED_WINDOW_ROUNDS) {
          extraRounds = 0;
          extraIndex = 1 - extraIndex;
          extraAcked[extraIndex] = 0;
        }
      }
      let expected = Math.floor(maxBw.value() * (now - epochStart));
      if (epochAcked <= expected || epochAcked + 1 >= 1 << 20) {
        epochAcked = 0;
        epochStart = now;
        expected = 0;
      }
      epochAcked++;
      const extra = Math.min(epochAcked - expected, cwnd);
      if (extra > extraAcked[extraIndex]) extraAcked[extraIndex] = extra;
    }

    const bdp = (bw, gain) => (minRtt === Infinity ? INIT_CWND : Math.ceil(bw * minRtt * gain));
    // a millisecond of packets at the pacing rate, at least 1 (2 from 100 packets/s), at most 43 (64 KB)
    const tsoSegs = () => Math.min(Math.max(Math.floor(pacing / 1024), pacing < 100 ? 1 : 2), 43);
    // room for three TSO bursts, rounded up to even, and two more while probing
    function quantization(w) {
      const even = (w + 3 * tsoSegs() + 1) & ~1;
      return mode === 'probe-bw' && cycleIndex === 0 ? even + 2 : even;
    }
    const inflight = (bw, gain) => quantization(bdp(bw, gain));
    // what will still be in the network when the pacer sends the next packet
    function inNetworkAtDeparture(inflightNow) {
      const deliveredMeanwhile = Math.floor(maxBw.value() * (Math.max(nextDeparture, now) - now));
      const atDeparture = inflightNow + (pacingGain > 1 ? tsoSegs() : 0);
      return deliveredMeanwhile >= atDeparture ? 0 : atDeparture - deliveredMeanwhile;
    }

    // The probing phase lasts a minimum RTT and until its extra inflight is out; the draining one until the queue is gone.
    function phaseDone(rs) {
      const fullLength = now - cycleStamp > minRtt;
      if (pacingGain === 1) return fullLength;
      const n = inNetworkAtDeparture(rs.priorInFlight);
      if (pacingGain > 1) return fullLength && n >= inflight(maxBw.value(), pacingGain);
      return fullLength || n <= inflight(maxBw.value(), 1);
    }

    // Linux starts the cycle at a random phase other than the draining one, so flows do not probe in step
    function enterProbeBw() {
      mode = 'probe-bw';
      cycleIndex = (CYCLE.length - Math.floor(random() * 7)) % CYCLE.length;
      cycleStamp = now;
    }

    function checkFullBandwidth(rs) {
      if (filledPipe || rs.appLimited || !roundEnded(plateauRound)) return;
      if (maxBw.value() >= fullBw * 1.25) {
        fullBw = maxBw.value();
        fullBwCount = 0;
        return;
      }
      filledPipe = ++fullBwCount >= 3;
    }

    function updateMinRtt(rs, ack) {
      const expired = now > minRttStamp + MIN_RTT_WINDOW_MS;
      if (rs.rtt <= minRtt || expired) {
        minRtt = rs.rtt;
        minRttStamp = now;
      }
      if (expired && mode !== 'probe-rtt') {
        mode = 'probe-rtt';
        saveCwnd();
        probeRttDone = -1;
      }
      if (mode !== 'probe-rtt') return;
      appLimited = delivered + ack.inFlight || 1; // what is sent while probing says nothing of the bandwidth
      if (probeRttDone < 0 && ack.inFlight <= MIN_CWND) {
        probeRttDone = now + PROBE_RTT_MS;
        probeRttRoundDone = false;
        nextRoundDelivered = delivered;
      } else if (probeRttDone >= 0) {
        if (roundStart) probeRttRoundDone = true;
        if (probeRttRoundDone && now > probeRttDone) {
          minRttStamp = now;
          cwnd = Math.max(cwnd, priorCwnd);
          if (filledPipe) enterProbeBw();
          else mode = 'startup';
        }
      }
    }

    function updateGains() {
      if (mode === 'startup') pacingGain = cwndGain = HIGH_GAIN;
      else if (mode === 'drain') {
        pacingGain = DRAIN_GAIN;
        cwndGain = HIGH_GAIN;
      } else if (mode === 'probe-bw') {
        const g = CYCLE[cycleIndex];
        pacingGain = g > 1 ? p.probeGain : g < 1 ? 2 - p.probeGain : 1;
        cwndGain = CWND_GAIN;
      } else pacingGain = cwndGain = 1;
    }

    // from the first RTT, high gain × window ÷ RTT; in startup the rate only rises
    function setPacingRate(rtt) {
      if (!hasSeenRtt) {
        hasSeenRtt = true;
        pacing = toPacing(cwnd / Math.max(rtt, 0.001), HIGH_GAIN);
      }
      const rate = toPacing(maxBw.value(), pacingGain);
      if (filledPipe || rate > pacing) pacing = rate;
    }

    // gain × BDP plus the aggregation allowance once the pipe is full; time-rounds: no more than gain × the
    // packets delivered over the last minimum RTT
    function windowTarget() {
      const max = maxBw.value();
      const aggregation = filledPipe ? Math.min(Math.max(extraAcked[0], extraAcked[1]), Math.floor(max * EXTRA_ACKED_MAX_MS)) : 0;
      const linux = bdp(max, cwndGain) + aggregation;
      if (!timeRounds || minRtt === Infinity) return linux;
      return Math.min(linux, bdp((recentAcks.length - recentHead) / minRtt, cwndGain));
    }

    function setCwnd() {
      if (afterTimeout) {
        // The next ACK ends the timeout's episode: Linux leaves its loss state and restores the saved window.
        afterTimeout = false;
        cwnd = Math.max(cwnd, priorCwnd);
      }
      const target = quantization(windowTarget());
      const cutToTarget = filledPipe || (timeRounds && delivered >= INIT_CWND);
      if (cutToTarget) cwnd = Math.min(cwnd + 1, target);
      else if (cwnd < target || delivered < INIT_CWND) cwnd += 1;
      cwnd = Math.max(cwnd, MIN_CWND);
      if (mode === 'probe-rtt') cwnd = Math.min(cwnd, MIN_CWND);
    }

    // Linux's bbr_save_cwnd: while probing the RTT or after a timeout a window is saved already, keep the larger
    function saveCwnd() {
      priorCwnd = mode === 'probe-rtt' || afterTimeout ? Math.max(priorCwnd, cwnd) : cwnd;
    }

    return {
      windowSize() {
        return cwnd;
      },
      pacingRate() {
        return pacing;
      },
      onSend(seq, t) {
        if (inFlight === 0) firstSentTime = deliveredTime = t;
        inFlight++;
        sent.set(seq, { delivered, deliveredTime, firstSentTime, sentAt: t, appLimited: appLimited !== 0 });
        nextDeparture = Math.max(nextDeparture, t) + 1000 / pacing;
      },
      onAck(ack) {
        const state = sent.get(ack.seq);
        sent.delete(ack.seq);
        inFlight = ack.inFlight;
        if (!state) return; // nothing newly delivered
        now = ack.now;
        if (timeRounds) countTime();
        const rs = rateSample(state, ack);
        // Linux's order: bandwidth, gain cycle, full pipe, drain, minimum RTT, gains, then rate and window
        updateBandwidth(rs);
        if (rs.interval > 0) updateAggregation();
        if (mode === 'probe-bw' && phaseDone(rs)) {
          cycleIndex = (cycleIndex + 1) % CYCLE.length;
          cycleStamp = now;
        }
        checkFullBandwidth(rs);
        if (mode === 'startup' && filledPipe) mode = 'drain';
        if (mode === 'drain' && inNetworkAtDeparture(ack.inFlight) <= inflight(maxBw.value(), 1)) enterProbeBw();
        updateMinRtt(rs, ack);
        updateGains();
        setPacingRate(rs.rtt);
        setCwnd();
      },
      // everything in flight is presumed lost: start again from a small window, keep the model, and let
      // startup's full-pipe check begin again from zero
      onTimeout() {
        saveCwnd();
        afterTimeout = true;
        cwnd = MIN_CWND;
        fullBw = 0;
      },
      estimates() {
        return { rttMin: minRtt, bandwidth: maxBw.value() * 1000, pacingRate: pacing };
      },
    };
  },
};
