// Pasting numbers into Compose, in the real app (web shell, local sandbox) in Debian's Chromium:
// 100,000 numbers pasted into "To" at once. Prints the longest main-thread task while the numbers are
// read (PerformanceObserver 'longtask': target no task over 100 ms; normalisation runs in a Web
// Worker, renderer/views/compose/normalize-numbers.ts), the time from the paste to "Checking N
// numbers…" (the count shown, target ≤ 1 s) and to the chips, each against the same paste of 1,000
// numbers in the same run.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { ARGS, CHROMIUM, startShell, stopShell } from '../test/e2e/support.ts';

const LARGE = Number(process.env.BENCH_PASTE_NUMBERS ?? 100_000);
const SMALL = 1_000;
const TARGET_TASK_MS = 100;
const TARGET_COUNT_MS = 1_000;

interface Paste {
  countMs: number;
  /** Longest task that ended while "Checking…" was still shown (normalisation, not the chips' render). */
  longestChecking: number;
  chipsMs: number;
  longest: number;
  longTasks: number;
  chips: number;
}

/** UK numbers as people paste them: national with spaces, international, a few invalid. */
function pasted(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const sub = String(100000 + (i % 900000));
    out.push(i % 50 === 49 ? `0740 ${sub}x` : i % 2 ? `07400 ${sub}` : `+44 7400 ${sub}`);
  }
  return out.join('\n');
}

async function paste(url: string, n: number): Promise<Paste> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url);
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 30_000 });
    await page.keyboard.press('Control+n');
    const entry = page.getByRole('combobox', { name: 'To', exact: true });
    await entry.waitFor();
    await entry.focus();
    return await page.evaluate(
      ({ text, n, small }) =>
        new Promise<Paste>((resolve) => {
          const tasks: number[] = [];
          const taskEnds: number[] = [];
          const observer = new PerformanceObserver((list) => {
            for (const e of list.getEntries()) {
              tasks.push(e.duration);
              taskEnds.push(e.startTime + e.duration);
            }
          });
          let lastChecking = 0;
          observer.observe({ type: 'longtask', buffered: false });
          const data = new DataTransfer();
          data.setData('text/plain', text);
          const t0 = performance.now();
          document.activeElement!.dispatchEvent(
            new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
          );
          let countMs = -1;
          const list = document.querySelector('[aria-label="Recipients"]')!;
          const check = (): void => {
            const status = document.querySelector('[role="status"]')?.textContent ?? '';
            if (status.includes('Checking')) lastChecking = performance.now();
            if (countMs < 0 && (status.includes('Checking') || list.children.length > n / 2)) {
              countMs = performance.now() - t0;
            }
            // The chips (and the input) are the list's children; after 12 the rest is one "+N more"
            // button (issue 12), so the chips made are those shown plus N.
            const chipCount = (): number =>
              list.querySelectorAll('[role="listitem"]').length +
              (Number((list.querySelector('.chip.more')?.textContent ?? '').replace(/\D/g, '')) || 0);
            if (chipCount() >= n) {
              const chipsMs = performance.now() - t0;
              // Let the observer see the last task.
              setTimeout(() => {
                observer.disconnect();
                resolve({
                  countMs: countMs < 0 ? chipsMs : countMs,
                  longestChecking: Math.max(0, ...tasks.filter((_, i) => taskEnds[i]! <= lastChecking)),
                  chipsMs,
                  longest: Math.max(0, ...tasks),
                  longTasks: tasks.filter((d) => d > 100).length,
                  chips: chipCount(),
                });
              }, 50);
            } else setTimeout(check, small ? 1 : 5);
          };
          check();
        }),
      { text: pasted(n), n, small: n <= 1000 },
    );
  } finally {
    await browser.close();
  }
}

export async function run(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.log(`skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'messenger-bench-paste-'));
  // The web shell's URL token is single-use (issue 17): a fresh shell, on the same data, per paste.
  const pasteInShell = async (n: number): Promise<Paste> => {
    const shell = await startShell(dataDir);
    try {
      return await paste(shell.url, n);
    } finally {
      await stopShell(shell);
    }
  };
  try {
    const small = await pasteInShell(SMALL);
    const large = await pasteInShell(LARGE);
    const n = (x: number): string => x.toLocaleString('en-GB');
    console.log(
      `paste ${n(LARGE)} numbers into Compose (Chromium): longest main-thread task ${large.longest.toFixed(0)} ms, ` +
        `${large.longTasks} over 100 ms (target none over ${TARGET_TASK_MS} ms: ${large.longest <= TARGET_TASK_MS ? 'met' : 'NOT met'}); ` +
        `count shown after ${large.countMs.toFixed(0)} ms (target ≤ ${n(TARGET_COUNT_MS)} ms: ${large.countMs <= TARGET_COUNT_MS ? 'met' : 'NOT met'}); ` +
        `all ${n(large.chips)} chips (12 shown, the rest "+N more") after ${(large.chipsMs / 1000).toFixed(2)} s; ` +
        `longest task while the numbers were checked (before the chips render) ${large.longestChecking.toFixed(0)} ms`,
    );
    console.log(
      `  baseline: ${n(SMALL)} numbers, same page: longest task ${small.longest.toFixed(0)} ms, count after ${small.countMs.toFixed(0)} ms, ` +
        `chips after ${small.chipsMs.toFixed(0)} ms; ratio ${n(LARGE)} / ${n(SMALL)}: chips ${(large.chipsMs / small.chipsMs).toFixed(0)}× ` +
        `for ${LARGE / SMALL}× the numbers`,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) await run();
