-- A transfer's messages by (request_id, transfer_id): every issuing round reads the histories of its
-- transfers, and verdicts close a transfer's other messages. The only index on these columns was
-- partial (ton_transactions_live_transfer, no EXPIRED rows), so these reads scanned the whole table:
-- O(ledger size) per round, measured as most of PostgreSQL's CPU in a 25,000-row benchmark.
create index ton_transactions_transfer on ton_transactions (request_id, transfer_id, attempt);

-- Both tables work like queues: each transfer inserts a row and then updates it two to four times
-- (SIGNED, SENT, CONFIRMED; OPEN, bound, SETTLED), and the status columns are indexed, so every update
-- leaves a dead entry in the status and partial indexes that only a vacuum removes. With the default
-- (vacuum once a fifth of the table changed) a large ledger piles up millions of them, and the
-- "messages still live" scans read every one. Vacuum and analyze after a fixed number of changes
-- instead, whatever the table's size.
alter table ton_transactions set (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 2000,
    autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 2000);
alter table payout_transfers set (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 2000,
    autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 2000);
