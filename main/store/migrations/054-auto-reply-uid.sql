-- Issue 28: a keyword auto-reply rule's identity in office mode (main/office/share-library-local.ts).
-- The office database named a rule by its keyword, so a rule whose keyword changed was, to the other
-- desks, one rule deleted (its per-day log with it) and another added. A rule now has a uid of its
-- own, given when it is made (AutoRepliesRepo.create) or by the office database (a rule made at
-- another desk), kept when its keyword changes. The rules a desk already holds keep the name the
-- office database gave them until now (the keyword, in upper case: the first rule of each keyword of
-- an account), so a rule already shared stays the same record there; any other gets a random one.
ALTER TABLE auto_reply_rules ADD COLUMN uid TEXT;
UPDATE auto_reply_rules SET uid = upper(trim(keyword))
 WHERE id = (SELECT min(r.id) FROM auto_reply_rules r
              WHERE r.account_id = auto_reply_rules.account_id
                AND upper(trim(r.keyword)) = upper(trim(auto_reply_rules.keyword)));
UPDATE auto_reply_rules SET uid = lower(hex(randomblob(16))) WHERE uid IS NULL;
CREATE UNIQUE INDEX auto_reply_rules_uid ON auto_reply_rules (account_id, uid);
