simple: select set_config('app.org_id', 'org_<id>', true); 
    select l.n from unnest('{"Snapshot DSP","Snapshot DSP","Snapshot DSP"}'::text[], '{"SNAP-IMPORT","SNAP-IMPORT","SNAP-IMPORT"}'::text[], '{"1","2","3"}'::text[]) with ordinality as l(source, statement_ref, line_ref, n)
    cross join lateral (
      select 1 from revenue_entries r
      where r.org_id = 'org_<id>' and r.source = l.source and r.statement_ref = l.statement_ref and r.line_ref = l.line_ref
        and r.statement_ref is not null and r.line_ref is not null
      limit 1) as recorded

simple: begin; select set_config('app.org_id', 'org_<id>', true); 
    select u.isrc, entry.id from unnest('{"USRC17607839"}'::text[]) as u(isrc)
    cross join lateral (
      select id from catalog_entries c
      where c.org_id = 'org_<id>' and c.isrc = u.isrc and c.isrc is not null and c.superseded_by is null
      limit 1) as entry

query: 
    select catalog_id, creator_id, share_bps from catalog_splits
    where org_id = $1 and catalog_id = any($2::text[])
    order by catalog_id, creator_id, position

query: 
    with entry as (
      insert into revenue_entries (org_id, id, catalog_id, source, type, period_start, period_end, territory, units, amount_micros, currency, statement_ref, line_ref, batch_id, created_at, created_by)
      select $1::text, l.id, l.catalog_id, l.source, l.type, l.period_start, l.period_end, l.territory, l.units, l.amount_micros, l.currency,
             l.statement_ref, l.line_ref, $2::text, $3::timestamptz, $4::text
      from unnest(
        $5::text[], $6::text[], $7::text[], $8::text[],
        $9::text[], $10::text[], $11::text[],
        $12::int8[], $13::int8[], $14::text[],
        $15::text[], $16::text[]
      ) as l(id, catalog_id, source, type, period_start, period_end, territory, units, amount_micros, currency, statement_ref, line_ref)
      
      returning id
    ), allocation as (
      insert into revenue_allocations (org_id, revenue_id, creator_id, currency, amount_micros)
      select $17::text, a.revenue_id, a.creator_id, a.currency, a.amount_micros
      from unnest(
        $18::text[], $19::text[],
        $20::text[], $21::int8[]
      ) as a(revenue_id, creator_id, currency, amount_micros)
      where a.revenue_id in (select id from entry)
    )
    select id from entry

simple: select id, sequence, hash, created_at from append_org_events(
    'org_<id>', '{"evt_<id>"}'::text[], '{"revenue.imported"}'::text[], '{"usr_<id>"}'::text[],
    '{"revenue_batch"}'::text[], '{"bat_<id>"}'::text[],
    string_to_array('{"action":"revenue.imported","createdAt":"␁C","data":␁D,"id":"evt_<id>","orgId":"org_<id>","previousHash":"␁P","resource":{"id":"bat_<id>","type":"revenue_batch"},"sequence":␁S,"userId":"usr_<id>"}'::text, chr(2)), string_to_array('{"batchId":"bat_<id>","lineCount":3,"root":"<sha256>","totals":[{"amount":"7.50","currency":"EUR"}]}'::text, chr(2)),
    '<time>'::timestamptz, '<time>'::timestamptz); commit
