// Issue 28: the office database URL: what is accepted, TLS with the certificate checked away from
// this machine, and the password never in what is shown or logged.
import { describe, expect, it } from 'vitest';
import { clientConfig, isLoopbackHost, parseOfficeUrl, shownUrl } from '../../../main/office/connection.ts';

const target = (url: string) => {
  const r = parseOfficeUrl(url);
  if (!r.ok) throw new Error(r.reason);
  return r.target;
};

describe('office database URL', () => {
  it('reads user, host, port and database; the password only from the URL itself', () => {
    const t = target('postgres://desk%40a:s3cr%2Ft@db.office.example:6543/messenger');
    expect(t).toMatchObject({ user: 'desk@a', password: 's3cr/t', host: 'db.office.example', port: 6543 });
    expect(t.database).toBe('messenger');
    expect(target('postgresql://desk@db.example/m').port).toBe(5432);
  });

  it('never shows the password', () => {
    const t = target('postgres://desk:hunter2@127.0.0.1:5433/messenger');
    expect(shownUrl(t)).toBe('postgres://desk@127.0.0.1:5433/messenger');
    expect(shownUrl(t)).not.toContain('hunter2');
  });

  it('uses TLS with the certificate checked for a server on another machine, never in clear', () => {
    const remote = target('postgres://desk@db.office.example/messenger');
    expect(remote.tls).toBe(true);
    const c = clientConfig(remote, 'pw', {});
    expect(c.ssl).toMatchObject({ rejectUnauthorized: true, servername: 'db.office.example' });
    expect(target('postgres://desk@10.0.0.5/messenger').tls).toBe(true);
    const refused = parseOfficeUrl('postgres://desk@db.office.example/messenger?sslmode=disable');
    expect(refused).toMatchObject({ ok: false, reason: expect.stringMatching(/TLS/) });
    expect(parseOfficeUrl('postgres://desk@db.example/m?sslmode=prefer')).toMatchObject({ ok: false });
    expect(parseOfficeUrl('postgres://desk@db.example/m?sslmode=require')).toMatchObject({ ok: false });
  });

  it('reaches this machine in clear unless asked; a CA file makes it TLS', () => {
    const here = target('postgres://desk@127.0.0.1:5433/messenger');
    expect(here.tls).toBe(false);
    expect(clientConfig(here, undefined, {}).ssl).toBeUndefined();
    expect(target('postgres://desk@localhost/m?sslmode=verify-full').tls).toBe(true);
    expect(target('postgres://desk@[::1]/m?sslrootcert=/etc/ca.pem').caFile).toBe('/etc/ca.pem');
    expect(['127.0.0.1', '127.8.0.1', '::1', '[::1]', 'localhost'].every(isLoopbackHost)).toBe(true);
    expect(['10.0.0.1', 'db.example', '::2', 'localhost.example'].some(isLoopbackHost)).toBe(false);
  });

  it('refuses what is not a postgres URL with the reason', () => {
    expect(parseOfficeUrl('mysql://u@h/d')).toMatchObject({ ok: false, reason: /postgres:\/\// });
    expect(parseOfficeUrl('postgres://u@h/')).toMatchObject({ ok: false, reason: /no database/ });
    expect(parseOfficeUrl('postgres://h/d')).toMatchObject({ ok: false, reason: /no user/ });
    expect(parseOfficeUrl('postgres://u@h/d?application_name=x')).toMatchObject({ ok: false });
    expect(parseOfficeUrl('not a url')).toMatchObject({ ok: false });
  });
});
