import { useEffect, useId, useRef, useState } from 'react';
import type { ParamSpec } from '../../shared/controllers/types.ts';
import { checkField } from '../state/codec.ts';

/**
 * A number typed into a box, checked as a link's value is (checkField), so what the box applies a shared
 * link reproduces. Each keystroke whose text checks is applied at once, so the charts follow the typing.
 * Text that does not check puts back the value in force before the typing that led to it: typing "6000"
 * into a box whose bound is 5000 passes through 600, which must not stay in force, while a value typed,
 * then replaced by a bad one, stays. The refusal says which value stays, and stays beside the box after
 * leaving it (the box shows that value again) until the value changes from elsewhere (the slider,
 * another entry of the history).
 */
export function useTypedValue(spec: ParamSpec, value: number, apply: (v: number) => void) {
  const [text, setText] = useState(String(value));
  const [problem, setProblem] = useState<string | null>(null);
  const problemId = useId();
  /** The value in force before the text being typed, which extends the text typed before it. */
  const settled = useRef(value);
  const typed = useRef(String(value));
  /** The value this box applied last, which comes back as `value`: not a change from elsewhere. */
  const applied = useRef<number | null>(null);
  useEffect(() => {
    if (value === applied.current) return;
    applied.current = null;
    typed.current = String(value);
    setText(String(value));
    setProblem(null);
  }, [value]);
  const type = (raw: string) => {
    if (!raw.startsWith(typed.current)) settled.current = value;
    typed.current = raw;
    setText(raw);
    const r = checkField(spec, raw.trim());
    setProblem('error' in r ? `${r.error}; ${spec.name} stays ${settled.current}` : null);
    const v = 'error' in r ? settled.current : Number(r.value);
    applied.current = v;
    if (v !== value) apply(v);
  };
  return {
    problem,
    /** The id the refusal's element takes, so a screen reader reads it with the box. */
    problemId,
    input: {
      value: text,
      onChange: (e: { target: { value: string } }) => type(e.target.value),
      onFocus: () => {
        settled.current = value;
        typed.current = text;
      },
      onBlur: () => {
        applied.current = null;
        setText(String(value));
      },
      // what the box shows is invalid only while it is not the value in force
      'aria-invalid': problem !== null && text !== String(value),
      'aria-describedby': problem === null ? undefined : problemId,
    },
  };
}
