import { type ReactNode, useId } from 'react';

/** Content with a one-line explanation that shows on hover and on keyboard focus, and is read out as its description. */
export function Explained({ text, children, className }: { text: string; children: ReactNode; className?: string }) {
  const id = useId();
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so the explanation shows without a pointer.
    <span className={className ? `explained ${className}` : 'explained'} tabIndex={0} aria-describedby={id}>
      {children}
      <span role="tooltip" id={id} className="tip">
        {text}
      </span>
    </span>
  );
}
