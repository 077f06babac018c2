import { describe, expect, it } from 'vitest';
import { ack } from '../../helpers/capture.ts';
import { make } from './helpers.ts';

describe('fixed window', () => {
  it('keeps w whatever happens', () => {
    const c = make('fixed', { w: 50 });
    expect(c.windowSize()).toBe(50);
    c.onAck(ack(0, 0, 40));
    c.onTimeout(2000);
    c.onLoss(2001, 0);
    expect(c.windowSize()).toBe(50);
    expect(make('fixed').windowSize()).toBe(16);
  });
});
