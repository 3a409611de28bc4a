-- Rolling spend caps (issue 25): what one subwallet, and the whole deployment, may sign away within
-- configured windows (spend.cap.wallet, spend.cap.deployment). A transfer counts once, for its amount,
-- when its first message is recorded (IntentRecorder, in the same transaction), whatever its outcome
-- later: the cap bounds what was authorised, and the sums only ever grow until time slides them out.
--
-- spend_buckets: the spend per scope and window, in buckets of a sixtieth of the window, kept as a
-- ring of 61 slots per (scope, window) so that a window sums at most 61 rows and the table never
-- grows (and the service never needs DELETE): writing bucket k takes over slot k mod 61, which held
-- bucket k - 61, already out of the window. The bucket holding the window's start counts whole, so
-- a spend leaves a window between window and window * 61/60 after it was recorded: the cap errs on
-- the side of holding. subwallet_id -1 is the deployment's total.
create table spend_buckets (
    subwallet_id   bigint         not null check (subwallet_id between -1 and 4294967295),
    window_seconds bigint         not null check (window_seconds > 0 and window_seconds % 60 = 0),
    slot           integer        not null check (slot between 0 and 60),
    bucket_start   timestamptz    not null,
    amount_nano    numeric(40, 0) not null check (amount_nano > 0),
    primary key (subwallet_id, window_seconds, slot)
);

-- spend_holds: one row per transfer a cap held back, which is what operators see (GET /admin/holds,
-- the wallet view) and what makes the SPEND_CAP_HELD audit event happen once, not at every retry.
-- A hold waits (passed_at null) until the window has room or an operator releases it; a released
-- hold lets its transfer past the caps once (it still counts toward the spend). passed_at is set in
-- the transaction that records the transfer's first message. The numbers are the latest check's.
create table spend_holds (
    request_id     text           not null,
    transfer_id    text           not null,
    subwallet_id   bigint         not null check (subwallet_id between 0 and 4294967295),
    wallet_address text           not null,
    amount_nano    bigint         not null check (amount_nano > 0),
    cap_scope      text           not null check (cap_scope in ('WALLET', 'DEPLOYMENT')),
    window_seconds bigint         not null,
    cap_nano       bigint         not null,
    spent_nano     numeric(40, 0) not null,
    -- when the window will have room for it as last computed; null: its amount alone is over the cap,
    -- only an operator can let it go
    frees_at       timestamptz,
    held_at        timestamptz    not null,
    checked_at     timestamptz    not null,
    released_at    timestamptz,
    released_by    text,
    release_reason text,
    passed_at      timestamptz,
    primary key (request_id, transfer_id),
    foreign key (request_id, transfer_id) references payout_transfers (request_id, transfer_id),
    check ((released_at is null) = (released_by is null) and (released_at is null) = (release_reason is null))
);

create index spend_holds_waiting on spend_holds (held_at) where passed_at is null;
create index spend_holds_subwallet on spend_holds (subwallet_id, held_at);
