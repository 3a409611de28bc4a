-- One seqno per transfer, requests unique across the deployment, an audit log (DESIGN.md, "The
-- safe-retry rule"). After this migration the database itself refuses what would let a transfer
-- land twice: a message signed with any seqno but the one its transfer is bound to, an attempt
-- beyond the transfer's last, a requestId reused with other content, two confirmed rows for one
-- transaction.

-- Every request the ledger has seen, by its producer's id, unique across all wallets.
create table payout_requests (
    request_id     text        primary key,
    subwallet_id   bigint      not null check (subwallet_id between 0 and 4294967295),
    -- SHA-256 (hex) of what the request pays: wallet, and per transfer its id, kind, destination,
    -- amount, comment and bounce flag. The same id with another fingerprint is a conflict.
    -- Null only for requests recorded before this migration.
    fingerprint    text                 check (fingerprint ~ '^[0-9a-f]{64}$'),
    -- the request as first recorded, to name the fields a conflicting reuse differs in
    content        jsonb,
    -- where the request was read from (topic-partition@offset): a later copy of the same request
    -- (a duplicate beyond the dedup memory) is told apart from a replay of this one after a crash
    origin         text,
    transfer_count integer     not null check (transfer_count between 1 and 4),
    created_at     timestamptz not null
);

-- One row per requested transfer: its binding to a seqno and its one terminal status.
create table payout_transfers (
    request_id     text        not null references payout_requests (request_id),
    transfer_id    text        not null,
    transfer_index integer     not null check (transfer_index between 0 and 3),
    kind           text        not null,
    subwallet_id   bigint      not null check (subwallet_id between 0 and 4294967295),
    wallet_address text        not null check (wallet_address ~ '^-?[0-9]+:[0-9a-f]{64}$'),
    destination    text        not null,
    amount_nano    bigint      not null check (amount_nano > 0),
    -- the request's createdAt, copied onto every settlement of the transfer
    requested_at   timestamptz,
    -- Bound by the transfer's first signed message and never changed: every attempt carries it,
    -- so the wallet lets at most one of them apply, whatever any verdict said.
    seqno          bigint               check (seqno between 0 and 4294967295),
    attempts       integer     not null default 0 check (attempts >= 0),
    status         text        not null check (status in
                        ('OPEN', 'SETTLED', 'FAILED', 'ABORTED', 'RECONCILIATION_REQUIRED')),
    reason         text,
    -- the message that applied and its transaction (SETTLED, or FAILED by the chain)
    message_hash   text                 check (message_hash ~ '^[0-9a-f]{64}$'),
    tx_hash        text                 check (tx_hash ~ '^[0-9a-f]{64}$'),
    -- a SETTLED payout that came back (bounceable, destination could not take it)
    bounce_tx_hash text                 check (bounce_tx_hash ~ '^[0-9a-f]{64}$'),
    returned_nano  bigint               check (returned_nano >= 0),
    bounced_at     timestamptz,
    created_at     timestamptz not null,
    updated_at     timestamptz not null,
    settled_at     timestamptz,
    primary key (request_id, transfer_id),
    constraint payout_transfers_index_key unique (request_id, transfer_index),
    constraint payout_transfers_settled_has_tx check (status <> 'SETTLED' or tx_hash is not null)
);

-- A wallet's seqno belongs to one transfer. The only transfers that let go of theirs are FAILED
-- ones without a transaction: every message they signed provably never applied (or none was signed).
create unique index payout_transfers_wallet_seqno
    on payout_transfers (wallet_address, seqno)
    where seqno is not null and (status <> 'FAILED' or tx_hash is not null);

create index payout_transfers_open on payout_transfers (wallet_address) where status = 'OPEN';
create index payout_transfers_status on payout_transfers (status, updated_at);

-- The binding and the status move one way only, whoever writes (the Ledger classes guard every
-- update in SQL as well).
create function payout_transfers_check_update() returns trigger
    language plpgsql as $$
begin
    if old.seqno is not null and new.seqno is distinct from old.seqno then
        raise exception 'payout_transfers: transfer %/% is bound to seqno %, cannot rebind it to %',
            old.request_id, old.transfer_id, old.seqno, new.seqno
            using errcode = 'check_violation';
    end if;
    if new.status <> old.status
        and not (old.status = 'OPEN')
        and not (old.status = 'RECONCILIATION_REQUIRED' and new.status in ('SETTLED', 'FAILED')) then
        raise exception 'payout_transfers: illegal status change % -> % for transfer %/%',
            old.status, new.status, old.request_id, old.transfer_id
            using errcode = 'check_violation';
    end if;
    return new;
end;
$$;

create trigger payout_transfers_update_guard
    before update on payout_transfers
    for each row execute function payout_transfers_check_update();

-- Requests and transfers of messages recorded before this migration.
insert into payout_requests (request_id, subwallet_id, fingerprint, content, transfer_count, created_at)
select request_id, min(subwallet_id), null, null, greatest(1, least(4, max(transfer_index) + 1)), min(created_at)
from ton_transactions group by request_id;

insert into payout_transfers (request_id, transfer_id, transfer_index, kind, subwallet_id, wallet_address,
                              destination, amount_nano, seqno, attempts, status, reason, message_hash, tx_hash,
                              created_at, updated_at, settled_at)
select distinct on (request_id, transfer_id)
       request_id, transfer_id, transfer_index, 'OTHER', subwallet_id, wallet_address, destination, amount_nano,
       seqno, attempt,
       case status when 'CONFIRMED' then 'SETTLED' when 'FAILED' then 'FAILED'
                   when 'RECONCILIATION_REQUIRED' then 'RECONCILIATION_REQUIRED' else 'OPEN' end,
       last_error,
       case when status in ('CONFIRMED', 'FAILED') then message_hash end,
       case when status in ('CONFIRMED', 'FAILED') then tx_hash end,
       created_at, updated_at, settled_at
from ton_transactions
order by request_id, transfer_id, attempt desc, id desc;

-- Messages belong to a recorded transfer and carry its seqno.
alter table ton_transactions
    add constraint ton_transactions_transfer_fkey
    foreign key (request_id, transfer_id) references payout_transfers (request_id, transfer_id);

-- The API node's own time (sync_utime) that proved an EXPIRED message can never apply.
alter table ton_transactions add column evidence_utime bigint check (evidence_utime >= 0);

create function ton_transactions_check_seqno() returns trigger
    language plpgsql as $$
declare
    bound bigint;
begin
    select seqno into bound from payout_transfers
     where request_id = new.request_id and transfer_id = new.transfer_id;
    if bound is null or bound <> new.seqno then
        raise exception 'ton_transactions: message % for transfer %/% has seqno %, the transfer is bound to %',
            new.message_hash, new.request_id, new.transfer_id, new.seqno, coalesce(bound::text, 'no seqno')
            using errcode = 'check_violation';
    end if;
    return new;
end;
$$;

create trigger ton_transactions_bound_seqno
    before insert on ton_transactions
    for each row execute function ton_transactions_check_seqno();

-- "Ledger = chain": one transaction confirms one message.
create unique index ton_transactions_confirmed_tx on ton_transactions (tx_hash) where status = 'CONFIRMED';

-- EXPIRED may now be overturned by the chain (to CONFIRMED or FAILED): every message of a transfer
-- carries the transfer's one seqno, so whichever of them applied, the transfer was paid once.
create or replace function ton_transactions_check_transition() returns trigger
    language plpgsql as $$
begin
    if new.status = old.status then
        return new;
    end if;
    if (old.status = 'SIGNED' and new.status in ('SENT', 'CONFIRMED', 'FAILED', 'EXPIRED', 'RECONCILIATION_REQUIRED'))
        or (old.status = 'SENT' and new.status in ('CONFIRMED', 'FAILED', 'EXPIRED', 'RECONCILIATION_REQUIRED'))
        or (old.status = 'EXPIRED' and new.status in ('CONFIRMED', 'FAILED'))
        or (old.status = 'RECONCILIATION_REQUIRED' and new.status in ('CONFIRMED', 'FAILED')) then
        return new;
    end if;
    raise exception 'ton_transactions: illegal status change % -> % for message %',
        old.status, new.status, old.message_hash
        using errcode = 'check_violation';
end;
$$;

-- Unusual events for operators and auditors: seqno mismatches (another signer), reconciliation,
-- bounces, overturned expiries, conflicting request ids, transfers given up.
create table audit_log (
    id             bigint generated always as identity primary key,
    at             timestamptz not null,
    level          text        not null check (level in ('INFO', 'WARNING', 'ERROR')),
    event          text        not null,
    subwallet_id   bigint,
    wallet_address text,
    request_id     text,
    transfer_id    text,
    seqno          bigint,
    message_hash   text,
    tx_hash        text,
    detail         text        not null
);

create index audit_log_at on audit_log (at);
create index audit_log_wallet_at on audit_log (wallet_address, at);
create index audit_log_request on audit_log (request_id) where request_id is not null;

insert into audit_log (at, level, event, subwallet_id, wallet_address, seqno, detail)
select at, 'ERROR', 'SEQNO_MISMATCH', subwallet_id, wallet_address, observed_seqno,
       'expected seqno ' || coalesce(expected_seqno::text, '?') || ', observed ' || coalesce(observed_seqno::text, '?')
           || coalesce(': ' || detail, '')
from wallet_audit;

drop table wallet_audit;
