-- Issue 25: why a batch's outcome is unknown, as a cause the app words by (renderer/send-outcome.ts)
-- beside the reason in the system's words: 'app-stopped', 'connection-lost', 'timed-out',
-- 'answer-unreadable', 'no-result', 'not-stored', 'failed' (domain/outbox.ts UnknownCause).
ALTER TABLE outbox_batches ADD COLUMN unknown_cause TEXT;
-- Batches made unknown before this column: their cause read from the reason the app wrote then.
UPDATE outbox_batches SET unknown_cause = CASE
    WHEN reason LIKE 'interrupted: the app stopped%' THEN 'app-stopped'
    WHEN reason LIKE 'connection to % failed after the request may have been sent%' THEN 'connection-lost'
    WHEN reason LIKE 'the response from % was cut off%' THEN 'connection-lost'
    WHEN reason LIKE 'answered, but the answer could not be stored%' THEN 'not-stored'
    WHEN reason LIKE 'the gateway answered HTTP %' THEN 'answer-unreadable'
    ELSE 'failed'
  END
  WHERE state = 'unknown';

-- Issue 25 (the same release): a collected answer's HTTP charset (issue 24), kept with its spool entry,
-- so that an answer whose encoding only the Content-Type gave is read right from the spool.
ALTER TABLE reply_spool ADD COLUMN charset TEXT;
