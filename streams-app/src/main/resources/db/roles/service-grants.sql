-- The rights streams-app's own database user needs, granted by the schema's owner after migrating
-- (`streams-app migrate --grant-to <user>` runs this file; docs/production.md, "Database roles").
-- Rows only, never the schema: no CREATE, no DDL, no DELETE or TRUNCATE anywhere. The audit log only
-- grows: INSERT, and UPDATE of published_at alone (the outbox publisher's mark; the V14 triggers
-- refuse every other change whoever asks). A pause is never removed, only lifted.
-- ${service} is replaced by the quoted user name. Safe to run again.
grant usage on schema public to ${service};
grant select on flyway_schema_history to ${service};
grant select, insert, update on payout_requests, payout_transfers, ton_transactions, partition_owners, settlement_outbox
    to ${service};
grant select, insert on audit_log, operator_pauses to ${service};
grant update (published_at) on audit_log to ${service};
grant update (lifted_at, lifted_by, lift_reason) on operator_pauses to ${service};
-- Operators by name and the two-person rule (V17): where a pause was lifted from; an approval is never
-- removed, only decided once.
grant update (lifted_from) on operator_pauses to ${service};
grant select, insert on operator_approvals to ${service};
grant update (decision, decided_by, decided_from, decided_at, decision_note, audit_id) on operator_approvals
    to ${service};
-- the spend caps (V16): buckets are a ring overwritten in place, holds are kept once passed
grant select, insert, update on spend_buckets, spend_holds to ${service};
-- jetton payouts (V18): a subwallet's jetton wallet per master, resolved once and kept
grant select, insert on jetton_wallets to ${service};
