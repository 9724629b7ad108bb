// The app:// protocol the window loads the built renderer from (Electron's security checklist:
// a custom scheme instead of file://). Unlike file://, every response carries real headers, so the
// strict Content-Security-Policy is a header on every page and script, not only the renderer's meta
// tag; the renderer gets one origin (app://messenger) that the IPC sender check can pin; and no
// path outside out/renderer can be read. No 'electron' import: index.ts registers the scheme and
// passes serveAppFile to protocol.handle; the unit test calls it on a temporary folder.
import { readFile, stat } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';

export const APP_SCHEME = 'app';
export const APP_HOST = 'messenger';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The file of `dir` an app:// URL names, or null: another host, a path escaping the folder (also
 * percent-encoded), a NUL byte or a malformed escape. '/' is index.html.
 */
export function resolveAppFile(url: string, dir: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST) return null;
  let path: string;
  try {
    path = decodeURIComponent(u.pathname);
  } catch {
    return null;
  }
  if (path.includes('\0') || path.includes('\\')) return null;
  if (path === '/' || path === '') path = '/index.html';
  const root = resolve(dir);
  const file = resolve(root, `.${path}`);
  const rel = relative(root, file);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || rel.split(sep).includes('..')) return null;
  return file;
}

/** The response to one app:// request: the file with its type and the security headers, or 404/405. */
export async function serveAppFile(
  request: { url: string; method: string },
  dir: string,
  csp: string,
): Promise<Response> {
  const headers = {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-cache',
  };
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new Response('Method not allowed', { status: 405, headers: { ...headers, Allow: 'GET, HEAD' } });
  }
  const file = resolveAppFile(request.url, dir);
  if (file !== null) {
    try {
      if ((await stat(file)).isFile()) {
        const body = request.method === 'HEAD' ? null : new Uint8Array(await readFile(file));
        const type = MIME[extname(file).toLowerCase()] ?? 'application/octet-stream';
        return new Response(body, { status: 200, headers: { ...headers, 'Content-Type': type } });
      }
    } catch {
      // missing or unreadable: 404 below
    }
  }
  return new Response('Not found', {
    status: 404,
    headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' },
  });
}
