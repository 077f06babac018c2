import { type RefObject, useRef, useState } from 'react';

/**
 * The token the relay gave the student's id, shown as it comes, to keep elsewhere: the same string works
 * from another browser and from the command line (`--token`, or its token file).
 */
export function TokenShown({ id, token }: { id: string; token: string }) {
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    // http:// on a lab address is no secure context: no clipboard API there, the selection is copied instead
    const done = await navigator.clipboard?.writeText(token).then(
      () => true,
      () => false,
    );
    if (done) return setCopied(true);
    // left selected if the browser copies nothing either: Ctrl+C then does
    field.current?.select();
    setCopied(document.execCommand('copy'));
  };
  return (
    <p className="contest-token" data-testid="contest-token">
      {id}’s token: <input ref={field} readOnly value={token} aria-label={`${id}’s token`} size={token.length} onFocus={(e) => e.target.select()} />{' '}
      <button type="button" onClick={() => void copy()}>
        {copied ? 'Copied' : 'Copy'}
      </button>{' '}
      Keep it to submit as {id} from another browser or the command line.
    </p>
  );
}

/**
 * Where the student gives the token of an id this browser keeps none for: the one the instructor handed
 * out (a class roster), or the one the id was given when it first submitted from elsewhere.
 */
export function TokenField({ id, value, onChange, field }: { id: string; value: string; onChange(v: string): void; field: RefObject<HTMLInputElement | null> }) {
  return (
    <label className="contest-token">
      {id}’s token (from your instructor, or kept from its first submission in another browser or on the command line):{' '}
      <input ref={field} value={value} onChange={(e) => onChange(e.target.value)} autoComplete="off" spellCheck={false} data-param="contest-token" />
    </label>
  );
}

/**
 * Forgets the id and its token on this browser (a shared PC's sign-out), saying first what that costs.
 */
export function ForgetId({ id, onForget }: { id: string; onForget(): void }) {
  return (
    <small className="contest-forget">
      <button type="button" className="link" onClick={onForget}>
        Forget this id on this browser
      </button>{' '}
      (then you cannot submit as {id} again, from here or another browser, unless you kept its token)
    </small>
  );
}
