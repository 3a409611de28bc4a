-- What the ledger holds for Kafka, published by streams-app's outbox publisher (README: Admin API,
-- audit topic). The ledger is written first, in the transaction of the change itself; a publisher
-- then sends the rows and marks them, so a crash between the two repeats a send (consumers
-- deduplicate on the audit id) and never loses one.
--
-- Each row is marked on its own rather than with a "last published id" watermark: identity ids are
-- handed out when a transaction inserts, not when it commits, so a row with a lower id can become
-- visible after a higher one was already published, and a watermark would skip it for ever.

-- Every audit_log row goes to payout.audit. Rows recorded before this migration are published too.
alter table audit_log add column published_at timestamptz;
create index audit_log_unpublished on audit_log (id) where published_at is null;

-- Settlements that are not the topology's own: the second settlement of a RECONCILIATION_REQUIRED
-- transfer that an operator resolved. Written in the resolution's transaction, published to
-- payout.settlements. (No foreign key to audit_log: tests and tools truncate that table.)
create table settlement_outbox (
    id           bigint generated always as identity primary key,
    request_id   text        not null,
    transfer_id  text        not null,
    subwallet_id bigint      not null check (subwallet_id between 0 and 4294967295),
    -- the audit_log row of the decision; also the resolution.auditId of the settlement
    audit_id     bigint      not null unique,
    -- the Settlement as JSON, exactly what is published
    payload      text        not null,
    created_at   timestamptz not null,
    published_at timestamptz
);

create index settlement_outbox_unpublished on settlement_outbox (id) where published_at is null;
create index settlement_outbox_request on settlement_outbox (request_id, transfer_id);
