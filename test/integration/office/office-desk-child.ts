// A desk in office mode in a process of its own, for the tests that kill it with SIGKILL (issue 28):
// signs in to the gateway given on the command line, on the office database named by the URL (the
// password from MESSENGER_OFFICE_PASSWORD, the PIN from MESSENGER_PIN), and prints one JSON line per
// event: {"ready"}, {"status": OfficeStatus}, {"polled": n} for each "poll" line read on stdin,
// {"texts": {total, distinct}} (its inbound "reply N" texts) for each "texts" line, {"unread": n}
// after each 'inbox:received', {"progress": jobId} after each 'outbox:progress', {"cpu": ms} (the
// process's CPU time so far) for each "cpu" line, and for each line `call {"channel", "arg"}` the API's
// answer {"called": result} or {"callError": message}.
import { createInterface } from 'node:readline';
import { createMessengerApp } from '../../../main/services/app.ts';

const [dataDir, gatewayUrl, username, officeUrl, seconds] = process.argv.slice(2);
const pin = process.env.MESSENGER_PIN;
if (!dataDir || !gatewayUrl || !username || !officeUrl || !pin)
  throw new Error('usage: office-desk-child.ts <dataDir> <gatewayUrl> <username> <officeUrl> [pollSeconds]');
const say = (o: unknown): void => void process.stdout.write(`${JSON.stringify(o)}\n`);
const app = await createMessengerApp({ dataDir, office: officeUrl, log: () => {} });
app.events.on('office:status', (status) => say({ status }));
app.events.on('inbox:received', (p) => say({ unread: p.unreadTotal }));
app.events.on('outbox:progress', (p) => say({ progress: p.jobId }));
await app.api.settings.update({ pollIntervalSeconds: Number(seconds ?? 5) });
if ((await app.api.accounts.current()) === null)
  await app.api.accounts.signIn({ username, pin, primaryUrl: gatewayUrl, rememberPin: false });
say({ ready: true });
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === 'poll') say({ polled: (await app.api.inbox.pollNow()).received });
  if (line.startsWith('call ')) {
    const { channel, arg } = JSON.parse(line.slice(5)) as { channel: string; arg?: unknown };
    await app.call(channel as never, arg as never).then(
      (called) => say({ called: called ?? null }),
      (err: unknown) => say({ callError: err instanceof Error ? err.message : String(err) }),
    );
  }
  if (line.trim() === 'cpu') {
    const u = process.cpuUsage();
    say({ cpu: (u.user + u.system) / 1000 });
  }
  if (line.trim() === 'texts') {
    const all = [...(await app.api.inbox.exportMessages()).matchAll(/reply \d+/g)].map((m) => m[0]);
    say({ texts: { total: all.length, distinct: new Set(all).size } });
  }
}
