import type { LabRunState } from './useLabRun.ts';

/**
 * What stands in for a lab run's charts until they come: that the run is under way (it follows the
 * figures above it by a second or so), or why it failed.
 */
export function LabRunStatus({ state, what }: { state: LabRunState; what: string }) {
  if (state === 'running')
    return (
      <p className="hint" role="status" data-testid="lab-run-status">
        drawing {what}…
      </p>
    );
  if (typeof state === 'object')
    return (
      <p className="error" role="alert">
        The charts of {what} could not be drawn: {state.error}
      </p>
    );
  return null;
}
