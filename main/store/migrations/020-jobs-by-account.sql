-- 020 (issue 25): History and campaigns show the signed-in account's sends only: its jobs, newest
-- first, read by account.
CREATE INDEX outbox_jobs_account ON outbox_jobs (account_id, id);
