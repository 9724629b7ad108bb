// Message templates: named texts the user inserts in compose.
import type { AppDb } from './db.ts';
import { StoreError } from './errors.ts';
import { rowAs, rowsAs } from './rows.ts';
import type { Template } from '../../domain/index.ts';

const NAME_MAX = 100;
const TEXT_MAX = 10_000;

interface TemplateRow {
  id: number;
  name: string;
  text: string;
  created_at: number;
  updated_at: number;
}

function toTemplate(r: TemplateRow): Template {
  return { id: r.id, name: r.name, text: r.text, createdAt: r.created_at, updatedAt: r.updated_at };
}

export class TemplatesRepo {
  readonly #app: AppDb;

  constructor(app: AppDb) {
    this.#app = app;
  }

  list(): Template[] {
    return rowsAs<TemplateRow>(
      this.#app.db.prepare('SELECT * FROM templates ORDER BY name COLLATE NOCASE, id').all(),
    ).map(toTemplate);
  }

  get(id: number): Template | null {
    const row = rowAs<TemplateRow>(this.#app.db.prepare('SELECT * FROM templates WHERE id = ?').get(id));
    return row ? toTemplate(row) : null;
  }

  create(args: { name: string; text: string }): Template {
    const name = cleanName(args.name);
    const text = cleanText(args.text);
    return this.#app.transaction(() => {
      this.#refuseTaken(name, null);
      const now = Date.now();
      const row = rowAs<{ id: number }>(
        this.#app.db
          .prepare(
            'INSERT INTO templates (name, text, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING id',
          )
          .get(name, text, now, now),
      );
      if (!row) throw new StoreError('invalid-state', 'the template was not stored');
      return this.#must(row.id);
    });
  }

  update(id: number, changes: { name?: string; text?: string }): Template {
    return this.#app.transaction(() => {
      const current = this.#must(id);
      const name = changes.name === undefined ? current.name : cleanName(changes.name);
      const text = changes.text === undefined ? current.text : cleanText(changes.text);
      this.#refuseTaken(name, id);
      this.#app.db
        .prepare('UPDATE templates SET name = ?, text = ?, updated_at = ? WHERE id = ?')
        .run(name, text, Date.now(), id);
      return this.#must(id);
    });
  }

  delete(id: number): void {
    const r = this.#app.db.prepare('DELETE FROM templates WHERE id = ?').run(id);
    if (r.changes === 0) throw new StoreError('not-found', `no template ${id}`);
  }

  #refuseTaken(name: string, exceptId: number | null): void {
    const row = rowAs<{ id: number }>(
      this.#app.db.prepare('SELECT id FROM templates WHERE name = ?').get(name),
    );
    if (row && row.id !== exceptId)
      throw new StoreError('duplicate', `a template named "${name}" exists already`);
  }

  #must(id: number): Template {
    const t = this.get(id);
    if (!t) throw new StoreError('not-found', `no template ${id}`);
    return t;
  }
}

function cleanName(name: string): string {
  const clean = name.trim();
  if (clean === '') throw new StoreError('invalid-input', 'a template needs a name');
  if (clean.length > NAME_MAX)
    throw new StoreError('invalid-input', `the template name is longer than ${NAME_MAX} characters`);
  return clean;
}

function cleanText(text: string): string {
  if (text.trim() === '') throw new StoreError('invalid-input', 'a template needs a text');
  if (text.length > TEXT_MAX)
    throw new StoreError('invalid-input', `the template text is longer than ${TEXT_MAX} characters`);
  return text;
}
