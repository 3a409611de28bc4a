-- The ledger: the write-ahead record of every message streams-app signs (DESIGN.md, "The safe-retry
-- rule"). A row is committed BEFORE its BOC is sent and updated on every outcome; the constraints
-- below are what keeps "no double payout" true across crashes, replays and concurrent instances.

create table ton_transactions (
    id              bigint generated always as identity primary key,
    request_id      text        not null,
    transfer_id     text        not null,
    transfer_index  integer     not null check (transfer_index >= 0),
    -- 1 for the first message of a transfer; a new attempt only after the previous one EXPIRED.
    attempt         integer     not null check (attempt >= 1),
    subwallet_id    bigint      not null check (subwallet_id between 0 and 4294967295),
    -- raw form (workchain:64 lowercase hex), so two spellings of one wallet can never both hold a seqno
    wallet_address  text        not null check (wallet_address ~ '^-?[0-9]+:[0-9a-f]{64}$'),
    destination     text        not null,
    amount_nano     bigint      not null check (amount_nano > 0),
    seqno           bigint      not null check (seqno between 0 and 4294967295),
    message_hash    text        not null check (message_hash ~ '^[0-9a-f]{64}$'),
    normalized_hash text                 check (normalized_hash ~ '^[0-9a-f]{64}$'),
    -- the signed external message, base64: re-sending these exact bytes is always safe
    boc             text        not null,
    valid_until     timestamptz not null,
    status          text        not null check (status in
                        ('SIGNED', 'SENT', 'CONFIRMED', 'FAILED', 'EXPIRED', 'RECONCILIATION_REQUIRED')),
    -- the wallet transaction that applied the message
    tx_hash         text                 check (tx_hash ~ '^[0-9a-f]{64}$'),
    lt              bigint               check (lt >= 0),
    utime           bigint               check (utime >= 0),
    fee_nano        bigint               check (fee_nano >= 0),
    last_error      text,
    error_count     integer     not null default 0,
    send_count      integer     not null default 0,
    created_at      timestamptz not null,
    updated_at      timestamptz not null,
    sent_at         timestamptz,
    settled_at      timestamptz,
    constraint ton_transactions_message_hash_key unique (message_hash),
    -- "Ledger = chain": a confirmed row names the transaction that applied it.
    constraint ton_transactions_confirmed_has_tx
        check (status <> 'CONFIRMED' or (tx_hash is not null and lt is not null))
);

-- One live attempt per transfer. An EXPIRED message provably never applied, so it steps aside for
-- the next attempt; every other status (SIGNED, SENT, CONFIRMED, FAILED, RECONCILIATION_REQUIRED)
-- holds the transfer.
create unique index ton_transactions_live_transfer
    on ton_transactions (request_id, transfer_id) where status <> 'EXPIRED';

-- One message per (wallet, seqno): the wallet applies at most one message per seqno anyway, and this
-- makes two of our messages competing for it impossible. The next attempt after an expiry usually
-- reuses the seqno (the wallet did not move), hence EXPIRED rows are again excluded. This index also
-- means no two CONFIRMED rows can share a (wallet, seqno).
create unique index ton_transactions_live_wallet_seqno
    on ton_transactions (wallet_address, seqno) where status <> 'EXPIRED';

-- Recovery and the poller's watch list: messages still waiting for the chain.
create index ton_transactions_unsettled
    on ton_transactions (wallet_address, seqno) where status in ('SIGNED', 'SENT');

create index ton_transactions_status on ton_transactions (status, updated_at);

-- History of a wallet including expired attempts (audits, "what happened to seqno N").
create index ton_transactions_wallet_seqno on ton_transactions (wallet_address, seqno);

create index ton_transactions_normalized_hash
    on ton_transactions (normalized_hash) where normalized_hash is not null;

create index ton_transactions_tx_hash on ton_transactions (tx_hash) where tx_hash is not null;

-- Status moves only forward. The Ledger class guards every update with "where status in (...)";
-- this trigger holds the same line for anything else that writes here (scripts, hand-written SQL).
-- EXPIRED is final above all: a new attempt may already have been signed on the strength of it.
-- RECONCILIATION_REQUIRED may still be resolved (to CONFIRMED or FAILED) by an operator.
create function ton_transactions_check_transition() returns trigger
    language plpgsql as $$
begin
    if new.status = old.status then
        return new;
    end if;
    if (old.status = 'SIGNED' and new.status in ('SENT', 'CONFIRMED', 'FAILED', 'EXPIRED', 'RECONCILIATION_REQUIRED'))
        or (old.status = 'SENT' and new.status in ('CONFIRMED', 'FAILED', 'EXPIRED', 'RECONCILIATION_REQUIRED'))
        or (old.status = 'RECONCILIATION_REQUIRED' and new.status in ('CONFIRMED', 'FAILED')) then
        return new;
    end if;
    raise exception 'ton_transactions: illegal status change % -> % for message %',
        old.status, new.status, old.message_hash
        using errcode = 'check_violation';
end;
$$;

create trigger ton_transactions_status_transition
    before update of status on ton_transactions
    for each row execute function ton_transactions_check_transition();

-- Seqno surprises: the wallet's seqno was ahead of what our own history explains, so something
-- else signed with our key (another deployment, a leaked key, an operator's manual send).
create table wallet_audit (
    id             bigint generated always as identity primary key,
    subwallet_id   bigint      not null,
    wallet_address text        not null,
    expected_seqno bigint,
    observed_seqno bigint,
    detail         text,
    at             timestamptz not null
);

create index wallet_audit_wallet_at on wallet_audit (wallet_address, at);
