// Burst AIMD, for the offset server, as the course's burst clients run: each round sends a burst of
// requests for missing chunks, then waits k × the smoothed RTT (never less than a floor) before the
// next. The rate is then about burst × 1448 B per wait, so the burst size is what the scheme steers:
// +2 when the whole burst came back (or +1/burst per reply), halved when a reply is missing.
export default {
  title: 'Burst AIMD (my copy)',
  mode: 'burst',
  params: [
    { name: 'initial', unit: 'requests', min: 1, max: 100, step: 1, default: 4, doc: 'Burst size of the first round' },
    { name: 'increase', choices: ['per-round', 'per-reply'], default: 'per-round', doc: '+2 when the whole burst came back, or +1/burst per reply' },
    { name: 'k', unit: '×', min: 1, max: 10, step: 0.1, default: 2, doc: 'Each round waits k × the smoothed RTT' },
    { name: 'floor', unit: 'ms', min: 1, max: 1000, step: 1, default: 10, doc: 'The wait is never shorter than this' },
    { name: 'alpha', unit: '', min: 0.01, max: 1, step: 0.01, default: 0.125, doc: 'Weight of a new RTT sample in the smoothed RTT' },
    { name: 'initialRtt', unit: 'ms', min: 1, max: 2000, step: 1, default: 100, doc: 'RTT assumed before the first reply' },
  ],
  create(p) {
    let burst = p.initial;
    let roundSize = 0; // requests sent this round, to know when all came back
    let repliesThisRound = 0;
    let srtt = NaN;
    const wait = () => Math.max(p.floor, p.k * (Number.isNaN(srtt) ? p.initialRtt : srtt));

    return {
      windowSize() {
        return burst;
      },
      // asked once at the start of each round
      burstSize() {
        roundSize = Math.max(1, Math.floor(burst));
        repliesThisRound = 0;
        return roundSize;
      },
      onAck(ack) {
        const rtt = ack.now - ack.sentAt;
        srtt = Number.isNaN(srtt) ? rtt : (1 - p.alpha) * srtt + p.alpha * rtt;
        repliesThisRound++;
        if (p.increase === 'per-reply') burst += 1 / burst;
        else if (repliesThisRound === roundSize) burst += 2;
      },
      onLoss(now, seq) {
        burst = Math.max(1, burst / 2);
      },
      onTimeout(now) {
        burst = Math.max(1, burst / 2);
      },
      timeoutMs() {
        return wait();
      },
      estimates() {
        return { srtt, rto: wait() };
      },
    };
  },
};
