// Child accounts created through this app, per parent account (migration 006). The spec has no
// operation that lists an account's children, so this list is the app's memory of what it created;
// the child's PIN is never stored (it is shown to the user once, at creation).
import type { AppDb } from './db.ts';
import { rowsAs } from './rows.ts';
import type { ChildAccount } from '../../domain/index.ts';
import type { ChildAccountType } from '../../protocol/limits.ts';

interface ChildRow {
  username: string;
  type: string;
  email: string;
  telephone_country_code: string;
  mobile_number: string;
  given_name: string | null;
  family_name: string | null;
  company_name: string | null;
  created_at: number;
}

function toChild(r: ChildRow): ChildAccount {
  return {
    username: r.username,
    type: r.type as ChildAccountType,
    email: r.email,
    telephoneCountryCode: r.telephone_country_code,
    mobileNumber: r.mobile_number,
    givenName: r.given_name,
    familyName: r.family_name,
    companyName: r.company_name,
    createdAt: r.created_at,
  };
}

export class ChildAccountsRepo {
  readonly #app: AppDb;

  constructor(app: AppDb) {
    this.#app = app;
  }

  /** The children of `accountId`, newest first. */
  list(accountId: string): ChildAccount[] {
    return rowsAs<ChildRow>(
      this.#app.db
        .prepare(
          `SELECT username, type, email, telephone_country_code, mobile_number, given_name, family_name,
             company_name, created_at FROM child_accounts WHERE account_id = ? ORDER BY created_at DESC, username`,
        )
        .all(accountId),
    ).map(toChild);
  }

  get(accountId: string, username: string): ChildAccount | null {
    return this.list(accountId).find((c) => c.username === username) ?? null;
  }

  add(accountId: string, child: ChildAccount): void {
    this.#app.db
      .prepare(
        `INSERT INTO child_accounts (account_id, username, type, email, telephone_country_code, mobile_number,
           given_name, family_name, company_name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (account_id, username) DO NOTHING`,
      )
      .run(
        accountId,
        child.username,
        child.type,
        child.email,
        child.telephoneCountryCode,
        child.mobileNumber,
        child.givenName,
        child.familyName,
        child.companyName,
        child.createdAt,
      );
  }

  remove(accountId: string, username: string): void {
    this.#app.db
      .prepare('DELETE FROM child_accounts WHERE account_id = ? AND username = ?')
      .run(accountId, username);
  }
}
