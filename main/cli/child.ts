// `messenger child create|delete|transfer`: child accounts through manageaccount.
import { CHILD_ACCOUNT_TYPES } from '../../protocol/limits.ts';
import type { ChildAccountType } from '../../protocol/limits.ts';
import type { ChildAccountRequest, GatewayClient } from '../client/gateway-client.ts';
import type { Result } from '../client/results.ts';
import { UsageError } from './args.ts';
import type { CliIO, Values } from './args.ts';
import { printResult } from './output.ts';

export async function cmdChild(
  client: GatewayClient,
  args: string[],
  values: Values,
  io: CliIO,
  json: boolean,
): Promise<number> {
  const [sub, target] = args;
  switch (sub) {
    case 'create': {
      const { type, email, 'country-code': cc, mobile } = values;
      if (type === undefined || email === undefined || cc === undefined || mobile === undefined) {
        throw new UsageError(
          `child create needs --type ${CHILD_ACCOUNT_TYPES.join('|')} --email E --country-code CC --mobile N`,
        );
      }
      const req: ChildAccountRequest = {
        type: type as ChildAccountType,
        email,
        telephoneCountryCode: cc,
        mobileNumber: mobile,
      };
      if (values['given-name'] !== undefined) req.givenName = values['given-name'];
      if (values['family-name'] !== undefined) req.familyName = values['family-name'];
      if (values.company !== undefined) req.companyName = values.company;
      const r = await client.createChildAccount(req);
      return printResult(io, json, r, (v) => `created child account ${v.username}\nPIN: ${v.pin}`);
    }
    case 'delete': {
      if (target === undefined) throw new UsageError('child delete needs the child username');
      const r = await client.deleteChildAccount(target);
      return printResult(io, json, r, () => `deleted child account ${target}`);
    }
    case 'transfer': {
      if (target === undefined) throw new UsageError('child transfer needs the target username');
      if ((values.amount === undefined) === (values.messages === undefined)) {
        throw new UsageError('child transfer needs exactly one of --amount 10.00 or --messages N');
      }
      let r: Result<null>;
      if (values.amount !== undefined) r = await client.transferFunds(target, { currency: values.amount });
      else {
        const n = Number(values.messages);
        if (!Number.isInteger(n) || n < 1) throw new UsageError('--messages takes a positive whole number');
        r = await client.transferFunds(target, { messages: n });
      }
      return printResult(io, json, r, () => `transferred to ${target}`);
    }
    default:
      throw new UsageError('child takes create, delete or transfer');
  }
}
