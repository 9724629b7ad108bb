// The one rendering of an error in the renderer: its sentence, and the list of problems when the
// error carries one (a validation error of the API lists every field's problem).
import type { ReactNode } from 'react';

/** The readable sentence and the problems (if any) of a thrown value, a message or a list. */
export function errorParts(error: unknown): { message: string; problems: string[] } {
  if (Array.isArray(error)) return { message: '', problems: error.map((p) => problemText(p)) };
  if (error instanceof Error || (typeof error === 'object' && error !== null && 'message' in error)) {
    const e = error as { message?: unknown; problems?: unknown };
    const problems = Array.isArray(e.problems) ? e.problems.map((p) => problemText(p)) : [];
    return { message: typeof e.message === 'string' ? e.message : String(e.message), problems };
  }
  return { message: String(error), problems: [] };
}

function problemText(p: unknown): string {
  if (typeof p === 'string') return p;
  if (typeof p === 'object' && p !== null && 'message' in p)
    return String((p as { message: unknown }).message);
  return String(p);
}

/**
 * Nothing when there is no error; otherwise an alert with the message (after `prefix`, when given)
 * and, when the error lists problems, each of them.
 */
export function ErrorText({
  error,
  prefix,
  className = 'error',
  testId,
}: {
  /** An Error (or the API's error with `problems`), a sentence, a list of sentences, or null/undefined. */
  error: unknown;
  prefix?: ReactNode;
  className?: string;
  testId?: string;
}) {
  if (error === null || error === undefined || error === '') return null;
  const { message, problems } = errorParts(error);
  if (problems.length === 0)
    return (
      <p className={className} role="alert" data-testid={testId}>
        {prefix}
        {message}
      </p>
    );
  return (
    <div className={className === 'error' ? 'errors' : className} role="alert" data-testid={testId}>
      {prefix || message ? (
        <strong>
          {prefix}
          {message}
        </strong>
      ) : null}
      <ul>
        {problems.map((p, i) => (
          <li key={i}>{p}</li>
        ))}
      </ul>
    </div>
  );
}
