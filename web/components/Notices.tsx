/** Dismissable messages above a view: what a link asked for that the page could not do, and other news. */
export function Notices({ notices, dismiss }: { notices: readonly string[]; dismiss(index: number): void }) {
  if (notices.length === 0) return null;
  return (
    <div className="notices" role="status">
      {notices.map((n, i) => (
        <p key={i}>
          {n}{' '}
          <button type="button" aria-label="Dismiss" onClick={() => dismiss(i)}>
            ×
          </button>
        </p>
      ))}
    </div>
  );
}

/** How every view words a bad URL value. */
export const urlNotice = (m: string) => `The link asked for something this page cannot do, so it uses the default instead: ${m}`;

/** How every view words the keys of its URL it did not understand (there is no default to fall back on). */
export const ignoredNotice = (m: string) => `The link asked for something this page does not know: ${m}`;
