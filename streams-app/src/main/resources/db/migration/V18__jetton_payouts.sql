-- Jetton payouts (issue 26). A jetton transfer is one more kind of transfer with the same safety
-- core: its message goes to the subwallet's own jetton wallet with TON attached (amount_nano), and
-- its TEP-74 query_id is recorded with the transfer when its first intent is recorded, before
-- anything is sent; every attempt carries the same one.
alter table payout_transfers
    add column jetton_master   text,
    add column jetton_amount   numeric(40, 0) check (jetton_amount > 0),
    add column jetton_query_id bigint         check (jetton_query_id >= 0),
    -- the jetton wallets' transactions of the verdict that decided it (the chain poller's JettonDelivery)
    add column jetton_delivery jsonb,
    add constraint payout_transfers_jetton_whole check (
        (jetton_master is null and jetton_amount is null and jetton_query_id is null and jetton_delivery is null)
        or (jetton_master is not null and jetton_amount is not null and jetton_query_id is not null));

-- A subwallet's jetton wallet per jetton master, resolved once with the master's get_wallet_address
-- and kept: it is where every jetton transfer of that subwallet is sent, and what the poller follows.
create table jetton_wallets (
    wallet_address text        not null check (wallet_address ~ '^-?[0-9]+:[0-9a-f]{64}$'),
    master         text        not null check (master ~ '^-?[0-9]+:[0-9a-f]{64}$'),
    jetton_wallet  text        not null check (jetton_wallet ~ '^-?[0-9]+:[0-9a-f]{64}$'),
    resolved_at    timestamptz not null,
    primary key (wallet_address, master)
);
