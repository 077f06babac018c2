import { WallClock } from '../shared/sim/wallClock.ts';

/** A wall clock for Node: polls through setImmediate. */
export const nodeClock = (): WallClock => new WallClock(setImmediate);
