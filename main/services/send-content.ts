// A message's content as the request fields of one send, and its problems before anything is
// journaled (protocol's validateRequest on the content's own fields).
import { validateRequest } from '../../protocol/validate.ts';
import type { Problem } from '../../protocol/validate.ts';
import { ApiError } from './validate-args.ts';
import type { OutboxContent } from '../../preload/api.ts';

/** The sendsms / sendmms form fields of `content` to `sendTo`, with ResponseFormat 3. */
export function sendFields(
  login: { username: string; pin: string },
  content: OutboxContent,
  sendTo: string,
): Record<string, string> {
  const f: Record<string, string> = { Username: login.username, PIN: login.pin, SendTo: sendTo };
  const rich = content.kind !== 'text' && content.kind !== 'flash';
  if (!rich) f[content.kind === 'flash' ? 'FlashMessage' : 'Message'] = content.text;
  else {
    Object.assign(f, content.fields ?? {});
    if (content.text !== '' && f.Message === undefined) f.Message = content.text;
  }
  if (content.replyTo !== undefined && content.replyTo !== '') f.ReplyTo = content.replyTo;
  if (content.deliveryOption !== undefined && !rich) f.DeliveryServiceOption = content.deliveryOption;
  if (content.sendTimeDelay !== undefined) f.SendTimeDelay = String(content.sendTimeDelay);
  if (content.sendTimeAbsolute !== undefined) f.SendTimeAbsolute = content.sendTimeAbsolute;
  f.ResponseFormat = '3';
  return f;
}

/** Every problem of the content (limits, fields) before anything is journaled. */
export function checkContent(content: OutboxContent): void {
  const op = content.kind === 'text' || content.kind === 'flash' ? 'sendsms' : 'sendmms';
  const problems: Problem[] = validateRequest(
    op,
    sendFields({ username: 'check', pin: 'check' }, content, '447700900000'),
  ).filter((p) => p.field !== 'Username' && p.field !== 'PIN');
  if (problems.length > 0) {
    throw new ApiError(
      'invalid-request',
      `the message cannot be sent: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`,
      problems,
    );
  }
}
