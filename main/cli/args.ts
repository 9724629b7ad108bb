// The command line's vocabulary: usage text, options (node:util parseArgs), exit codes, the I/O a
// command gets and the usage error. Enumerations (delivery options, child account types, AddSMIL)
// come from protocol/limits.ts.
import type { parseArgs, ParseArgsConfig } from 'node:util';
import { ADD_SMIL_VALUES, CHILD_ACCOUNT_TYPES, DELIVERY_OPTIONS } from '../../protocol/limits.ts';
import { MMS_CONTENT_TYPES } from '../client/mms.ts';

/** 0 all accepted; 1 any failed; 2 usage or validation (nothing sent); 3 unknown (may have been sent). */
export const EXIT = { ok: 0, failed: 1, usage: 2, unknown: 3 } as const;

export interface CliIO {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown; isTTY?: boolean };
  /** Asks for the PIN with hidden input; undefined when there is no terminal. */
  promptPin?: (() => Promise<string | undefined>) | undefined;
}

/** A mistake in the command line: reported with a pointer to the usage, exit code 2. */
export class UsageError extends Error {}

export const USAGE = `Usage: messenger <command> [options]

Commands:
  send          send a text (or flash) SMS             --text T [--flash] recipients…
  send-mms      send multimedia / smart content        --type TYPE … recipients…
  credit        available credit (and currency)
  messages      approximate available premier messages
  reply-to      permitted ReplyTo values
  address-book list [NAME[::GROUP]]
                the account's server address books (QueryAddressBook): number, name, group
                (without NAME, the group column is the SendToAddressBook reference: book or book::group)
  inbox         collect inbound messages (SOAP CollectMessages), kept in --data before printed
  version       client software version (SOAP MobileMessengerVersion)
  child create  --type ${CHILD_ACCOUNT_TYPES.join('|')} --email E --country-code CC --mobile N [--given-name --family-name --company]
  child delete  <child-username>
  child transfer <username> (--amount 10.00 | --messages N)

Connection (flags or environment):
  --url URL              primary gateway        MESSENGER_URL
  --secondary-url URL    secondary gateway      MESSENGER_SECONDARY_URL
  --username NAME        account                MESSENGER_USERNAME
  PIN                    only MESSENGER_PIN or the interactive prompt (never a flag)
  --timeout S            connect and response timeouts, seconds (default 30)
  --ca FILE              extra trusted CA certificate (PEM) for HTTPS
  --country CC           default country for national numbers, e.g. GB   MESSENGER_COUNTRY
  --json                 machine-readable output on stdout

Recipients (send, send-mms): --to N[,N…] (repeatable), --to-file FILE (one per line or a CSV column;
  --to-column NAME|INDEX), --address-book NAME[::GROUP]
send options: --text T | --text-file F, --flash, --reply-to R, --delay MINUTES, --at YYYY-MM-DDTHH:MM:SS (UTC),
  --delivery ${DELIVERY_OPTIONS.join('|')}, --deprecated (format one: UN/PIN/M/N)
send-mms: --type ${MMS_CONTENT_TYPES.join('|')}
  --library N | --file F | --hex HEX     content by library number, file (sent hex-encoded) or hex
  --ringtone RTTTL  --vcard-file F  --vcal-file F  --mcc N --mnc N
  --si-href URI --si-id ID --si-created T --si-expires T --si-action A --si-content TEXT --si-info-pcdata P --si-info-class C
  --pdu-dcs HEX --pdu-pid HEX --pdu-udh HEX [--pdu-ud HEX | --text T]
  --phone-make MAKE --phone-model M --subject S --content-type MIME --cc N,… --bcc N,…
  --no-repurposing --no-walled-garden --smil ${ADD_SMIL_VALUES.join('|')}
credit, messages, reply-to: --soap uses the SOAP operation instead of queryaccount.

inbox: --data DIR (MESSENGER_DATA; default $XDG_STATE_HOME/messenger-cli, else ~/.local/state/messenger-cli)
  Each answer is written to DIR/messenger.sqlite (its reply spool, fsynced) before it is parsed, then
  stored there and printed: a run that is killed loses nothing (the next run stores and prints what it
  had received first), and a reply is printed once. Give the app's data folder to see the replies in
  its Inbox. The gateway marks what it answers collected: without the spool a killed run lost it.
  A data folder of a desk in office mode: collects only while no desk holds the account's collector
  lease (then takes it for the run and shares what it stores); MESSENGER_OFFICE=postgres://… and
  MESSENGER_OFFICE_PASSWORD name the office database when the app was given it with --office.

Exit codes: 0 all accepted, 1 any failed, 2 usage/validation (nothing sent), 3 unknown (may have been sent).
`;

export const OPTIONS = {
  url: { type: 'string' },
  'secondary-url': { type: 'string' },
  username: { type: 'string' },
  pin: { type: 'string' },
  timeout: { type: 'string' },
  ca: { type: 'string' },
  country: { type: 'string' },
  data: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  soap: { type: 'boolean' },
  to: { type: 'string', multiple: true },
  'to-file': { type: 'string', multiple: true },
  'to-column': { type: 'string' },
  'address-book': { type: 'string' },
  text: { type: 'string' },
  'text-file': { type: 'string' },
  flash: { type: 'boolean' },
  'reply-to': { type: 'string' },
  delay: { type: 'string' },
  at: { type: 'string' },
  delivery: { type: 'string' },
  deprecated: { type: 'boolean' },
  type: { type: 'string' },
  library: { type: 'string' },
  file: { type: 'string' },
  hex: { type: 'string' },
  ringtone: { type: 'string' },
  'vcard-file': { type: 'string' },
  'vcal-file': { type: 'string' },
  mcc: { type: 'string' },
  mnc: { type: 'string' },
  'si-href': { type: 'string' },
  'si-id': { type: 'string' },
  'si-created': { type: 'string' },
  'si-expires': { type: 'string' },
  'si-action': { type: 'string' },
  'si-content': { type: 'string' },
  'si-info-pcdata': { type: 'string' },
  'si-info-class': { type: 'string' },
  'pdu-dcs': { type: 'string' },
  'pdu-pid': { type: 'string' },
  'pdu-udh': { type: 'string' },
  'pdu-ud': { type: 'string' },
  'phone-make': { type: 'string' },
  'phone-model': { type: 'string' },
  subject: { type: 'string' },
  'content-type': { type: 'string' },
  cc: { type: 'string', multiple: true },
  bcc: { type: 'string', multiple: true },
  'no-repurposing': { type: 'boolean' },
  'no-walled-garden': { type: 'boolean' },
  smil: { type: 'string' },
  email: { type: 'string' },
  'country-code': { type: 'string' },
  mobile: { type: 'string' },
  'given-name': { type: 'string' },
  'family-name': { type: 'string' },
  company: { type: 'string' },
  amount: { type: 'string' },
  messages: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

export type Values = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true }>
>['values'];
