// BBR v1 (Cardwell et al. 2016). Instead of reacting to loss it models the path: the bottleneck
// bandwidth (the largest delivery rate of the last ten rounds) and the round-trip propagation time
// (the smallest RTT of the last ten seconds). Their product is what the path holds without a queue.
// It paces at gain × bandwidth and caps the window at gain × that product, moving through phases:
// startup doubles the rate each round until the bandwidth stops growing, drain empties the queue
// startup built, probe-bw cycles the gain (1.25: look for more bandwidth, 0.75: drain what that
// queued, then six rounds at 1), and probe-rtt drops to 4 packets for 200 ms when the RTT estimate
// is ten seconds old, to see the path empty again.
//
// create(params, random): random() draws from the run's seeded stream, so a run can be made again.

const STARTUP_GAIN = 2 / Math.LN2; // the smallest gain that doubles the delivery rate each round
const CYCLE = [1.25, 0.75, 1, 1, 1, 1, 1, 1];
const RTPROP_WINDOW_MS = 10000;
const PROBE_RTT_MS = 200;
const MIN_CWND = 4;

export default {
  title: 'BBR v1 (my copy)',
  params: [
    { name: 'initialCwnd', unit: 'packets', min: 1, max: 100, step: 1, default: 10, doc: 'Window before the first estimate' },
    { name: 'bwRounds', unit: 'rounds', min: 2, max: 50, step: 1, default: 10, doc: 'Rounds over which the bandwidth maximum is kept' },
    { name: 'probeGain', unit: '×', min: 1.05, max: 2, step: 0.05, default: 1.25, doc: 'Pacing gain of the probing phase (the draining phase uses 2 − gain)' },
  ],
  create(p, random) {
    let mode = 'startup';
    let cwnd = p.initialCwnd;
    let btlBw = 0; // packets per ms
    const bwByRound = []; // { round, rate }: the largest delivery rate of each recent round
    let rtProp = Infinity;
    let rtPropStamp = 0;
    // Delivery-rate sampling as Linux's tcp_rate.c: what was delivered, and when, as each packet left
    let delivered = 0;
    let deliveredTime = 0;
    let firstSentTime = 0;
    let inFlight = 0;
    const sent = new Map(); // seq → { delivered, deliveredTime, firstSentTime, sentAt }
    // A round ends when a packet sent after the last round's end is ACKed.
    let round = 0;
    let nextRoundDelivered = 0;
    // Startup ends when three rounds in a row raised the bandwidth by less than 25%.
    let fullBw = 0;
    let fullBwCount = 0;
    let filledPipe = false;
    let pacingGain = STARTUP_GAIN;
    let cwndGain = STARTUP_GAIN;
    let cycleIndex = 0;
    let cycleStamp = 0;
    let probeRttDone = -1;
    let probeRttRound = -1;
    let priorCwnd = 0; // the window to go back to after probing the RTT or a timeout
    let afterTimeout = false; // a timeout fired and no ACK has come since

    const bdp = () => (rtProp === Infinity || btlBw === 0 ? cwnd : btlBw * rtProp);
    const pacingRate = () => (btlBw > 0 ? pacingGain * btlBw * 1000 : Infinity);

    // A rate sample: delivered packets over the longer of the send and ACK intervals. Samples over less
    // than the minimum RTT are skipped (a burst of compressed ACKs would overstate the rate).
    function updateBandwidth(state, now) {
      const interval = Math.max(state.sentAt - state.firstSentTime, now - state.deliveredTime);
      if (interval <= 0 || interval < rtProp) return;
      const rate = (delivered - state.delivered) / interval;
      const last = bwByRound[bwByRound.length - 1];
      if (last && last.round === round) last.rate = Math.max(last.rate, rate);
      else bwByRound.push({ round, rate });
      while (bwByRound.length > 0 && bwByRound[0].round <= round - p.bwRounds) bwByRound.shift();
      btlBw = 0;
      for (const s of bwByRound) btlBw = Math.max(btlBw, s.rate);
    }

    function gainOfPhase() {
      const g = CYCLE[cycleIndex];
      return g === 1.25 ? p.probeGain : g === 0.75 ? 2 - p.probeGain : 1;
    }

    // The probing phase lasts at least an RTT and until the queue it aims at is there; the draining one
    // until the queue is gone.
    function phaseDone(ack) {
      const elapsed = ack.now - cycleStamp > rtProp;
      if (pacingGain > 1) return elapsed && ack.inFlight >= pacingGain * bdp();
      if (pacingGain < 1) return elapsed || ack.inFlight <= bdp();
      return elapsed;
    }

    function setMode(next, now) {
      mode = next;
      if (next === 'startup') pacingGain = cwndGain = STARTUP_GAIN;
      else if (next === 'drain') {
        pacingGain = 1 / STARTUP_GAIN;
        cwndGain = STARTUP_GAIN;
      } else if (next === 'probe-bw') {
        // Linux starts at a random phase other than the draining one, so flows do not probe in step
        cycleIndex = (CYCLE.length - Math.floor(random() * 7)) % CYCLE.length;
        cycleStamp = now;
        pacingGain = gainOfPhase();
        cwndGain = 2;
      } else pacingGain = cwndGain = 1; // probe-rtt
    }

    function updateMode(ack, roundStart, rtPropExpired) {
      const now = ack.now;
      if (mode === 'startup' && roundStart) {
        if (btlBw >= fullBw * 1.25) {
          fullBw = btlBw;
          fullBwCount = 0;
        } else if (++fullBwCount >= 3) {
          filledPipe = true;
          setMode('drain', now);
        }
      }
      if (mode === 'drain' && ack.inFlight <= bdp()) setMode('probe-bw', now);
      if (mode === 'probe-bw' && phaseDone(ack)) {
        cycleIndex = (cycleIndex + 1) % CYCLE.length;
        cycleStamp = now;
        pacingGain = gainOfPhase();
      }
      if (rtPropExpired && mode !== 'probe-rtt') {
        setMode('probe-rtt', now);
        saveCwnd();
        probeRttDone = -1;
      }
      if (mode === 'probe-rtt') {
        if (probeRttDone < 0 && ack.inFlight <= MIN_CWND) {
          probeRttDone = now + PROBE_RTT_MS;
          probeRttRound = round;
        } else if (probeRttDone >= 0 && round > probeRttRound && now >= probeRttDone) {
          rtPropStamp = now;
          cwnd = Math.max(cwnd, priorCwnd);
          setMode(filledPipe ? 'probe-bw' : 'startup', now);
        }
      }
    }

    // Linux's bbr_save_cwnd: while probing the RTT or after a timeout a window is saved already, keep the larger
    function saveCwnd() {
      priorCwnd = mode === 'probe-rtt' || afterTimeout ? Math.max(priorCwnd, cwnd) : cwnd;
    }

    function updateCwnd() {
      if (mode === 'probe-rtt') {
        cwnd = MIN_CWND;
        return;
      }
      const target = cwndGain * bdp();
      if (filledPipe) cwnd = Math.min(cwnd + 1, target);
      else if (cwnd < target || delivered < 10) cwnd += 1;
      cwnd = Math.max(MIN_CWND, cwnd);
    }

    return {
      windowSize() {
        return cwnd;
      },
      pacingRate,
      onSend(seq, now) {
        if (inFlight === 0) firstSentTime = deliveredTime = now;
        inFlight++;
        sent.set(seq, { delivered, deliveredTime, firstSentTime, sentAt: now });
      },
      onAck(ack) {
        const now = ack.now;
        delivered++;
        deliveredTime = now;
        inFlight = ack.inFlight;
        const state = sent.get(ack.seq);
        sent.delete(ack.seq);
        if (state) firstSentTime = state.sentAt;
        let roundStart = false;
        if (state && state.delivered >= nextRoundDelivered) {
          nextRoundDelivered = delivered;
          round++;
          roundStart = true;
        }
        const rtt = now - ack.sentAt;
        const rtPropExpired = now > rtPropStamp + RTPROP_WINDOW_MS;
        if (rtt < rtProp || rtPropExpired) {
          rtProp = rtt;
          rtPropStamp = now;
        }
        if (afterTimeout) {
          // The next ACK ends the timeout's episode: of a packet sent before it, it shows the timeout was
          // spurious (Linux's F-RTO undoes it); of one sent after, everything outstanding is past. Either
          // way Linux leaves its loss state and restores the window it saved.
          afterTimeout = false;
          cwnd = Math.max(cwnd, priorCwnd);
        }
        if (state) updateBandwidth(state, now);
        updateMode(ack, roundStart, rtPropExpired);
        updateCwnd();
      },
      // everything in flight is presumed lost: start again from a small window and keep the model
      onTimeout(now) {
        saveCwnd();
        afterTimeout = true;
        cwnd = MIN_CWND;
      },
      estimates() {
        return { rttMin: rtProp, bandwidth: btlBw * 1000, pacingRate: pacingRate() };
      },
    };
  },
};
