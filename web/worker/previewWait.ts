/**
 * Runs waiting for the page to draw their previews, by id: each goes on when the page says it drew it,
 * or after `waitMs` whatever the page says (PREVIEW_WAIT_MS in protocol.ts says why they wait).
 */
export function previewWaits(waitMs: number) {
  const waiting = new Map<number, () => void>();
  return {
    wait(id: number): Promise<void> {
      return new Promise((resolve) => {
        const timer = setTimeout(goOn, waitMs);
        function goOn() {
          clearTimeout(timer);
          waiting.delete(id);
          resolve();
        }
        waiting.set(id, goOn);
      });
    },
    shown(id: number): void {
      waiting.get(id)?.();
    },
  };
}
