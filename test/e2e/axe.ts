// axe-core (Deque's accessibility checker, a devDependency) run in the page: the serious and
// critical violations of the page as it is now, one line each with the elements they were found on.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeResult {
  violations: Array<{
    id: string;
    impact: string | null;
    help: string;
    nodes: Array<{
      target: unknown[];
      failureSummary?: string;
      any?: Array<{ data?: { fgColor?: string; bgColor?: string; contrastRatio?: number } | null }>;
    }>;
  }>;
}

/** "id (impact): help — selector; selector" for each serious or critical violation. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // The app's Content-Security-Policy (script-src 'self') refuses an added <script> tag; code
  // evaluated through the DevTools protocol is not subject to it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<unknown> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })) as AxeResult;
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .map((n) => {
            const c = n.any?.[0]?.data;
            const why = c?.fgColor
              ? `${c.fgColor} on ${c.bgColor}, ${c.contrastRatio}:1`
              : (n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 160);
            return `${n.target.map(String).join(' ')} [${why}]`;
          })
          .join('; ')}`,
    );
}

/** The serious and critical violations in the light and in the dark colour scheme ("light: …", "dark: …"). */
export async function violationsBothSchemes(page: Page): Promise<string[]> {
  const out: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    out.push(...(await seriousViolations(page)).map((v) => `${scheme}: ${v}`));
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return out;
}

/**
 * Tab through the page (at most `tabs` presses) and list every focused element that shows no focus
 * ring: no outline of at least 2 px and no box shadow.
 */
export async function focusWithoutRing(page: Page, tabs = 40): Promise<string[]> {
  const missing = new Set<string>();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  for (let i = 0; i < tabs; i++) {
    await page.keyboard.press('Tab');
    const bare = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const s = getComputedStyle(el);
      const ring = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2;
      if (ring || (s.boxShadow !== 'none' && s.boxShadow !== '')) return null;
      const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 30) ?? '';
      return `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ')[0]}` : ''} "${name}"`;
    });
    if (bare) missing.add(bare);
  }
  return [...missing];
}
