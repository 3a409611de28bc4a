-- Operators by name and the two-person rule (issue 25).
--
-- Who did it, in columns auditors can query rather than in the detail text: the operator the admin API
-- authenticated (or, with the shared admin token, the name typed in the call marked "(shared token)"),
-- the caller's address (ip:port as the connection showed it), and under the two-person rule the second
-- operator who approved. The append-only trigger of V14 compares whole rows as jsonb, so these columns
-- are covered by it as they are: none can be changed once written.
alter table audit_log
    add column actor               text,
    add column actor_address       text,
    add column approved_by         text,
    add column approved_by_address text;

create index audit_log_actor on audit_log (actor, at) where actor is not null;

-- Where a pause was set and lifted from (paused_by and lifted_by name who).
alter table operator_pauses
    add column paused_from text,
    add column lifted_from text;

-- Lifting a pause now writes lifted_from too: the same rule as V15, with it among the lift columns.
create or replace function operator_pauses_lift_only() returns trigger language plpgsql as $$
begin
    if tg_op = 'UPDATE' then
        if old.lifted_at is null and new.lifted_at is not null
           and (to_jsonb(new) - 'lifted_at' - 'lifted_by' - 'lift_reason' - 'lifted_from')
               = (to_jsonb(old) - 'lifted_at' - 'lifted_by' - 'lift_reason' - 'lifted_from') then
            return new;
        end if;
    end if;
    raise exception 'operator_pauses keeps every pause: only lifting an active one (lifted_at, lifted_by, lift_reason, lifted_from from null) is allowed, % refused', tg_op
        using errcode = 'insufficient_privilege';
end;
$$;

-- A resolution one operator asked for that a second, different operator must approve before it takes
-- effect (admin.approval.threshold.nano). It lives here so it survives restarts and any instance can
-- approve it. The row keeps what was asked (outcome, transaction, acknowledgement, reason); the chain
-- evidence is checked again when it is approved. A row is decided once: APPROVED (the resolution took
-- effect, audit_id is its OPERATOR_RESOLUTION row), REJECTED (by another operator), CANCELLED (by
-- whoever asked) or EXPIRED (past expires_at, marked when the transfer is asked about again).
create table operator_approvals (
    id             bigint generated always as identity primary key,
    request_id     text        not null,
    transfer_id    text        not null,
    subwallet_id   bigint      not null,
    amount_nano    bigint      not null,
    outcome        text        not null check (outcome in ('SETTLED', 'FAILED')),
    tx_hash        text,
    lt             bigint,
    acknowledged   text,
    reason         text        not null check (reason <> ''),
    requested_by   text        not null check (requested_by <> ''),
    requested_from text,
    requested_at   timestamptz not null,
    expires_at     timestamptz not null check (expires_at > requested_at),
    decision       text check (decision in ('APPROVED', 'REJECTED', 'CANCELLED', 'EXPIRED')),
    decided_by     text,
    decided_from   text,
    decided_at     timestamptz,
    decision_note  text,
    audit_id       bigint,
    check ((decision is null) = (decided_at is null)),
    check ((decision = 'APPROVED') = (audit_id is not null)),
    -- the two-person rule itself, whatever the code does: nobody approves what they asked for
    -- the two-person rule, in the database too; a null decider would make "<>" null, which a check lets pass
    constraint approved_by_another_operator
        check (decision is distinct from 'APPROVED' or (decided_by is not null and decided_by <> requested_by))
);

-- At most one open request per transfer: a second operator approves it rather than asking again.
create unique index operator_approvals_open on operator_approvals (request_id, transfer_id) where decision is null;
create index operator_approvals_requested_at on operator_approvals (requested_at);

-- What was asked and who asked are never rewritten: only the decision columns change, once, from null.
create function operator_approvals_decide_once() returns trigger language plpgsql as $$
begin
    if tg_op = 'UPDATE' then
        if old.decision is null and new.decision is not null
           and (to_jsonb(new) - 'decision' - 'decided_by' - 'decided_from' - 'decided_at' - 'decision_note' - 'audit_id')
               = (to_jsonb(old) - 'decision' - 'decided_by' - 'decided_from' - 'decided_at' - 'decision_note' - 'audit_id') then
            return new;
        end if;
    end if;
    raise exception 'operator_approvals keeps every request: only deciding an open one (decision and decided_* from null) is allowed, % refused', tg_op
        using errcode = 'insufficient_privilege';
end;
$$;

create trigger operator_approvals_no_rewrite before update or delete on operator_approvals
    for each row execute function operator_approvals_decide_once();
