// ErrorText is the renderer's one rendering of an error: a sentence, or a sentence and the list of
// problems an API validation error carries (either shell's error shape: Error with or without
// `problems` of {field, message} or of strings).
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ErrorText, errorParts } from '../../../renderer/components/ErrorText.tsx';

class ApiError extends Error {
  code = 'invalid-argument';
  problems: { field: string; message: string }[];
  constructor(message: string, problems: { field: string; message: string }[]) {
    super(message);
    this.problems = problems;
  }
}

describe('ErrorText', () => {
  it('renders nothing without an error', () => {
    for (const none of [null, undefined, ''])
      expect(renderToStaticMarkup(<ErrorText error={none} />)).toBe('');
  });

  it('renders an Error or a sentence as one alert paragraph', () => {
    expect(renderToStaticMarkup(<ErrorText error={new Error('The gateway did not answer.')} />)).toBe(
      '<p class="error" role="alert">The gateway did not answer.</p>',
    );
    expect(renderToStaticMarkup(<ErrorText error="A name is required." prefix="Not saved: " />)).toBe(
      '<p class="error" role="alert">Not saved: A name is required.</p>',
    );
  });

  it("lists an API error's problems under its message", () => {
    const e = new ApiError('The request is not valid.', [
      { field: 'SendTo', message: 'SendTo: 12ab is not a number.' },
      { field: 'Message', message: 'Message is empty.' },
    ]);
    expect(renderToStaticMarkup(<ErrorText error={e} />)).toBe(
      '<div class="errors" role="alert"><strong>The request is not valid.</strong><ul>' +
        '<li>SendTo: 12ab is not a number.</li><li>Message is empty.</li></ul></div>',
    );
    expect(errorParts({ message: 'Bad', problems: ['one', { message: 'two' }] })).toEqual({
      message: 'Bad',
      problems: ['one', 'two'],
    });
  });

  it('lists sentences after a prefix (Compose: "Nothing was sent:")', () => {
    expect(
      renderToStaticMarkup(
        <ErrorText
          error={['Add at least one recipient.', 'The message is empty.']}
          prefix="Nothing was sent:"
          testId="x"
        />,
      ),
    ).toBe(
      '<div class="errors" role="alert" data-testid="x"><strong>Nothing was sent:</strong><ul>' +
        '<li>Add at least one recipient.</li><li>The message is empty.</li></ul></div>',
    );
  });

  it('reads a thrown non-Error as its string', () => {
    expect(errorParts(42)).toEqual({ message: '42', problems: [] });
  });
});
