import { describe, expect, it } from 'vitest';
import { ack } from '../../helpers/capture.ts';
import { make } from './helpers.ts';

describe('constant burst', () => {
  it('sends the same burst every gap, whatever comes back', () => {
    const c = make('constant-burst', { size: 10, gap: 40 });
    expect(c.burstSize()).toBe(10);
    c.onAck(ack(0, 0, 20));
    c.onLoss(50, 0);
    c.onTimeout(60);
    expect(c.burstSize()).toBe(10);
    expect(c.pacingRate()).toBe(250);
    expect(c.timeoutMs()).toBe(40);
  });

  it('its window is the burst: a window sender keeps that many in flight', () => {
    expect(make('constant-burst', { size: 7, gap: 40 }).windowSize()).toBe(7);
  });
});
