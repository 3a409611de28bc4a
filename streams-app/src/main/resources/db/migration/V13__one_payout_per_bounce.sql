-- A bounce is credited to one payout only. The chain poller once credited one bounce to two payouts
-- to the same address (the second payout's own bounce, delayed past it, was then never recorded),
-- and nothing here refused it. Should such a pair be in the ledger, the earliest credit stays (bounces
-- between one sender and one receiver come back in the order the payouts were made) and each later
-- one is cleared, with an ERROR audit event that keeps what it said: an operator checks that payout.
with credits as (
    select request_id, transfer_id, subwallet_id, wallet_address, seqno, message_hash, bounce_tx_hash,
           returned_nano, bounced_at,
           row_number() over (partition by bounce_tx_hash order by bounced_at, created_at, request_id, transfer_id) as nth
    from payout_transfers
    where bounce_tx_hash is not null
), cleared as (
    update payout_transfers t set bounce_tx_hash = null, returned_nano = null, bounced_at = null, updated_at = now()
    from credits c
    where c.nth > 1 and t.request_id = c.request_id and t.transfer_id = c.transfer_id
    returning c.*
)
insert into audit_log (at, level, event, subwallet_id, wallet_address, request_id, transfer_id, seqno, message_hash,
                       tx_hash, detail)
select now(), 'ERROR', 'LEDGER_CONFLICT', subwallet_id, wallet_address, request_id, transfer_id, seqno, message_hash,
       bounce_tx_hash,
       'migration V13: bounce ' || bounce_tx_hash || ' was credited to this payout (returned ' || returned_nano
           || ' nanotons, recorded ' || bounced_at || ') and to an earlier payout to the same address; a bounce'
           || ' returns one payout, so this credit is cleared: check on chain whether this payout bounced'
from cleared;

create unique index payout_transfers_bounce_tx on payout_transfers (bounce_tx_hash) where bounce_tx_hash is not null;
