-- Fencing (DESIGN.md, the safe-retry rule; a lease with a fencing token). Kafka's exactly-once
-- fences a zombie's Kafka writes at its next commit, but a zombie's sendBoc would happen before
-- that commit. So the stream task that owns a partition of payout.requests takes an epoch here
-- when it is assigned (incrementing it), and every intent write checks, in the same transaction,
-- that its task still holds the partition's current epoch: a zombie records nothing, so it sends
-- nothing. (Re-sending a BOC already in the ledger stays allowed: the same message applies once.)
create table partition_owners (
    application_id text        not null,
    partition      integer     not null check (partition >= 0),
    epoch          bigint      not null check (epoch >= 1),
    owner          text        not null,
    taken_at       timestamptz not null,
    primary key (application_id, partition)
);
