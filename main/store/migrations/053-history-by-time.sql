-- 053: History lists an account's sends by when they were made (created_at), newest first. In office
-- mode another desk's sends, and a joining desk's earlier ones, are stored here as they arrive: by
-- id they sorted above newer sends of this desk (issue 28).
CREATE INDEX outbox_jobs_account_time ON outbox_jobs (account_id, created_at, id);
