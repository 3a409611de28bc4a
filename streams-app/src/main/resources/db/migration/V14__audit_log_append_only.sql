-- The audit log is append-only, whoever writes (issue 25): a stolen service credential, a slip in a
-- console or a bug cannot rewrite or remove what operators and auditors rely on. The one change the
-- service makes to a row is the outbox publisher's mark (published_at from null to a time, V10);
-- every other UPDATE, every DELETE and TRUNCATE are refused by the database itself.
--
-- Tests and maintenance that must empty the table run as a superuser with
-- session_replication_role = replica (which disables these triggers); the service's own user is no
-- superuser and cannot (docs/production.md, "Database roles").

create function audit_log_refuse_rewrite() returns trigger language plpgsql as $$
begin
    if tg_op = 'UPDATE' then
        if old.published_at is null and new.published_at is not null
           and (to_jsonb(new) - 'published_at') = (to_jsonb(old) - 'published_at') then
            return new;
        end if;
        raise exception 'audit_log is append-only: row % may only be marked published once (published_at from null to a time); no other change is allowed', old.id
            using errcode = 'insufficient_privilege';
    end if;
    raise exception 'audit_log is append-only: % of audit rows is refused', tg_op
        using errcode = 'insufficient_privilege';
end;
$$;

create trigger audit_log_no_update before update on audit_log
    for each row execute function audit_log_refuse_rewrite();
create trigger audit_log_no_delete before delete on audit_log
    for each row execute function audit_log_refuse_rewrite();
create trigger audit_log_no_truncate before truncate on audit_log
    for each statement execute function audit_log_refuse_rewrite();
