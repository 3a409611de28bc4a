-- The pause switch (issue 25): an operator stops signing for the whole deployment or one subwallet
-- while an incident is investigated. It lives here, not in any process's memory, so it holds across
-- restarts, rebalances and every instance. While a pause covers a wallet the ledger records no new
-- intent for it (IntentRecorder: nothing new is signed or sent); messages already recorded are still
-- sent again, watched and settled, and requests keep queueing in Kafka.
--
-- A row is one pause: subwallet_id null pauses the deployment. Lifting it writes lifted_* and keeps
-- the row, so the table is the history of every pause; at most one pause per scope is active.
create table operator_pauses (
    id           bigint generated always as identity primary key,
    subwallet_id bigint check (subwallet_id between 0 and 4294967295),
    paused_at    timestamptz not null,
    paused_by    text        not null check (paused_by <> ''),
    reason       text        not null check (reason <> ''),
    lifted_at    timestamptz,
    lifted_by    text,
    lift_reason  text,
    check ((lifted_at is null) = (lifted_by is null) and (lifted_at is null) = (lift_reason is null))
);

create unique index operator_pauses_active on operator_pauses (coalesce(subwallet_id, -1)) where lifted_at is null;

-- A pause is never undone by rewriting it: only the lift columns may change, once, from null.
create function operator_pauses_lift_only() returns trigger language plpgsql as $$
begin
    if tg_op = 'UPDATE' then
        if old.lifted_at is null and new.lifted_at is not null
           and (to_jsonb(new) - 'lifted_at' - 'lifted_by' - 'lift_reason')
               = (to_jsonb(old) - 'lifted_at' - 'lifted_by' - 'lift_reason') then
            return new;
        end if;
    end if;
    raise exception 'operator_pauses keeps every pause: only lifting an active one (lifted_at, lifted_by, lift_reason from null) is allowed, % refused', tg_op
        using errcode = 'insufficient_privilege';
end;
$$;

create trigger operator_pauses_no_rewrite before update or delete on operator_pauses
    for each row execute function operator_pauses_lift_only();
