/**
 * The latest submission this tab made under each id, in sessionStorage as `pipefill.contestSubmission.<id>`:
 * a reload (or the editor closed and opened again) shows its state and scores again, where it showed
 * nothing though the relay went on scoring it. The tab's own: a student who opens the page in a new tab of
 * a shared PC is shown no one's submission.
 */
const PREFIX = 'pipefill.contestSubmission.';

export function lastSubmission(id: string): string | null {
  try {
    return sessionStorage.getItem(PREFIX + id);
  } catch {
    return null;
  }
}

export function keepLastSubmission(id: string, submission: string): void {
  try {
    sessionStorage.setItem(PREFIX + id, submission);
  } catch {
    // no storage: a reload shows no submission, as the page did before it kept one
  }
}
