import { keptById } from '../app/keptById.ts';

/**
 * The latest submission this tab made under each id, in sessionStorage as `pipefill.contestSubmission.<id>`:
 * a reload (or the editor closed and opened again) shows its state and scores again, where it showed
 * nothing though the relay went on scoring it. The tab's own: a student who opens the page in a new tab of
 * a shared PC is shown no one's submission.
 */
const submissions = keptById(() => sessionStorage, 'pipefill.contestSubmission.');

export const lastSubmission = submissions.get;
export const keepLastSubmission = submissions.set;
