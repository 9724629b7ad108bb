// A message's content as the request fields of one send, and its problems before anything is
// journaled: protocol/content.ts builds the content's fields and finds its problems; this adds the
// account, the recipients and ResponseFormat 3, and turns problems into the API's error.
import { contentFormFields, contentOperation, contentProblems } from '../../protocol/content.ts';
import { PER_RECIPIENT_RESPONSE_FORMAT } from '../../protocol/limits.ts';
import { ApiError } from './validate-args.ts';
import type { OutboxContent } from '../../domain/index.ts';

/** The sendsms / sendmms form fields of `content` to `sendTo`, with ResponseFormat 3. */
export function sendFields(
  login: { username: string; pin: string },
  content: OutboxContent,
  sendTo: string,
): Record<string, string> {
  // The login and the journal's recipients win over anything the content's fields carry.
  const { Username: _u, PIN: _p, SendTo: _s, ...rest } = contentFormFields(content);
  return {
    Username: login.username,
    PIN: login.pin,
    SendTo: sendTo,
    ...rest,
    ResponseFormat: PER_RECIPIENT_RESPONSE_FORMAT,
  };
}

/** Every problem of the content (limits, fields) before anything is journaled. */
export function checkContent(content: OutboxContent): void {
  const problems = contentProblems(contentOperation(content.kind), content);
  if (problems.length > 0) {
    throw new ApiError(
      'invalid-request',
      `the message cannot be sent: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`,
      problems,
    );
  }
}
