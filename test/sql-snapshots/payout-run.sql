simple: select set_config('app.org_id', 'org_<id>', true); select "id" from (select "id", row_number() over (order by id) as "position" from "creators" where "org_id" = 'org_<id>') as "numbered" where position % '500' = 0 order by "id"

query: select "id", "payout_currency", "minimum_payout_micros", "opening_balance_micros" from "creators" where "org_id" = $1 and "id" > $2 order by "id" limit $3 for update

query: 
      with p (creator_id, currency) as (select * from unnest($1::text[], $2::text[])),
      unpaid as (
        select a.creator_id, sum(a.amount_micros) as earnings, count(*) as entries,
               min(r.period_start collate "C") as period_start, max(r.period_end collate "C") as period_end
        
    from p
    join revenue_allocations a on a.org_id = $3 and a.creator_id = p.creator_id and a.currency = p.currency
    join revenue_entries r on r.org_id = a.org_id and r.id = a.revenue_id
    
    left join lateral (
      select true as held from payout_items i
      where i.org_id = a.org_id and i.revenue_id = a.revenue_id and i.creator_id = a.creator_id and i.released_at is null
      limit 1
    ) h on true
    where h.held is null 
        group by a.creator_id
      )
      select p.creator_id, u.earnings::text as earnings, coalesce(u.entries, 0)::int as entries, u.period_start, u.period_end,
             (select sum(q.earnings_micros - q.amount_micros) from payouts q
              where q.org_id = $4 and q.creator_id = p.creator_id and q.currency = p.currency and q.status in ('pending', 'in_transit', 'paid'))::text as carried
      from p left join unpaid u on u.creator_id = p.creator_id

query: insert into "payouts" ("org_id", "id", "creator_id", "currency", "amount_micros", "status", "method", "opening_balance_micros", "earnings_micros", "recouped_micros", "carried_forward_micros", "entries", "period_start", "period_end", "failure_code", "failure_message", "created_at", "created_by", "status_changed_at", "paid_at", "batch_id") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21), ($22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $34, $35, $36, $37, $38, $39, $40, $41, $42)

query: 
    with p (creator_id, currency, payout_id) as (
      select * from unnest($1::text[], $2::text[], $3::text[])
    ),
    unpaid as materialized (
      select p.payout_id, a.revenue_id, a.creator_id, a.amount_micros
      from p
      join revenue_allocations a on a.org_id = $4 and a.creator_id = p.creator_id and a.currency = p.currency
      
      
    left join lateral (
      select true as held from payout_items i
      where i.org_id = a.org_id and i.revenue_id = a.revenue_id and i.creator_id = a.creator_id and i.released_at is null
      limit 1
    ) h on true
      where h.held is null
    ),
    linked as (
      insert into payout_items (org_id, payout_id, revenue_id, creator_id, released_at)
      select $5, payout_id, revenue_id, creator_id, null from unpaid
    )
    select payout_id, count(*)::int as entries, sum(amount_micros)::text as earnings
    from unpaid group by payout_id

simple: select id, sequence, hash, created_at from append_org_events(
    'org_<id>', '{"evt_<id>"}'::text[], '{"payouts.run"}'::text[], '{"usr_<id>"}'::text[],
    '{"payout_batch"}'::text[], '{"bat_<id>"}'::text[],
    string_to_array('{"action":"payouts.run","createdAt":"␁C","data":␁D,"id":"evt_<id>","orgId":"org_<id>","previousHash":"␁P","resource":{"id":"bat_<id>","type":"payout_batch"},"sequence":␁S,"userId":"usr_<id>"}'::text, chr(2)), string_to_array('{"batchId":"bat_<id>","lineCount":2,"root":"<sha256>","totals":[{"amount":"27.50","currency":"EUR"}]}'::text, chr(2)),
    '<time>'::timestamptz, '<time>'::timestamptz); commit
