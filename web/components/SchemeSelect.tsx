import type { Scheme } from '../../shared/controllers/types.ts';

/** A menu of schemes by title. */
export function SchemeSelect({ value, schemes, onChange, label, param }: { value: string; schemes: readonly Scheme[]; onChange(id: string): void; label: string; param?: string }) {
  return (
    <select value={value} onChange={(e) => onChange(e.target.value)} aria-label={label} data-param={param}>
      {schemes.map((s) => (
        <option key={s.id} value={s.id}>
          {s.title}
        </option>
      ))}
    </select>
  );
}
