/**
 * The wall clock as the model found it when it loaded. The user's code runs in the same realm, after it,
 * and may replace `Date.now`: the guards of that code (its loop budget, the beats a watching thread ends
 * a hung worker by) read this one, which it cannot reach (tests replace `now` here). Never a run's
 * figures: those use simulated time.
 */
// biome-ignore lint/style/noRestrictedGlobals: the guards of user code pace themselves in wall time by nature
export const wallClock = { now: Date.now as () => number };

export const wallNow = (): number => wallClock.now();
