-- Event ids from one sequence instead of a per-account counter (docs/behaviour.md §10,
-- src/events/horizon.ts): writers no longer queue on their account's row lock. Ids
-- stay increasing per account (the sequence starts above every id given so far) but
-- have gaps; readers only read up to the settled horizon, below which every event
-- that will ever commit has committed.
create sequence events_id_seq owned by events.id;
select setval('events_id_seq', coalesce((select max(id) from events), 0) + 1, false);
alter table events alter column id set default nextval('events_id_seq');
alter table accounts drop column last_event_id;

-- Which accounts have events in an id range (the instance-wide safety poll).
create index events_id on events (id);
