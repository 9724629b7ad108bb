// Compose's send options: Reply-To (from the account's permitted list), the delivery service option
// (text only) and the schedule (now, after a delay, at a time shown in UTC as the gateway takes it);
// for rich content, under Advanced, PhoneModel and (WAP push) DisableRepurposing (issue 16).
import type { DeliveryOption } from '../../../domain/index.ts';
import type { ContentKind } from '../../../protocol/content.ts';
import { DELIVERY_OPTIONS, LIMITS } from '../../../protocol/limits.ts';
import { toUtcSendTime } from '../../format.ts';

export interface SendOptions {
  replyTo: string;
  delivery: DeliveryOption;
  schedule: 'now' | 'delay' | 'at';
  /** Minutes, as typed. */
  delay: string;
  /** datetime-local, as typed. */
  at: string;
  /** PhoneModel of a rich send ('' = none), spec 2.4. */
  phoneModel: string;
  /** DisableRepurposing=1 on a WAP push: the file is sent unchanged, not adapted to the handset. */
  disableRepurposing: boolean;
}

export const DEFAULT_OPTIONS: SendOptions = {
  replyTo: '',
  delivery: 'Default',
  schedule: 'now',
  delay: '60',
  at: '',
  phoneModel: '',
  disableRepurposing: false,
};

export function Options({
  options,
  onChange,
  replyTos,
  rich,
  kind,
}: {
  options: SendOptions;
  onChange: (update: (o: SendOptions) => SendOptions) => void;
  replyTos: string[];
  /** Rich content has no delivery service option. */
  rich: boolean;
  /** The content kind (the Advanced options depend on it). */
  kind?: ContentKind;
}) {
  const { replyTo, delivery, schedule, delay, at } = options;
  const set =
    <K extends keyof SendOptions>(k: K) =>
    (v: SendOptions[K]) =>
      onChange((o) => ({ ...o, [k]: v }));
  return (
    <div className="options">
      <label>
        Reply to
        <select value={replyTo} onChange={(e) => set('replyTo')(e.target.value)}>
          <option value="">Account default</option>
          {replyTos.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </label>
      {rich ? null : (
        <label>
          Delivery
          <select value={delivery} onChange={(e) => set('delivery')(e.target.value as DeliveryOption)}>
            {DELIVERY_OPTIONS.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </label>
      )}
      <label>
        Send
        <select value={schedule} onChange={(e) => set('schedule')(e.target.value as SendOptions['schedule'])}>
          <option value="now">Now</option>
          <option value="delay">After a delay</option>
          <option value="at">At a time</option>
        </select>
      </label>
      {schedule === 'delay' ? (
        <label>
          Minutes
          <input
            type="number"
            min={LIMITS.sendTimeDelayMin}
            max={LIMITS.sendTimeDelayMax}
            value={delay}
            onChange={(e) => set('delay')(e.target.value)}
          />
        </label>
      ) : null}
      {schedule === 'at' ? (
        <label>
          Local time
          <input type="datetime-local" step={1} value={at} onChange={(e) => set('at')(e.target.value)} />
          {toUtcSendTime(at) ? <span className="muted small">UTC {toUtcSendTime(at)}</span> : null}
        </label>
      ) : null}
      {rich ? (
        <details className="advanced">
          <summary>Advanced</summary>
          <label>
            Phone model
            <input
              value={options.phoneModel}
              placeholder="e.g. 6230i"
              onChange={(e) => set('phoneModel')(e.target.value)}
            />
          </label>
          {kind === 'wapPush' ? (
            <label className="check">
              <input
                type="checkbox"
                checked={options.disableRepurposing}
                onChange={(e) => set('disableRepurposing')(e.target.checked)}
              />{' '}
              Send the file unchanged (no adaptation to the handset)
            </label>
          ) : null}
        </details>
      ) : null}
    </div>
  );
}
