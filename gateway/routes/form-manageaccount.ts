// POST|GET /webservices/http/manageaccount (spec 4.4): create a child account (TRANSFER or SHARED),
// delete a child (parent only), transfer funds by amount or message count between parent and child.
// Needs valid credentials of the paying/parent account AND the restricted-service permission (spec 5.5).
import type { FormFields } from '../../protocol/form.ts';
import { validateRequest } from '../../protocol/validate.ts';
import { buildManageResponse } from '../../protocol/responses.ts';
import { REPORT, describeReport } from '../../protocol/reports.ts';
import { CHILD_ACCOUNT_TYPES } from '../../protocol/limits.ts';
import type { ChildAccountType } from '../../protocol/limits.ts';
import type { GatewayContext } from '../context.ts';
import type { RouteResponse } from '../http.ts';
import type { Account } from '../accounts.ts';
import { AccountError, createAccount, getAccount, randomAlnum } from '../accounts.ts';
import { loadTariffs, parseMoney } from '../credit.ts';
import { transaction } from '../store/db.ts';
import { problemsText } from './form-common.ts';

function fail(report: string, text: string, log: Record<string, unknown>): RouteResponse {
  return { body: buildManageResponse({ report, text }), log: { ...log, report } };
}

function ok(extra: { username?: string; pin?: string }, log: Record<string, unknown>): RouteResponse {
  // The child's PIN is in the body (the spec returns it) but never in the log line.
  return {
    body: buildManageResponse({ report: REPORT.success, ...extra }),
    log: { ...log, report: REPORT.success },
  };
}

/** A fresh child username: parent's name (≤ 11 chars) + "." + 6 random characters (≤ 20, spec 2.1). */
function childUsername(ctx: GatewayContext, parent: Account): string {
  const base = parent.username.replace(/[^A-Za-z0-9]/g, '').slice(0, 11) || 'child';
  for (;;) {
    const name = `${base}.${randomAlnum(6, 'abcdefghijkmnpqrstuvwxyz23456789')}`;
    if (!getAccount(ctx.db, name)) return name;
  }
}

export async function handleManage(fields: FormFields, ctx: GatewayContext): Promise<RouteResponse> {
  const username = fields.get('Username');
  const account = await ctx.authenticate(username, fields.get('PIN'));
  const log: Record<string, unknown> = { username };
  if (!account)
    return fail(REPORT.invalidLogin, describeReport(REPORT.invalidLogin), { ...log, auth: 'failed' });
  // The permission belongs to the parent account; its children may use it to transfer funds back.
  const parent = account.parentId !== null ? getAccount(ctx.db, account.parentId) : null;
  const permitted =
    account.restricted || (parent?.restricted === true && fields.has('TransferToAccountUsername'));
  if (!permitted) {
    return fail(REPORT.notPermitted, 'Account management needs the restricted-service permission', log);
  }
  const problems = validateRequest('manageaccount', fields);
  if (problems.length > 0) return fail(REPORT.syntaxError, problemsText(problems), log);

  if (fields.has('CreateChildAccountType')) {
    log.operation = 'CreateChildAccount';
    const type = fields.get('CreateChildAccountType')?.trim() as ChildAccountType;
    if (!CHILD_ACCOUNT_TYPES.includes(type)) {
      return fail(REPORT.syntaxError, `CreateChildAccountType must be TRANSFER or SHARED`, log);
    }
    if (account.parentId !== null)
      return fail(REPORT.notPermitted, 'A child account cannot create child accounts', log);
    const pin = randomAlnum(10);
    const optional = (name: string): string | undefined => fields.get(name)?.trim() || undefined;
    const child = createAccount(ctx.db, {
      username: childUsername(ctx, account),
      pin,
      parentId: account.id,
      childType: type,
      email: optional('CreateChildAccountEmail'),
      telephoneCountryCode: optional('CreateChildAccountTelephoneCountryCode'),
      mobileNumber: optional('CreateChildAccountMobileNumber'),
      givenName: optional('CreateChildAccountGivenName'),
      familyName: optional('CreateChildAccountFamilyName'),
      companyName: optional('CreateChildAccountCompanyName'),
    });
    return ok({ username: child.username, pin }, { ...log, child: child.username, childType: type });
  }

  if (fields.has('DeleteChildAccountUsername')) {
    log.operation = 'DeleteChildAccount';
    const name = fields.get('DeleteChildAccountUsername')?.trim() ?? '';
    const child = getAccount(ctx.db, name);
    if (!child || child.parentId !== account.id) {
      return fail(REPORT.notPermitted, `${name} is not a child account of ${account.username}`, log);
    }
    transaction(ctx.db, () => {
      // A TRANSFER child's remaining credit goes back to its parent.
      ctx.db
        .prepare(
          'UPDATE accounts SET credit = credit + (SELECT credit FROM accounts WHERE id = ?) WHERE id = ?',
        )
        .run(child.id, account.id);
      ctx.db.prepare('DELETE FROM accounts WHERE id = ?').run(child.id);
    });
    return ok({}, { ...log, child: name });
  }

  if (fields.has('TransferToAccountUsername')) {
    log.operation = 'TransferFunds';
    const name = fields.get('TransferToAccountUsername')?.trim() ?? '';
    const target = getAccount(ctx.db, name);
    const related = target !== null && (target.parentId === account.id || account.parentId === target.id);
    if (!target || !related) {
      return fail(
        REPORT.notPermitted,
        `Transfers go only between a parent and its child; ${name} is neither`,
        log,
      );
    }
    if (target.childType === 'SHARED' || account.childType === 'SHARED') {
      return fail(REPORT.notPermitted, 'A SHARED child spends its parent credit; nothing to transfer', log);
    }
    const amountText = fields.get('TransferCurrencyAmount')?.trim();
    const countText = fields.get('TransferMessagesAmount')?.trim();
    let amount: number | null = null;
    if (amountText) amount = parseMoney(amountText);
    else if (countText && /^\d{1,9}$/.test(countText))
      amount = Number(countText) * loadTariffs(ctx.db).Premier;
    if (amount === null || amount <= 0) {
      return fail(
        REPORT.syntaxError,
        'TransferCurrencyAmount (GBP) or TransferMessagesAmount (count) must be positive',
        log,
      );
    }
    const done = transaction(ctx.db, () => {
      const debit = ctx.db
        .prepare('UPDATE accounts SET credit = credit - ? WHERE id = ? AND credit >= ?')
        .run(amount, account.id, amount);
      if (debit.changes !== 1) return false;
      ctx.db.prepare('UPDATE accounts SET credit = credit + ? WHERE id = ?').run(amount, target.id);
      return true;
    });
    if (!done) return fail(REPORT.outOfCredit, describeReport(REPORT.outOfCredit), log);
    return ok({}, { ...log, target: name, amount });
  }
  return fail(
    REPORT.syntaxError,
    'One operation is required: CreateChildAccountType, DeleteChildAccountUsername or TransferToAccountUsername',
    log,
  );
}

export { AccountError };
