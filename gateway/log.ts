// Structured logging: one JSON line per event on stderr. PINs never reach a log line: every field
// named like a PIN is masked here as a last line of defence, and routes log only the names they need.

export type LogLevel = 'info' | 'warn' | 'error';

export interface Logger {
  info(event: string, fields?: Record<string, unknown>): void;
  warn(event: string, fields?: Record<string, unknown>): void;
  error(event: string, fields?: Record<string, unknown>): void;
}

const SECRET_KEYS = /^(pin|password|secret|createchildaccountpin)$/i;

function scrub(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    out[k] = SECRET_KEYS.test(k) ? '***' : v;
  }
  return out;
}

export function createLogger(opts: { quiet?: boolean; write?: (line: string) => void } = {}): Logger {
  const write = opts.write ?? ((line: string) => process.stderr.write(line + '\n'));
  const emit = (level: LogLevel, event: string, fields: Record<string, unknown> = {}): void => {
    if (opts.quiet && level === 'info') return;
    write(JSON.stringify({ time: new Date().toISOString(), level, event, ...scrub(fields) }));
  };
  return {
    info: (e, f) => emit('info', e, f),
    warn: (e, f) => emit('warn', e, f),
    error: (e, f) => emit('error', e, f),
  };
}
