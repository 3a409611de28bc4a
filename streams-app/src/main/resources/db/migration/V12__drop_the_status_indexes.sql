-- The (status, updated_at) indexes of both hot tables go. No statement of the service reads through
-- them, yet every status change of a message or a transfer (three per transfer in each table) wrote
-- an entry into each, and while the statistics lagged a burst of new rows the planner picked them
-- for the keyed statements of every transfer, reading all rows of a status to find a few by key
-- (pg_stat_user_indexes after a 21,000-transfer benchmark: 2,262 scans reading 4.2 million entries
-- in ton_transactions_status, 2,607 reading 2.4 million in payout_transfers_status). Without them,
-- alternate runs of `./payouts bench --wallets 1000` used 0.49-0.51 ms of PostgreSQL's CPU per
-- transfer instead of 0.54.
drop index ton_transactions_status;
drop index payout_transfers_status;

-- The one reader by status and age: the admin API lists the transfers waiting for an operator,
-- oldest first. Only those rows are in this index, so a transfer's own updates never touch it.
create index payout_transfers_reconciliation on payout_transfers (updated_at, request_id, transfer_index)
    where status = 'RECONCILIATION_REQUIRED';
