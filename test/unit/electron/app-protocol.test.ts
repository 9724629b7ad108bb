import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APP_INDEX_URL, resolveAppFile, serveAppFile } from '../../../main/electron/app-protocol.ts';
import { contentSecurityPolicy } from '../../../main/electron/policy.ts';

let base = '';
let dir = '';
const csp = "default-src 'none'; script-src 'self'";

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'app-protocol-'));
  dir = join(base, 'renderer');
  await mkdir(join(dir, 'assets'), { recursive: true });
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><script type="module" src="./assets/app.js"></script>',
  );
  await writeFile(join(dir, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(join(dir, 'assets', 'app.css'), 'body{}');
  await writeFile(join(base, 'secret.txt'), 'outside the renderer');
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const get = (url: string, method = 'GET') => serveAppFile({ url, method }, dir, csp);

describe('app:// protocol', () => {
  it('serves the renderer with its type and the CSP header', async () => {
    const page = await get(APP_INDEX_URL);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(csp);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await page.text()).toContain('<script type="module"');
    const root = await get('app://messenger/');
    expect(await root.text()).toContain('<!doctype html>');
    const js = await get('app://messenger/assets/app.js?v=1#x');
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await js.text()).toBe('console.log(1)');
    expect((await get('app://messenger/assets/app.css')).headers.get('content-type')).toBe(
      'text/css; charset=utf-8',
    );
    const head = await get(APP_INDEX_URL, 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('never serves a file outside the renderer folder', async () => {
    for (const url of [
      'app://messenger/../secret.txt',
      'app://messenger/%2e%2e/secret.txt',
      'app://messenger/assets/..%2f..%2fsecret.txt',
      'app://messenger/assets/..%5c..%5csecret.txt',
      'app://messenger/%2e%2e%2fsecret.txt',
      'app://messenger/index.html%00.js',
      'app://messenger/%E0%A4%A',
      'app://other/index.html',
      'app://messenger/assets', // a folder
      'app://messenger/missing.js',
    ]) {
      const r = await get(url);
      expect(r.status, url).toBe(404);
      expect(await r.text(), url).toBe('Not found');
      expect(r.headers.get('content-security-policy')).toBe(csp);
    }
    // the URL parser folds an encoded '..' at the root: it stays inside the folder
    expect(resolveAppFile('app://messenger/%2e%2e/secret.txt', dir)).toBe(join(dir, 'secret.txt'));
    expect(resolveAppFile('app://messenger/assets/..%2f..%2fsecret.txt', dir)).toBeNull();
    expect(resolveAppFile('https://messenger/index.html', dir)).toBeNull();
    expect(resolveAppFile('app://messenger/assets/app.js', dir)).toBe(join(dir, 'assets', 'app.js'));
  });

  it('refuses other methods', async () => {
    const r = await get(APP_INDEX_URL, 'POST');
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, HEAD');
  });

  it("uses the production CSP, in which 'self' is app://messenger", () => {
    expect(contentSecurityPolicy({ kind: 'app', dir })).toContain("script-src 'self';");
  });
});
