import { atLeastOne, BaseController, defineScheme, num, OncePerWindow, type Ack } from './types.ts';

/**
 * The sender a reliable-transport course typically gets handed in: a retransmission timer of a fixed
 * length that never backs off, a window that grows by one packet per window of ACKs and halves on a loss
 * (three duplicate ACKs, once per window of packets) and when the timer fires — not back to one packet.
 * Beside Reno it shows both sides of RFC 6298's trade: under heavy loss a timer that never doubles keeps
 * trying where Reno's waits out ever longer timeouts; when queueing makes the RTT longer than the timer,
 * every packet is sent again for nothing and the bytes on the wire multiply.
 */
class FixedTimer extends BaseController {
  private w: number;
  private readonly episode = new OncePerWindow();

  constructor(
    initial: number,
    private readonly timeout: number,
  ) {
    super();
    this.w = initial;
  }

  windowSize(): number {
    return this.w;
  }

  onSend(seq: number): void {
    this.episode.sent(seq);
  }

  onAck(_ack: Ack): void {
    this.w += 1 / this.w;
  }

  onLoss(_now: number, seq: number): void {
    if (this.episode.fresh(seq)) this.w = atLeastOne(this.w / 2);
  }

  onTimeout(): void {
    this.w = atLeastOne(this.w / 2);
    this.episode.reset();
  }

  timeoutMs(): number {
    return this.timeout;
  }
}

export const fixedTimer = defineScheme({
  id: 'fixed-timer',
  title: 'Fixed timer',
  doc: 'The course-typical sender: a fixed retransmission timer (no backoff), the window halved on a loss.',
  mode: 'window',
  params: [num('w', 'packets', 1, 1000, 1, 8, 'Initial window'), num('timeout', 'ms', 10, 10_000, 10, 1000, 'The retransmission timer, the same every time (no RTT estimate, no backoff)')],
  create: (p) => new FixedTimer(p.w, p.timeout),
});
