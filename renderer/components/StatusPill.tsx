import type { MessageStatus } from '../../domain/index.ts';

const LABELS: Record<MessageStatus, string> = {
  pending: 'pending',
  sending: 'sending',
  accepted: 'accepted',
  queued: 'queued',
  rejected: 'failed',
  unknown: 'unknown',
  delivered: 'delivered',
  failed: 'failed',
  received: 'received',
};

export function StatusPill({ status }: { status: MessageStatus }) {
  return (
    <span className={`pill ${status}`} data-status={status}>
      {LABELS[status]}
    </span>
  );
}
