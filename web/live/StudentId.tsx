import { useState } from 'react';
import { ANONYMOUS_ID, studentIdProblem } from '../../shared/relay/studentId.ts';
import { setStudentId, useStudentId } from './studentId.ts';

/**
 * Who the page submits as, shown beside the buttons that submit (Start live fetch, and the class
 * contest's Submit): the student's id, or a field asking for it once. `anonymous`: the buttons beside it
 * submit without an id meanwhile (a live fetch does; the contest takes nothing without one), and it says so.
 */
export function StudentId({ anonymous = false }: { anonymous?: boolean }) {
  const id = useStudentId();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState('');
  const problem = studentIdProblem(text.trim());
  if (id !== null && !editing)
    return (
      <span className="student-id" data-student-id={id}>
        as <strong>{id}</strong>{' '}
        <button type="button" className="link" onClick={() => (setText(id), setEditing(true))}>
          change
        </button>
      </span>
    );
  const save = () => {
    if (problem) return;
    setStudentId(text.trim());
    setEditing(false);
  };
  return (
    <form
      className="student-id"
      data-student-id=""
      onSubmit={(ev) => {
        ev.preventDefault();
        save();
      }}
    >
      {id === null && anonymous && <span data-hint="anonymous">Submits as {ANONYMOUS_ID} until you give your id: </span>}
      <input aria-label="Your id (id@team)" placeholder="id@team" value={text} onChange={(ev) => setText(ev.target.value)} autoComplete="off" spellCheck={false} data-param="student-id" />{' '}
      <button type="submit" disabled={problem !== null}>
        Use this id
      </button>
      {text.trim() !== '' && problem && <small role="alert"> {problem}</small>}
    </form>
  );
}
