// `messenger inbox`: every message waiting at the gateway, printed as it is read (issue 16). One
// CollectMessages call after another while the pages come back full (a page at least as large as any
// before: the client cannot know the gateway's page size); each answer is streamed, and each message
// is written to stdout before the next chunk is read, so a message the gateway has marked collected
// is in the output even when a later call fails. --json writes one JSON document:
// { outcome, value: { MessageList: { item: [...] }, Report }, calls } (plus `error` when a later call
// failed; Report is the last call's). A page that repeats a message an earlier page returned (a
// gateway that does not remove collected messages, issue 24) ends the run: its repeats are not
// printed again, and a warning goes to stderr (with --json, also as "warning").
import type { GatewayClient } from '../client/gateway-client.ts';
import type { MOMessage } from '../../protocol/soap/operations.ts';
import { CollectRepeats, repeatWarning } from '../client/collect-repeats.ts';
import { EXIT } from './args.ts';
import type { CliIO } from './args.ts';
import { printResult } from './output.ts';

/** Most calls one `inbox` makes in a row. */
const MAX_CALLS = 1000;

function line(m: MOMessage): string {
  return `${m.Timestamp1}  from ${m.ReplyTo} to ${m.SendTo}: ${m.Message.TextMessage ?? m.Message.FlashMessage ?? '(content)'}`;
}

export async function cmdInbox(client: GatewayClient, io: CliIO, json: boolean): Promise<number> {
  let total = 0;
  let largest = 0;
  let opened = false;
  const open = (): void => {
    if (opened) return;
    opened = true;
    if (json) io.stdout.write(`{"outcome":"ok","value":{"MessageList":{"item":[`);
  };
  const repeats = new CollectRepeats();
  const keep = (page: MOMessage[]): void => {
    open();
    const items = repeats.fresh(page);
    if (items.length === 0) return;
    const out = json
      ? items.map((m, i) => `${total + i === 0 ? '\n' : ',\n'}${JSON.stringify(m)}`).join('')
      : `${items.map(line).join('\n')}\n`;
    io.stdout.write(out);
    total += items.length;
  };
  for (let call = 1; ; call++) {
    const r = await client.collectMessagesStreaming(keep);
    if (r.outcome !== 'ok') {
      if (!opened) return printResult(io, json, r, () => '');
      // messages of earlier calls are printed; say why the rest did not come
      if (json) io.stdout.write(`\n]},"Report":0},"calls":${call},"error":${JSON.stringify(r)}}\n`);
      else
        io.stderr.write(
          `after ${total} messages: ${r.outcome === 'rejected' ? `rejected (${r.code})` : r.outcome}: ${r.reason}\n`,
        );
      return r.outcome === 'unknown' ? EXIT.unknown : EXIT.failed;
    }
    open();
    const { repeated } = repeats.endPage();
    const warning = repeated > 0 ? repeatWarning(repeated, call) : undefined;
    const full = r.value.count > 0 && r.value.count >= largest;
    largest = Math.max(largest, r.value.count);
    if (!full || call >= MAX_CALLS || warning !== undefined) {
      const warned = warning !== undefined ? `,"warning":${JSON.stringify(warning)}` : '';
      if (json)
        io.stdout.write(`${total > 0 ? '\n' : ''}]},"Report":${r.value.Report}},"calls":${call}${warned}}\n`);
      else if (total === 0) io.stdout.write('no new messages\n');
      if (warning !== undefined) io.stderr.write(`warning: ${warning}\n`);
      return EXIT.ok;
    }
  }
}
