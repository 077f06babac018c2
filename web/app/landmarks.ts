/** Where the playground's results start (the playback bar, then the runs): the skip link's target, and what a figure exports. */
export const PLAYGROUND_RESULTS_ID = 'runs';
