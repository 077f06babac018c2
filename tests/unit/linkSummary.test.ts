import { describe, expect, it } from 'vitest';
import { describeLink, formatLinkReport, type LinkReport } from '../../server/link/summary.ts';
import { rateLink } from '../../shared/scenarios/presets.ts';
import { newStats } from '../../server/link/tap.ts';

/** A report of a link that delivered `sent` of the sender's datagrams and carried `back` of the receiver's. */
function report(sent: number, back: number, strays = 0): LinkReport {
  const direction = (n: number) => ({ ...newStats(), datagrams: n, delivered: n, mbps: 0, delayP50: 20, delayP99: 21 });
  return {
    seconds: 3,
    forward: direction(sent),
    reverse: direction(back),
    lateness: { p50: 0, p99: 0, max: 0 },
    strays,
    sendErrors: 0,
    receiver: '127.0.0.1:39511',
    unrecordedRows: null,
    sender: null,
    refused: { datagrams: 0, senders: 0 },
  };
}

describe('the link’s closing summary', () => {
  it('says when nothing came back from the receiver, as when none runs at --to', () => {
    const lines = formatLinkReport(report(18, 0)).split('\n');
    expect(lines.at(-1)).toBe('nothing came back from 127.0.0.1:39511: is the receiver running there?');
  });

  it('says nothing of it once the receiver answered, and names strays instead when others answered', () => {
    expect(formatLinkReport(report(18, 5))).not.toContain('nothing came back');
    expect(
      formatLinkReport(report(18, 0, 4))
        .split('\n')
        .at(-1),
    ).toBe('4 datagrams from others than the receiver ignored');
    expect(formatLinkReport(report(0, 0))).not.toContain('nothing came back');
  });
});

describe('the link’s opening line', () => {
  it('names the netem model, its limit and its qdiscs in place of a queue', () => {
    const netem = { ...rateLink(0.1, 500), model: 'netem' as const, limit: 1000 };
    expect(describeLink(netem)).toBe('0.1 Mbit/s · 500 ms each way · netem, limit 1000 packets, one qdisc both ways');
    expect(describeLink({ ...netem, netemQdisc: 'each-direction' })).toContain('netem, limit 1000 packets, a qdisc each way');
    expect(describeLink(rateLink(0.1, 500))).toBe('0.1 Mbit/s · 500 ms each way · infinite queue');
  });
});
